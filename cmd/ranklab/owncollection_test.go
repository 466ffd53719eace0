package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/sharedtest"
)

// ownCorpus and ownQueries are a team's collection in small: three documents, three queries.
const (
	ownCorpus = `{"_id":"apple","title":"Apples","text":"red apples grow on apple trees"}
{"_id":"pear","text":"green pears ripen after picking"}
{"_id":"plum","title":"Plums","text":"plums dry into prunes"}
`
	ownQueries = `{"_id":"q1","text":"apple trees"}
{"_id":"q2","text":"ripe pears"}
{"_id":"q3","text":"prunes"}
`
)

// runQueries returns the query IDs of the TREC run in path, sorted.
func runQueries(t *testing.T, path string) []string {
	t.Helper()
	run, err := eval.ReadRunFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var qs []string
	for q := range run.Queries {
		qs = append(qs, q)
	}
	slices.Sort(qs)
	return qs
}

// TestBEIRRunOwnCollection is issue 34's F1: retrieval on a collection with no qrels, or with
// qrels for some queries, runs every query and says which have no qrels (before: "open
// .../qrels/test.tsv: no such file or directory", and with qrels a silent run of the judged
// queries only). The qrels may be TREC qrels, as the judging panel writes them (F6).
func TestBEIRRunOwnCollection(t *testing.T) {
	all := []string{"q1", "q2", "q3"}
	tests := []struct {
		name   string
		files  map[string]string
		args   []string
		want   []string
		stderr string
	}{
		{"no qrels", map[string]string{}, nil, all, "no qrels (no "},
		{"header only", map[string]string{"qrels/test.tsv": "query-id\tcorpus-id\tscore\n"}, nil, all, "holds no judgment: all 3 queries run unjudged"},
		{"some judged, BEIR TSV", map[string]string{"qrels/test.tsv": "query-id\tcorpus-id\tscore\nq1\tapple\t1\nq2\tpear\t1\n"}, nil, all,
			"1 of 3 queries have no qrels in "},
		{"some judged, TREC qrels", map[string]string{"qrels/test.tsv": "q1 0 apple 1\nq2 0 pear 0\n"}, nil, all, "have no qrels in "},
		{"--queries", map[string]string{"qrels/test.tsv": "q1 0 apple 1\n", "more.jsonl": `{"_id":"q9","text":"dried plums"}` + "\n"},
			[]string{"--queries", "more.jsonl"}, []string{"q9"}, `query judged in`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"corpus.jsonl": ownCorpus, "queries.jsonl": ownQueries}
			for k, v := range tc.files {
				files[k] = v
			}
			dir := sharedtest.WriteTree(t, files)
			out := filepath.Join(dir, "bm25.run")
			args := []string{"beir", "run", "--data", dir, "--out", out}
			for _, a := range tc.args {
				if strings.HasSuffix(a, ".jsonl") {
					a = filepath.Join(dir, a)
				}
				args = append(args, a)
			}
			_, stderr, code := runCmd(args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if got := runQueries(t, out); !slices.Equal(got, tc.want) {
				t.Errorf("run queries %v, want %v", got, tc.want)
			}
			if !strings.Contains(stderr, tc.stderr) {
				t.Errorf("stderr %q, want it to contain %q", stderr, tc.stderr)
			}
		})
	}

	t.Run("sweep needs qrels", func(t *testing.T) {
		dir := sharedtest.WriteTree(t, map[string]string{"corpus.jsonl": ownCorpus, "queries.jsonl": ownQueries})
		_, stderr, code := runCmd("beir", "sweep", "--data", dir)
		if code != 1 || !strings.Contains(stderr, "judge a pool of runs first") {
			t.Errorf("exit %d, stderr %q", code, stderr)
		}
	})
}

// TestCorpusImport is issue 34's F2: from a folder of files and a plain text file of questions
// to a collection beir run reads (before: no such command; a team wrote corpus.jsonl by hand).
func TestCorpusImport(t *testing.T) {
	dir := sharedtest.WriteTree(t, map[string]string{
		"docs/apples.md":   "# Apples\n\nRed apples grow on apple trees.\n\n## Storing\n\nKeep apples cool.\n",
		"docs/pears.html":  "<title>Pears</title><p>Green pears ripen after picking.</p>",
		"docs/empty.txt":   "",
		"docs/logo.png":    "png",
		"questions.txt":    "Where do apples grow?\nHow are pears ripened?\n",
		"collection/.keep": "",
	})
	out := filepath.Join(dir, "collection")
	stdout, stderr, code := runCmd("corpus", "import", "--split-on", "headings", "--questions", filepath.Join(dir, "questions.txt"),
		"--out", out, filepath.Join(dir, "docs"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"3 files (1 html, 1 markdown, 1 text) -> 4 documents in ", "2 questions -> ", "next: ranklab beir run --data "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout %q lacks %q", stdout, want)
		}
	}
	for _, want := range []string{"1 file of other types skipped: ", "logo.png", "1 document with no text", "empty.txt"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}
	run := filepath.Join(dir, "bm25.run")
	if _, stderr, code := runCmd("beir", "run", "--data", out, "--out", run); code != 0 {
		t.Fatalf("beir run: exit %d: %s", code, stderr)
	}
	r, err := eval.ReadRunFile(run)
	if err != nil {
		t.Fatal(err)
	}
	if top := eval.Rank(r.Queries["where-do-apples-grow"]); len(top) == 0 || top[0].Doc != "apples.md:apples" {
		t.Errorf("where-do-apples-grow: %v", top)
	}
	if top := eval.Rank(r.Queries["how-are-pears-ripened"]); len(top) == 0 || top[0].Doc != "pears.html" {
		t.Errorf("how-are-pears-ripened: %v", top)
	}
	if _, stderr, code := runCmd("corpus", "import", "--out", out, filepath.Join(dir, "docs", "logo.png")); code != 1 ||
		!strings.Contains(stderr, "1 file of other types skipped") {
		t.Errorf("nothing to import: exit %d, %q", code, stderr)
	}
}
