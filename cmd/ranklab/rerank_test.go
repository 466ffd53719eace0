package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/sharedtest"
)

func TestRerankUsageErrors(t *testing.T) {
	run := sharedtest.WriteFile(t, t.TempDir(), "first.run", "1 Q0 184 1 2.5 bm25\n")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no run", []string{"rerank", "--data", "x"}, "--run is required"},
		{"bad format", []string{"rerank", "--run", run, "-f", "csv"}, `-f "csv"`},
		{"bad model", []string{"rerank", "--run", run, "--model", "monot5"}, `--model "monot5": want minilm`},
		{"mix above 1", []string{"rerank", "--run", run, "--mix", "1.5"}, "--mix 1.5"},
		{"mix nan", []string{"rerank", "--run", run, "--mix", "nan"}, "--mix"},
		{"negative depth", []string{"rerank", "--run", run, "--depth", "0,-5"}, `--depth: "-5"`},
		{"depth not a number", []string{"rerank", "--run", run, "--depth", "10,x"}, `--depth: "x"`},
		{"k zero", []string{"rerank", "--run", run, "--k", "0"}, "--k"},
		{"missing run", []string{"rerank", "--run", filepath.Join(t.TempDir(), "none.run")}, "none.run"},
		{"positional argument", []string{"rerank", "--run", run, "extra"}, `unexpected argument "extra"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, stderr, code := runCmd(tc.args...); code == 0 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want non-zero and %q", code, stderr, tc.want)
			}
		})
	}
}

// TestRerankMiniLM reranks Cranfield's BM25 run (from ranklab beir run) at depths 20 and 1000
// and checks what holds whatever the model: the runs written are the ones evaluated (their
// nDCG@10 is the JSON's), reranking 20 permutes the first stage's top 20 and leaves the rest in
// its order, R@10 never exceeds the ceiling R@N, and --mix 1 keeps the first stage's ranking.
func TestRerankMiniLM(t *testing.T) {
	needMiniLM(t)
	dir := sharedtest.Path(t, "data", "cranfield")
	tmp := t.TempDir()
	firstPath := filepath.Join(tmp, "bm25.run")
	if _, stderr, code := runCmd("beir", "run", "--data", dir, "--k", "100", "--out", firstPath); code != 0 {
		t.Fatalf("beir run: exit %d: %s", code, stderr)
	}
	outDir := filepath.Join(tmp, "reranked")
	stdout, stderr, code := runCmd("rerank", "--data", dir, "--run", firstPath, "--depth", "20,1000", "--out", outDir, "-f", "json", "--permutations", "200", "--resamples", "200")
	if code != 0 {
		t.Fatalf("rerank: exit %d: %s", code, stderr)
	}
	var got struct {
		Queries, Family int
		Rows            []struct {
			Depth   int
			Tag     string
			Means   map[string]float64
			Ceiling *float64 `json:"ceiling_recall_at_depth"`
			Scored  float64  `json:"scored_per_query"`
		}
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if len(got.Rows) != 3 || got.Rows[0].Depth != 0 || got.Rows[0].Ceiling != nil || got.Family != 4 || got.Queries != 225 {
		t.Fatalf("rows %+v, family %d, queries %d; want depths 0, 20, 1000, a family of 2 depths × 2 measures, 225 queries", got.Rows, got.Family, got.Queries)
	}
	files, _ := filepath.Glob(filepath.Join(outDir, "*"))
	if want := []string{filepath.Join(outDir, "bm25-minilm1000.run"), filepath.Join(outDir, "bm25-minilm20.run")}; !slices.Equal(files, want) {
		t.Errorf("files %v, want %v (no temporary file left)", files, want)
	}
	qrels, err := eval.ReadQrelsFile(filepath.Join(dir, "qrels", "test.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	first, err := eval.ReadRunFile(firstPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range got.Rows[1:] {
		run, err := eval.ReadRunFile(filepath.Join(outDir, row.Tag+".run"))
		if err != nil {
			t.Fatal(err)
		}
		res, err := eval.Options{AllQueries: true}.Evaluate(qrels, run, eval.NDCG(10), eval.Recall(10))
		if err != nil {
			t.Fatal(err)
		}
		if res.Mean(eval.NDCG(10)) != row.Means["nDCG@10"] {
			t.Errorf("depth %d: the file's nDCG@10 %.6f, printed %.6f", row.Depth, res.Mean(eval.NDCG(10)), row.Means["nDCG@10"])
		}
		if row.Ceiling == nil || res.Mean(eval.Recall(10)) > *row.Ceiling {
			t.Errorf("depth %d: R@10 %.4f, ceiling %v", row.Depth, res.Mean(eval.Recall(10)), row.Ceiling)
		}
		if row.Scored != math.Min(float64(row.Depth), 100) {
			t.Errorf("depth %d: %.1f documents scored per query, want %d", row.Depth, row.Scored, min(row.Depth, 100))
		}
		if row.Depth != 20 {
			continue
		}
		for q, docs := range first.Queries {
			f, r := eval.Rank(docs), eval.Rank(run.Queries[q])
			if len(f) != len(r) {
				t.Fatalf("query %s: %d documents, the first stage %d", q, len(r), len(f))
			}
			var a, b []string
			for i := range f {
				if i < 20 {
					a, b = append(a, f[i].Doc), append(b, r[i].Doc)
					continue
				}
				if f[i].Doc != r[i].Doc {
					t.Fatalf("query %s rank %d: %s, the first stage %s", q, i+1, r[i].Doc, f[i].Doc)
				}
			}
			slices.Sort(a)
			slices.Sort(b)
			if !slices.Equal(a, b) {
				t.Fatalf("query %s: top 20 %v is not the first stage's %v", q, b, a)
			}
		}
	}
	// --mix 1: the first stage's scores alone, min-max normalised: its ranking.
	mixDir := filepath.Join(tmp, "mix")
	if _, stderr, code := runCmd("rerank", "--data", dir, "--run", firstPath, "--depth", "50", "--mix", "1", "--out", mixDir, "--permutations", "100", "--resamples", "100"); code != 0 {
		t.Fatalf("rerank --mix 1: exit %d: %s", code, stderr)
	}
	mixed, err := eval.ReadRunFile(filepath.Join(mixDir, "bm25-minilm50-mix1.run"))
	if err != nil {
		t.Fatal(err)
	}
	for q, docs := range first.Queries {
		f, r := eval.Rank(docs), eval.Rank(mixed.Queries[q])
		for i := range f {
			if f[i].Doc != r[i].Doc {
				t.Fatalf("--mix 1, query %s rank %d: %s, the first stage %s", q, i+1, r[i].Doc, f[i].Doc)
			}
		}
	}
	// A first stage that names a document the corpus lacks is an error naming it.
	bad := sharedtest.WriteFile(t, tmp, "bad.run", "1 Q0 nosuchdoc 1 2.5 bm25\n")
	if _, stderr, code := runCmd("rerank", "--data", dir, "--run", bad, "--depth", "5"); code == 0 || !strings.Contains(stderr, "document nosuchdoc (query 1") {
		t.Errorf("exit %d, stderr %q; want an error naming nosuchdoc", code, stderr)
	}
}
