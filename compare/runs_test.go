package compare

import (
	"bufio"
	"fmt"
	"github.com/ranklab/ranklab/eval"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
	"gonum.org/v1/gonum/stat"
)

func mustRun(t *testing.T, path string) eval.Run {
	t.Helper()
	r, err := eval.ReadRunFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRunsFixture(t *testing.T) {
	qrels, err := eval.ReadQrelsFile("testdata/qrels")
	if err != nil {
		t.Fatal(err)
	}
	a, b := mustRun(t, "testdata/run.a"), mustRun(t, "testdata/run.b")
	ms, err := eval.ParseMeasures("P@2", "RR")
	if err != nil {
		t.Fatal(err)
	}
	a.Tag, b.Tag = "a", "b"
	r, err := Runs(qrels, ms, a, b)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(r.Queries, ",") != "q1,q2,q3,q4" {
		t.Fatalf("queries %v", r.Queries)
	}
	// See testdata/README.md: P@2 a = (1/2, 1/2, 1/2, 0), b = (1, 1, 0, 1/2);
	// RR a = (1/2, 1/2, 1, 0), b = (1, 1, 0, 1).
	want := []struct {
		base, run []float64
	}{
		{[]float64{0.5, 0.5, 0.5, 0}, []float64{1, 1, 0, 0.5}},
		{[]float64{0.5, 0.5, 1, 0}, []float64{1, 1, 0, 1}},
	}
	for j, w := range want {
		c := must(r.Comparison("b", ms[j]))
		for k := range w.base {
			if !near(c.Diffs[k], w.run[k]-w.base[k]) {
				t.Errorf("%s %s: diff %v, want %v", r.Measures[j], r.Queries[k], c.Diffs[k], w.run[k]-w.base[k])
			}
		}
		if !near(c.Baseline, stat.Mean(w.base, nil)) || !near(c.Mean, stat.Mean(w.run, nil)) {
			t.Errorf("%s: means %v %v", r.Measures[j], c.Baseline, c.Mean)
		}
	}
	if c := must(r.Comparison("b", eval.P(2))); c.Wins != 3 || c.Losses != 1 || c.Ties != 0 {
		t.Errorf("W/T/L %d/%d/%d", c.Wins, c.Ties, c.Losses)
	}
	if got := r.Runs[1].ScoredZero; len(got) != 1 || got[0] != "q3" {
		t.Errorf("scored zero %v", got)
	}
	if got := r.Runs[1].Ignored; len(got) != 1 || got[0] != "q9" {
		t.Errorf("ignored %v", got)
	}
	notes := strings.Join(r.Notes, "\n")
	for _, w := range []string{`run "b" has no ranking for 1 of 4 queries, scored 0: q3`, `run "b": 1 query not in the qrels, ignored: q9`} {
		if !strings.Contains(notes, w) {
			t.Errorf("notes %q lack %q", notes, w)
		}
	}
}

func TestRunsErrors(t *testing.T) {
	qrels := eval.Qrels{"q1": {"d1": 1}}
	run := eval.Run{Queries: map[string][]eval.ScoredDoc{"x": {{Doc: "d1", Score: 1}}}}
	ms := []eval.Measure{eval.P(5)}
	for _, tc := range []struct {
		name string
		err  func() error
		want string
	}{
		{"one run", func() error { _, err := Runs(qrels, ms, run); return err }, "need at least 2 runs"},
		{"no shared queries", func() error { _, err := Runs(qrels, ms, run, run); return err },
			"no run ranks any of the 1 qrels queries"},
		{"empty qrels", func() error { _, err := Runs(eval.Qrels{}, ms, run, run); return err }, "the qrels have no query"},
		{"no measures", func() error { _, err := Runs(qrels, nil, run, run); return err }, "no measures"},
		{"one name", func() error {
			in := eval.Run{Tag: "same", Queries: map[string][]eval.ScoredDoc{"q1": {{Doc: "d1", Score: 1}}}}
			_, err := Runs(qrels, ms, in, in)
			return err
		}, `two runs are named "same"`},
	} {
		if err := tc.err(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// sharedDir finds ../shared next to the module root, or skips.
func sharedDir(t *testing.T) string {
	t.Helper()
	return sharedtest.Path(t)
}

// readTrecEval reads trec_eval -q output: measure -> query -> value.
func readTrecEval(t *testing.T, path string) map[string]map[string]float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]map[string]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 3 {
			continue
		}
		var v float64
		if _, err := fmt.Sscan(fs[2], &v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if out[fs[0]] == nil {
			out[fs[0]] = map[string]float64{}
		}
		out[fs[0]][fs[1]] = v
	}
	return out
}

// TestRunsRerankAnchor compares trec_eval's first-stage and reranked runs of anchor 09: the
// means and the difference equal trec_eval's per-query values (10 decimals), and with its single
// query the t-test is not reported.
func TestRunsRerankAnchor(t *testing.T) {
	dir := filepath.Join(sharedDir(t), "anchors", "trec_eval", "09_rerank_prefix")
	qrels, err := eval.ReadQrelsFile(filepath.Join(dir, "qrels"))
	if err != nil {
		t.Fatal(err)
	}
	first, rerank := mustRun(t, filepath.Join(dir, "run.first_stage")), mustRun(t, filepath.Join(dir, "run.rerank_top5"))
	names := map[string]eval.Measure{"ndcg_cut_10": eval.NDCG(10), "P_5": eval.P(5), "recip_rank": eval.RR(), "map": eval.AP()}
	var ms []eval.Measure
	for _, m := range names {
		ms = append(ms, m)
	}
	first.Tag, rerank.Tag = "first", "rerank5"
	r, err := Runs(qrels, ms, first, rerank)
	if err != nil {
		t.Fatal(err)
	}
	a := readTrecEval(t, filepath.Join(dir, "out.first.v10hp.txt"))
	b := readTrecEval(t, filepath.Join(dir, "out.rerank5.v10hp.txt"))
	for te, m := range names {
		c := must(r.Comparison("rerank5", m))
		if math.Abs(c.Baseline-a[te]["all"]) > 1e-9 || math.Abs(c.Mean-b[te]["all"]) > 1e-9 {
			t.Errorf("%s: means %v %v, trec_eval %v %v", te, c.Baseline, c.Mean, a[te]["all"], b[te]["all"])
		}
		if math.Abs(c.Diff-(b[te]["all"]-a[te]["all"])) > 1e-9 {
			t.Errorf("%s: diff %v", te, c.Diff)
		}
		if !math.IsNaN(c.PT) || c.PPerm != 1 {
			t.Errorf("%s: one query, got p(t) %v p(perm) %v", te, c.PT, c.PPerm)
		}
	}
	if len(r.Queries) != 1 || !strings.Contains(strings.Join(r.Notes, " "), "1 query: the t-test") {
		t.Errorf("queries %v notes %q", r.Queries, r.Notes)
	}
}
