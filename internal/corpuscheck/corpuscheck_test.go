package corpuscheck

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/check"
	"github.com/ranklab/ranklab/internal/scan"
)

// TestCorpusFilePreflight is F4 of issue 34 and defect 15 of issue 33: the preflight reports
// every bad line at once (not the first only), the IDs a run cannot carry and the empty
// documents, and reads gzip by its magic bytes whatever the name (no .gz; zero padding).
func TestCorpusFilePreflight(t *testing.T) {
	lines := []string{
		`{"_id": "ok1", "title": "A", "text": "some words here"}`,
		`{"_id": "d 2", "text": "a space in the ID"}`,
		`{"_id": "d\t3", "text": "a tab"}`,
		`{"_id": "d\u00004", "text": "a NUL"}`,
		`{"_id": "d\u00a05", "text": "a no-break space"}`,
		`{"_id": "d\u200b6", "text": "a zero-width space"}`,
		`{"_id": "\ufeffd7", "text": "a leading U+FEFF"}`,
		`not json`,
		`{"_id": "ok1", "text": "a duplicate"}`,
		`{"_id": "e1", "title": " ", "text": "  "}`,
		`{"_id": 9, "text": "a number"}`,
		`{"_id": "t1", "title": null, "text": "x"}`,
		`{"_id": "m1"}`,
		`{"_id": "ok2", "text": "fine again"}`,
		"{\"_id\": \"d\xff15\", \"text\": \"invalid UTF-8\"}",
	}
	content := strings.Join(lines, "\n") + "\n"
	wantLines := map[int]string{2: codeIDChars, 3: codeIDChars, 4: codeIDChars, 5: codeIDChars, 6: codeIDChars, 7: codeIDChars,
		8: codeParse, 9: codeDuplicate, 10: codeEmptyDoc, 11: codeParse, 12: codeParse, 13: codeParse, 15: codeParse}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(content))
	zw.Close()
	dir := t.TempDir()
	files := map[string][]byte{
		"plain.jsonl":          []byte(content),
		"gzip-no-suffix.jsonl": gz.Bytes(),
		"padded.jsonl.gz":      append(append([]byte(nil), gz.Bytes()...), make([]byte, 512)...),
	}
	for name, data := range files {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			os.WriteFile(path, data, 0o644)
			r, docs, err := File(path, nil, check.TwinOptions{}, false)
			if err != nil {
				t.Fatal(err)
			}
			got := map[int]string{}
			for _, f := range r.Findings {
				if f.File != path {
					t.Errorf("finding names %q, want %q", f.File, path)
				}
				got[f.Line] = f.Code
			}
			for line, code := range wantLines {
				if got[line] != code {
					t.Errorf("line %d: finding %q, want %q (%v)", line, got[line], code, r.Findings)
				}
			}
			if len(got) != len(wantLines) {
				t.Errorf("%d findings, want %d: %v", len(got), len(wantLines), r.Findings)
			}
			if len(docs) != 3 || docs[0].ID != "ok1" || docs[1].ID != "e1" || docs[2].ID != "ok2" {
				t.Errorf("documents read %v", docs)
			}
		})
	}
}

// FuzzReadCorpus: the lenient corpus reader never stops early and never panics; the documents
// it keeps have IDs a run can carry, each once, and every finding has a line of the input.
func FuzzReadCorpus(f *testing.F) {
	f.Add(`{"_id": "a", "text": "x"}` + "\n" + `{"_id": "a b", "text": "y"}` + "\n")
	f.Add("\ufeff" + `{"_id": "\u00a0", "title": 3, "text": ""}` + "\r\nnull\n")
	f.Add("{}\n\n[1]\n")
	f.Fuzz(func(t *testing.T, in string) {
		docs, findings := readCorpus(strings.NewReader(in), "f")
		lines := strings.Count(in, "\n") + 1
		seen := map[string]bool{}
		for _, d := range docs {
			if why, _ := scan.IDProblem(d.ID); why != "" || seen[d.ID] {
				t.Fatalf("kept %q (%s, seen %v)", d.ID, why, seen[d.ID])
			}
			seen[d.ID] = true
		}
		for _, fd := range findings {
			if fd.Line < 0 || fd.Line > lines+1 || fd.File != "f" {
				t.Fatalf("finding %v outside the %d lines", fd, lines)
			}
		}
	})
}
