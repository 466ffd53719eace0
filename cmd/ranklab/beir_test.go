package main

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/embed"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/sharedtest"
	"github.com/ranklab/ranklab/rag"
)

// TestBEIRRunSciFact reproduces Anserini's published BM25 flat figures on SciFact test
// (nDCG@10 0.6789, R@100 0.9253; ../shared/data/README.md) from `ranklab beir run`,
// evaluated by the project's evaluator and, when registered, by `ranklab eval`.
func TestBEIRRunSciFact(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: BM25 over all of SciFact runs in the full pass")
	}
	dir := sharedtest.Path(t, "data", "scifact")
	out := filepath.Join(t.TempDir(), "bm25.run")
	if _, stderr, code := runCmd("beir", "run", "--data", dir, "--out", out); code != 0 {
		t.Fatalf("beir run: exit %d: %s", code, stderr)
	}
	run, err := eval.ReadRunFile(out)
	if err != nil {
		t.Fatal(err)
	}
	qrelsPath := filepath.Join(dir, "qrels", "test.tsv")
	qrels, err := eval.ReadQrelsFile(qrelsPath)
	if err != nil {
		t.Fatal(err)
	}
	res, err := eval.Options{AllQueries: true}.Evaluate(qrels, run, eval.NDCG(10), eval.Recall(100))
	if err != nil {
		t.Fatal(err)
	}
	const ndcgAnserini, recallAnserini = 0.6789, 0.9253
	if len(res.Queries) != 300 || math.Abs(res.Means[0]-ndcgAnserini) > 0.003 || math.Abs(res.Means[1]-recallAnserini) > 0.01 {
		t.Errorf("SciFact test, %d queries: nDCG@10 %.4f (Anserini %.4f ± 0.003), R@100 %.4f (Anserini %.4f ± 0.01)",
			len(res.Queries), res.Means[0], ndcgAnserini, res.Means[1], recallAnserini)
	}
	t.Logf("nDCG@10 %.4f, R@100 %.4f", res.Means[0], res.Means[1])

	if _, ok := commands["eval"]; !ok {
		t.Log("ranklab eval not registered: checked with eval.Evaluate only")
		return
	}
	stdout, stderr, code := runCmd("eval", "-c", "-m", "ndcg_cut.10", "-m", "recall.100", qrelsPath, out)
	if code != 0 {
		t.Fatalf("eval: exit %d: %s", code, stderr)
	}
	got := sharedtest.AllLines(t, stdout)
	if math.Abs(got["ndcg_cut_10"]-ndcgAnserini) > 0.003 || math.Abs(got["recall_100"]-recallAnserini) > 0.01 {
		t.Errorf("ranklab eval: %v; want ndcg_cut_10 %.4f ± 0.003, recall_100 %.4f ± 0.01\n%s", got, ndcgAnserini, recallAnserini, stdout)
	}
}

func TestBEIRUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no action", []string{"beir"}, "usage:"},
		{"bad action", []string{"beir", "index"}, `unknown action "index"`},
		{"no out", []string{"beir", "run", "--data", "x"}, "--out is required"},
		{"bad agg", []string{"beir", "run", "--data", "x", "--out", "y", "--agg", "avg"}, `aggregation "avg"`},
		{"bad overlap", []string{"beir", "run", "--data", "x", "--out", "y", "--chunk", "8", "--overlap", "8"}, "overlap"},
		{"bad format", []string{"beir", "sweep", "--data", "x", "-f", "xml"}, `-f "xml"`},
		{"k zero", []string{"beir", "run", "--data", "x", "--out", "y", "--k", "0"}, "--k 0: the number of documents retrieved per query must be at least 1"},
		{"k negative", []string{"beir", "run", "--data", "x", "--out", "y", "--k", "-5"}, "--k -5"},
		{"sweep k zero", []string{"beir", "sweep", "--data", "x", "--k", "0"}, "--k must be positive"},
		{"sweep bad chunking", []string{"beir", "sweep", "--data", "x", "--chunkings", "whole,64/x"}, `--chunkings: "64/x": want whole, N or N/OVERLAP`},
		{"sweep overlap too large", []string{"beir", "sweep", "--data", "x", "--chunkings", "64/64"}, `--chunkings: "64/64": overlap`},
		{"sweep bad model", []string{"beir", "sweep", "--data", "x", "--model", "splade"}, `--model "splade"`},
		{"missing data", []string{"beir", "run", "--data", filepath.Join(t.TempDir(), "none"), "--out", "-"}, "corpus.jsonl"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, stderr, code := runCmd(tc.args...); code == 0 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want non-zero and %q", code, stderr, tc.want)
			}
		})
	}
}

// needMiniLM skips under -short (embedding Cranfield runs in the full pass) and where the dense
// model is not installed, unless RANKLAB_PEERS=1 or RANKLAB_DENSE=1 (CI), where it fails. The
// command's vector cache is the run's (sharedtest.VectorCache), never the user's.
func needMiniLM(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: embedding Cranfield runs in the full pass")
	}
	model, err := embed.Open(embed.Options{})
	if err != nil {
		if os.Getenv("RANKLAB_PEERS") != "1" && os.Getenv("RANKLAB_DENSE") != "1" {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	model.Close()
	sharedtest.VectorCache(t)
}

// TestBEIRRunMiniLM runs `ranklab beir run --model minilm` on Cranfield and wants the reference
// implementation's nDCG@10 (0.3995 ± 0.0005, ../shared/anchors/dense/README.md); then with
// chunks of 254 WordPiece tokens, the most the model reads (a document's first chunk is its
// truncated whole, whose vector the cache holds: only the tails of the 413 longer documents are
// embedded), whose chunk map must hold spans of at most 254 tokens, and some split documents.
func TestBEIRRunMiniLM(t *testing.T) {
	needMiniLM(t)
	dir := sharedtest.Path(t, "data", "cranfield")
	tmp := t.TempDir()
	out := filepath.Join(tmp, "minilm.run")
	if _, stderr, code := runCmd("beir", "run", "--model", "minilm", "--data", dir, "--k", "100", "--out", out); code != 0 {
		t.Fatalf("beir run: exit %d: %s", code, stderr)
	}
	run, err := eval.ReadRunFile(out)
	if err != nil {
		t.Fatal(err)
	}
	qrels, err := eval.ReadQrelsFile(filepath.Join(dir, "qrels", "test.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := eval.Options{AllQueries: true}.Evaluate(qrels, run, eval.NDCG(10))
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Mean(eval.NDCG(10)); math.Abs(got-0.3995) > 0.0005 || run.Tag != "minilm" {
		t.Errorf("Cranfield nDCG@10 %.4f (reference 0.3995), tag %q", got, run.Tag)
	}

	chunks, cmap := filepath.Join(tmp, "chunks.run"), filepath.Join(tmp, "chunks.map")
	if _, stderr, code := runCmd("beir", "run", "--model", "minilm", "--data", dir, "--chunk", "254",
		"--out", filepath.Join(tmp, "docs.run"), "--chunks", chunks, "--map", cmap); code != 0 {
		t.Fatalf("beir run --chunk 254: exit %d: %s", code, stderr)
	}
	m, err := rag.ReadChunkMapFile(cmap)
	if err != nil {
		t.Fatal(err)
	}
	split := 0
	for id, sp := range m {
		if sp.End-sp.Start > 254 || sp.End <= sp.Start {
			t.Fatalf("%s: span %v: want 1..254 tokens", id, sp)
		}
		if sp.Start > 0 {
			split++
		}
	}
	if split == 0 {
		t.Errorf("no chunk starts after its document's first token: no document was split")
	}
	if _, stderr, code := runCmd("beir", "run", "--model", "minilm", "--data", dir, "--chunk", "300", "--out", filepath.Join(tmp, "x.run")); code == 0 || !strings.Contains(stderr, "254") {
		t.Errorf("--chunk 300: exit %d, stderr %q: want an error naming the model's 254 tokens", code, stderr)
	}
}

// TestBEIRSweepMiniLM runs `ranklab beir sweep --model minilm` on Cranfield with two
// configurations, whole documents and chunks of 254 WordPiece tokens: the units and queries
// TestBEIRRunMiniLM embeds just before through the same vector cache, so this test embeds
// nothing after it (seconds); alone on a cold cache it embeds them all (minutes on a busy
// 2-core machine). The whole-document
// row must give the reference nDCG@10 (0.3995 ± 0.0005, as TestBEIRRunMiniLM), the header must
// count WordPiece tokens, and stderr must say what each configuration embedded and how long it
// took. A chunking longer than the model's 254 tokens is an error naming them.
func TestBEIRSweepMiniLM(t *testing.T) {
	needMiniLM(t)
	dir := sharedtest.Path(t, "data", "cranfield")
	stdout, stderr, code := runCmd("beir", "sweep", "--model", "minilm", "--data", dir, "--chunkings", "whole,254")
	if code != 0 {
		t.Fatalf("beir sweep: exit %d: %s", code, stderr)
	}
	t.Logf("stderr:\n%s\nstdout:\n%s", stderr, stdout)
	if !strings.Contains(stdout, "all-MiniLM-L6-v2 WordPiece tokens; all-MiniLM-L6-v2 (dense, exact cosine)") ||
		!strings.Contains(stdout, "1400 documents, 225 queries") {
		t.Errorf("header: want 1400 documents, 225 queries, WordPiece tokens and the dense model:\n%s", stdout)
	}
	ndcg, err := math.NaN(), error(nil)
	for _, line := range strings.Split(stdout, "\n") {
		if f := strings.Fields(line); len(f) > 4 && f[0] == "whole" {
			ndcg, err = strconv.ParseFloat(f[4], 64)
			break
		}
	}
	if err != nil || math.Abs(ndcg-0.3995) > 0.0005 {
		t.Errorf("whole documents: nDCG@10 %v (%v), want the reference 0.3995 ± 0.0005", ndcg, err)
	}
	for _, want := range []string{"ranklab beir sweep: whole: ", "ranklab beir sweep: chunk=254 overlap=0: ", " units (", "from the cache; index "} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if _, stderr, code := runCmd("beir", "sweep", "--model", "minilm", "--data", dir, "--chunkings", "whole,300"); code == 0 || !strings.Contains(stderr, "254") {
		t.Errorf("--chunkings whole,300: exit %d, stderr %q: want an error naming the model's 254 tokens", code, stderr)
	}
}

// TestBEIRRunPreflight is F4 of issue 34: IDs a run cannot carry failed only when the run was
// written, after retrieval or embedding, without the corpus line (a space), or went into the
// run silently (U+00A0). beir run now makes check --corpus's line check first: every bad line
// named, nothing retrieved, nothing written.
func TestBEIRRunPreflight(t *testing.T) {
	dir := sharedtest.WriteTree(t, map[string]string{
		"c/corpus.jsonl": `{"_id": "d1", "text": "apples and pears"}` + "\n" +
			`{"_id": "d 2", "text": "apples again"}` + "\n" +
			`{"_id": "d\u00a03", "text": "pears again"}` + "\n" +
			`{"_id": "d4", "text": "  "}` + "\n",
		"c/queries.jsonl":  `{"_id": "q1", "text": "apples"}` + "\n",
		"c/qrels/test.tsv": "query-id\tcorpus-id\tscore\nq1\td1\t1\n",
	})
	out := filepath.Join(dir, "bm25.run")
	_, errOut, rc := runCmd("beir", "run", "--data", filepath.Join(dir, "c"), "--out", out)
	corpus := filepath.Join(dir, "c", "corpus.jsonl")
	for _, want := range []string{
		corpus + `:2: error: document "_id" "d 2" holds the space character U+0020`,
		corpus + `:3: error: document "_id" "d\u00a03" holds the invisible or space character U+00A0`,
		corpus + `:4: warning: document "d4" has no text`,
		"2 errors above: fix the corpus before retrieving",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if rc != 1 {
		t.Errorf("rc %d, want 1", rc)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a run was written: %v", err)
	}
}

// TestBEIRSweepMessages is part of defect 16 of issue 33: --chunkings 64,64 failed on duplicate
// names only after computing everything (now a usage error before the collection is read), and
// a one-configuration sweep printed "[0% CI]" over empty Δ columns (now it prints its means).
func TestBEIRSweepMessages(t *testing.T) {
	_, errOut, rc := runCmd("beir", "sweep", "--data", filepath.Join(t.TempDir(), "none"), "--chunkings", "64,whole,64")
	if rc != 2 || !strings.Contains(errOut, "listed twice") {
		t.Errorf("--chunkings 64,whole,64: rc %d, %q; want a usage error before anything is read", rc, errOut)
	}
	if _, errOut, rc := runCmd("beir", "sweep", "--data", filepath.Join(t.TempDir(), "none"), "--chunkings", "whole,0"); rc != 2 || !strings.Contains(errOut, "listed twice") {
		t.Errorf("--chunkings whole,0: rc %d, %q", rc, errOut)
	}
	dir := sharedtest.WriteTree(t, map[string]string{
		"corpus.jsonl":   `{"_id": "d1", "text": "apples and pears"}` + "\n" + `{"_id": "d2", "text": "pears only"}` + "\n",
		"queries.jsonl":  `{"_id": "q1", "text": "apples"}` + "\n" + `{"_id": "q2", "text": "pears"}` + "\n",
		"qrels/test.tsv": "query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\n",
	})
	out, errOut, rc := runCmd("beir", "sweep", "--data", dir, "--chunkings", "whole", "--budgets", "128")
	if rc != 0 {
		t.Fatalf("one configuration: rc %d %s", rc, errOut)
	}
	if strings.Contains(out, "0% CI") || strings.Contains(out, "Δ") {
		t.Errorf("a one-configuration sweep prints comparisons:\n%s", out)
	}
	if !strings.Contains(out, "nDCG") {
		t.Errorf("no means:\n%s", out)
	}
}
