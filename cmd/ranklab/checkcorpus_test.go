package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

func TestCheckCorpusCommand(t *testing.T) {
	dir := sharedtest.WriteTree(t, map[string]string{
		"beir/corpus.jsonl": `{"_id": "a", "title": "T", "text": "Same  words here"}` + "\n" +
			`{"_id": "b", "title": "t", "text": "same words HERE"}` + "\n" +
			`{"_id": "c", "title": "", "text": "other words"}` + "\n" +
			`{"_id": "e", "title": "", "text": " "}` + "\n",
		"qrels": "q1 0 a 2\nq1 0 c 0\nq2 0 a 1\nq2 0 b 1\nq3 0 e 1\n",
	})
	out, errOut, rc := runCmd("check", "--corpus", filepath.Join(dir, "beir"), "--qrels", filepath.Join(dir, "qrels"))
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, errOut)
	}
	for _, want := range []string{
		"4 documents; 1 with no text: e",
		"exact twins (same text, other ID): 1 group, 2 documents",
		`  a = b: "T Same words here"`,
		// q1 judges a (grade 2) but not its twin b; q2 judges both.
		"judged pairs: 5; with a twin the query does not judge: 1 (1 of them relevant, grade >= 1); of a document with no text: 1",
		"  query q1: a (grade 2) has the unjudged exact twin b",
		"  query q3 judges e (grade 1), a document with no text",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The corpus file itself (not its folder) reads the same; JSON lists every group.
	out, _, rc = runCmd("check", "--json", "--corpus="+filepath.Join(dir, "beir", "corpus.jsonl"))
	var js struct{ Exact [][]string }
	if err := json.Unmarshal([]byte(out), &js); rc != 0 || err != nil || len(js.Exact) != 1 || js.Exact[0][1] != "b" {
		t.Errorf("json: rc %d %v %+v\n%s", rc, err, js, out)
	}
	if !strings.Contains(out, `"role": "corpus"`) {
		t.Errorf("json without its stamp:\n%s", out)
	}
	if _, errOut, rc := runCmd("check", "--corpus", filepath.Join(dir, "missing")); rc != 1 || !strings.Contains(errOut, "missing") {
		t.Errorf("missing corpus: rc %d %q", rc, errOut)
	}
	if _, _, rc := runCmd("check", "--corpus", dir, "--threshold", "1.5"); rc != 2 {
		t.Errorf("threshold 1.5: rc %d, want 2", rc)
	}
}

// TestCheckCorpusPreflight is F4 of issue 34 and defects 14 and 15 of issue 33: check --corpus
// prints every bad line at once (it stopped at the first), names the IDs a run cannot carry and
// the empty documents, exits 1 on an error; reads a gzip file by its magic bytes (a gzip without
// the .gz suffix read as text: "carriage return inside the line"); --examples -1 is a usage
// error (it panicked: slice bounds out of range).
func TestCheckCorpusPreflight(t *testing.T) {
	content := `{"_id": "d 1", "text": "a space"}` + "\n" +
		`{"_id": "d\u00002", "text": "a NUL"}` + "\n" +
		`{"_id": "d\u00a03", "text": "a no-break space"}` + "\n" +
		"not json\n" +
		`{"_id": "e", "text": " "}` + "\n" +
		`{"_id": "ok", "text": "fine words here"}` + "\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(content))
	zw.Close()
	dir := sharedtest.WriteTree(t, map[string]string{"corpus.jsonl": content, "gzipped": gz.String(),
		"good.jsonl": `{"_id": "a", "text": "same words"}` + "\n" + `{"_id": "b", "text": "same words"}` + "\n"})
	for _, name := range []string{"corpus.jsonl", "gzipped"} {
		path := filepath.Join(dir, name)
		out, errOut, rc := runCmd("check", "--corpus", path)
		if rc != 1 {
			t.Errorf("%s: rc %d, want 1 (errors): %s", name, rc, errOut)
		}
		for _, want := range []string{
			path + `:1: error: document "_id" "d 1" holds the space character U+0020`,
			path + `:2: error: document "_id" "d\x002" holds the control character U+0000`,
			path + `:3: error: document "_id" "d\u00a03" holds the invisible or space character U+00A0`,
			path + `:4: error: not a JSON object`,
			path + `:5: warning: document "e" has no text`,
			path + ": 4 errors, 1 warning",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: output lacks %q:\n%s", name, want, out)
			}
		}
	}
	if _, errOut, rc := runCmd("check", "--corpus", filepath.Join(dir, "good.jsonl"), "--examples", "-1"); rc != 2 || !strings.Contains(errOut, "--examples -1") {
		t.Errorf("--examples -1: rc %d, %q; want a usage error", rc, errOut)
	}
}
