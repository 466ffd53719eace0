package main

import (
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
