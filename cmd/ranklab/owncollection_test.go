package main

import (
	"os"
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

// TestImportAndCheckAgreeOnNoText: a heading with nothing under it (the stubs of Go's next
// release notes) is a document with a title and no text; corpus import and check --corpus
// count it alike (before: import listed 1 document with no text, check --corpus said 0, as it
// counted the title's words as text). A document with neither title nor text is counted too.
func TestImportAndCheckAgreeOnNoText(t *testing.T) {
	dir := sharedtest.WriteTree(t, map[string]string{
		"docs/notes.md":  "## Go command\n\n## Cgo\n\nCgo is now enabled by default.\n",
		"docs/blank.txt": "\n",
	})
	out := filepath.Join(dir, "coll")
	_, stderr, code := runCmd("corpus", "import", "--split-on", "headings", "--out", out, filepath.Join(dir, "docs"))
	if code != 0 {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "2 documents with no text") || !strings.Contains(stderr, "notes.md:go-command") || !strings.Contains(stderr, "blank.txt") {
		t.Errorf("import: stderr %q", stderr)
	}
	stdout, stderr, code := runCmd("check", "--corpus", filepath.Join(out, "corpus.jsonl"))
	if code != 0 {
		t.Fatalf("check --corpus: exit %d: %s%s", code, stdout, stderr)
	}
	for _, want := range []string{"3 documents; 2 with no text: ", "notes.md:go-command", "blank.txt", "0 errors, 2 warnings",
		`document "notes.md:go-command" has a title and no text`, `document "blank.txt" has no text`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("check --corpus lacks %q:\n%s", want, stdout)
		}
	}
}

// TestJudgedDepthWarnings is issue 34's F3: with a depth-2 pool judged, measures at 4 score
// documents nobody judged as not relevant. eval and compare say so (before: silently), name
// the run that was not pooled (a fusion made after the pool), and compare never tests
// Judged@k. Qrels of relevant documents only (BEIR's) get no such warning.
func TestJudgedDepthWarnings(t *testing.T) {
	pool := "q1 0 a 1\nq1 0 b 0\nq2 0 c 0\nq2 0 d 1\n" // a depth-2 pool of run x, judged
	dir := sharedtest.WriteTree(t, map[string]string{
		"pool.qrels": pool,
		"rel.qrels":  "q1 0 a 1\nq2 0 d 1\n",
		"x.run":      "q1 Q0 a 1 4 x\nq1 Q0 b 2 3 x\nq1 Q0 e 3 2 x\nq1 Q0 f 4 1 x\nq2 Q0 c 1 4 x\nq2 Q0 d 2 3 x\nq2 Q0 g 3 2 x\nq2 Q0 h 4 1 x\n",
		"fused.run":  "q1 Q0 e 1 4 fused\nq1 Q0 a 2 3 fused\nq2 Q0 d 1 4 fused\nq2 Q0 c 2 3 fused\n",
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	_, stderr, code := runCmd("eval", "-m", "ndcg_cut.2,4", p("pool.qrels"), p("x.run"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// Judged@4 of x = (2/4 + 2/4) / 2 = 0.5; its top 2 is judged, so no word on depth 2.
	if !strings.Contains(stderr, "Judged@4 = 0.50: 50 % of its top 4 was never judged") || strings.Contains(stderr, "Judged@2") ||
		strings.Contains(stderr, "not in the pool") {
		t.Errorf("eval x.run: stderr %q", stderr)
	}
	_, stderr, _ = runCmd("eval", "-m", "P.2", p("pool.qrels"), p("fused.run"))
	// fused puts the unjudged e first on q1: Judged@1 < 1 there, Judged@2 = (1/2 + 2/2) / 2 = 0.75.
	if !strings.Contains(stderr, "no judgment for 1 of 2 queries: it was not in the pool") || !strings.Contains(stderr, "Judged@2 = 0.75") {
		t.Errorf("eval fused.run: stderr %q", stderr)
	}
	if _, stderr, _ := runCmd("eval", "-m", "ndcg_cut.4", p("rel.qrels"), p("x.run")); strings.Contains(stderr, "Judged") {
		t.Errorf("relevant-only qrels: stderr %q", stderr)
	}
	out, stderr, code := runCmd("compare", "-m", "nDCG@4", "-m", "Judged@4", "-permutations", "99", "-resamples", "99", p("pool.qrels"), p("x.run"), p("fused.run"))
	if code != 0 {
		t.Fatalf("compare: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"x (baseline)", "fused: its first document has no judgment", "x: Judged@4 = 0.50", "Judged@4 is the judged share of the top k"} {
		if !strings.Contains(out, want) {
			t.Errorf("compare lacks %q:\n%s", want, out)
		}
	}
}

// TestJudgedDepthWarningsTukey: compare -test tukey says the same as compare's paired tests
// where a measure at k scores deeper than the pool was judged, and never tests Judged@k
// (before: no note at all, and Judged@k got letters and p-values like a quality measure).
func TestJudgedDepthWarningsTukey(t *testing.T) {
	dir := sharedtest.WriteTree(t, map[string]string{
		"pool.qrels": "q1 0 a 1\nq1 0 b 0\nq2 0 c 0\nq2 0 d 1\n", // the depth-2 pool of x, judged
		"x.run":      "q1 Q0 a 1 4 x\nq1 Q0 b 2 3 x\nq1 Q0 e 3 2 x\nq1 Q0 f 4 1 x\nq2 Q0 c 1 4 x\nq2 Q0 d 2 3 x\nq2 Q0 g 3 2 x\nq2 Q0 h 4 1 x\n",
		"fused.run":  "q1 Q0 e 1 4 fused\nq1 Q0 a 2 3 fused\nq2 Q0 d 1 4 fused\nq2 Q0 c 2 3 fused\n",
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	out, stderr, code := runCmd("compare", "-m", "nDCG@4", "-m", "nDCG@2", "-m", "Judged@4", "-test", "tukey", "-permutations", "99", p("pool.qrels"), p("x.run"), p("fused.run"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// Judged@k divides by min(k, n): Judged@4 of x = (2/4 + 2/4) / 2 = 0.5; fused ranks 2 a
	// query, so its Judged@4 = Judged@2 = (1/2 + 2/2) / 2 = 0.75; Judged@2 of x = 1 (no note);
	// fused's first document is unjudged on q1.
	for _, want := range []string{"note: x: Judged@4 = 0.50", "note: fused: Judged@4 = 0.75", "note: fused: Judged@2 = 0.75",
		"note: fused: its first document has no judgment for 1 of 2 queries", "Judged@4 is the judged share of the top k"} {
		if !strings.Contains(out, want) {
			t.Errorf("compare -test tukey lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "x: Judged@2") || strings.Contains(out, "Judged@4 over") {
		t.Errorf("a note on a judged depth, or Judged@4 tested:\n%s", out)
	}
	// -f html keeps the notes: on standard error, as compare's other formats.
	_, stderr, _ = runCmd("compare", "-m", "nDCG@4", "-test", "tukey", "-permutations", "99", "-f", "html", p("pool.qrels"), p("x.run"), p("fused.run"))
	if !strings.Contains(stderr, "ranklab compare: note: x: Judged@4 = 0.50") {
		t.Errorf("-f html: stderr %q", stderr)
	}
}

// TestCompareNamesByTag: runs are named by their tags, or by their paths when tags collide
// (issue 34: compare named runs by full path, ignoring the tag).
func TestCompareNamesByTag(t *testing.T) {
	dir := sharedtest.WriteTree(t, map[string]string{
		"q": "q1 0 a 1\nq2 0 b 1\n", "one.run": "q1 Q0 a 1 2 bm25\nq2 Q0 b 1 2 bm25\n", "two.run": "q1 Q0 b 1 2 dense\nq2 Q0 b 1 2 dense\n",
		"three.run": "q1 Q0 a 1 2 dense\nq2 Q0 a 1 2 dense\n",
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	out, _, _ := runCmd("compare", "-m", "P@1", "-permutations", "9", "-resamples", "9", p("q"), p("one.run"), p("two.run"))
	if !strings.Contains(out, "bm25 (baseline)") || !strings.Contains(out, "\ndense ") {
		t.Errorf("distinct tags: %s", out)
	}
	out, _, _ = runCmd("compare", "-m", "P@1", "-permutations", "9", "-resamples", "9", p("q"), p("one.run"), p("two.run"), p("three.run"))
	if !strings.Contains(out, p("two.run")) || !strings.Contains(out, p("three.run")) {
		t.Errorf("shared tag: want paths\n%s", out)
	}
}

// TestAgreeRanksRuns: agree's heading says "ranked by", so the runs are listed by their mean
// under A, highest first, with their rank under B (issue 34: they came in argument order).
func TestAgreeRanksRuns(t *testing.T) {
	dir := sharedtest.WriteTree(t, map[string]string{
		"a.qrels": "q1 0 a 1\nq1 0 b 0\nq2 0 a 0\nq2 0 b 1\n", "b.qrels": "q1 0 a 0\nq1 0 b 1\nq2 0 a 0\nq2 0 b 1\n",
		"worse.run":  "q1 Q0 b 1 2 worse\nq2 Q0 a 1 2 worse\n",   // P@1 under A: 0; under B: 1/2
		"better.run": "q1 Q0 a 1 2 better\nq2 Q0 b 1 2 better\n", // P@1 under A: 1; under B: 1/2
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	out, stderr, code := runCmd("agree", "-m", "P@1", p("a.qrels"), p("b.qrels"), p("worse.run"), p("better.run"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, w := strings.Index(out, "  1       better.run"), strings.Index(out, "  2       worse.run")
	if b < 0 || w < 0 {
		t.Errorf("want better.run ranked 1 and worse.run 2 under A:\n%s", out)
	}
}

// TestRAGBudgetUnit is issue 34's F6 on budgets: beir run's chunk map names its token unit and
// rag repeats it over the budget table (before: "nDCG@512tok" with no unit, cl100k_base for
// BM25 and WordPiece for MiniLM alike); --truncate cuts the first chunk that does not fit.
func TestRAGBudgetUnit(t *testing.T) {
	dir := sharedtest.WriteTree(t, map[string]string{"corpus.jsonl": ownCorpus, "queries.jsonl": ownQueries,
		"qrels/test.tsv": "q1 0 apple 1\nq2 0 pear 1\nq3 0 plum 1\n"})
	p := func(name string) string { return filepath.Join(dir, name) }
	if _, stderr, code := runCmd("beir", "run", "--data", dir, "--chunk", "4", "--out", p("d.run"), "--chunks", p("c.run"), "--map", p("c.map")); code != 0 {
		t.Fatalf("beir run: exit %d: %s", code, stderr)
	}
	out, stderr, code := runCmd("rag", p("qrels/test.tsv"), p("c.run"), "--map", p("c.map"), "--budgets", "3", "--truncate")
	if code != 0 {
		t.Fatalf("rag: exit %d: %s", code, stderr)
	}
	// A 4-token chunk never fits 3 tokens whole; truncated, the first chunk's document is in:
	// Success 1 on q1 and q2, 0 on q3 (4-token chunks cut "prunes" in two: no chunk matches q3): 2/3.
	if !strings.Contains(out, "Token budgets in cl100k_base tokens") || !strings.Contains(out, "Success(trunc)@3tok  0.6667") {
		t.Errorf("rag output:\n%s", out)
	}
}

// TestJudgeMerge is issue 34's F5 for several judges: their files join into one qrels, and
// pairs graded differently are listed (before: one panel per qrels file, nothing to join).
func TestJudgeMerge(t *testing.T) {
	dir := sharedtest.WriteTree(t, map[string]string{
		"ann.qrels": "q1 0 a 2\nq1 0 b 0\nq2 0 c 1\nq3 0 x -1\n", // q3 x: a pool line, not judged
		"bob.qrels": "q2 0 c 3\nq2 0 d 0\nq1 0 b 0\n",
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	out, stderr, code := runCmd("judge", "merge", "--conflicts", p("conflicts.txt"), p("ann.qrels"), p("bob.qrels"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// q1 b alike, q2 c in conflict (1 vs 3): left out by default.
	if want := "q1 0 a 2\nq1 0 b 0\nq2 0 d 0\n"; out != want {
		t.Errorf("merged:\n%s\nwant\n%s", out, want)
	}
	if !strings.Contains(stderr, "4 judged pairs") || !strings.Contains(stderr, "2 judged by more than one file: 1 alike, 1 in conflict") ||
		!strings.Contains(stderr, "q2 c 1 3") || !strings.Contains(stderr, "ranklab agree") {
		t.Errorf("stderr %q", stderr)
	}
	if b, _ := os.ReadFile(p("conflicts.txt")); string(b) != "q2 c 1 3\n" {
		t.Errorf("conflicts file %q", b)
	}
	out, _, _ = runCmd("judge", "merge", "--on-conflict", "high", p("ann.qrels"), p("bob.qrels"))
	if !strings.Contains(out, "q2 0 c 3\n") {
		t.Errorf("--on-conflict high:\n%s", out)
	}
}
