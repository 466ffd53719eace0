package study

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/chunking"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/sharedtest"
	"github.com/ranklab/ranklab/rag"
	"github.com/ranklab/ranklab/retrieval"
)

// checkSweep checks every row's measured chunks and indexed tokens against the footprint
// model summed over the documents' token lengths, computed here from a fresh tokenization.
func checkSweep(t *testing.T, c retrieval.Collection, sw Sweep, configs []retrieval.Chunking) {
	t.Helper()
	tok, err := retrieval.NewTokenizer()
	if err != nil {
		t.Fatal(err)
	}
	lengths := tokenLengths(retrieval.Tokenize(tok, c.Docs).Tokens)
	total := 0
	for _, n := range lengths {
		total += n
	}
	if sw.Tokens != total || len(sw.Rows) != len(configs) {
		t.Fatalf("sweep: %d tokens, %d rows; want %d, %d", sw.Tokens, len(sw.Rows), total, len(configs))
	}
	for i, r := range sw.Rows {
		if r.Chunking != configs[i] {
			t.Errorf("row %d is %v, want %v", i, r.Chunking, configs[i])
		}
		want := chunking.Footprint{Indexed: total}
		if r.Chunking.Chunk > 0 {
			var err error
			if want, err = chunking.FootprintOf(lengths, r.Chunking.Chunk, r.Chunking.Overlap); err != nil {
				t.Fatal(err)
			}
		}
		if r.Indexed != want.Indexed || (r.Chunking.Chunk > 0 && r.Chunks != want.Chunks) {
			t.Errorf("%v: measured %d chunks, %d tokens; footprint model %d, %d", r.Chunking, r.Chunks, r.Indexed, want.Chunks, want.Indexed)
		}
		if r.Footprint.Indexed != r.Indexed {
			t.Errorf("%v: row footprint %d, measured %d", r.Chunking, r.Footprint.Indexed, r.Indexed)
		}
		if wantDup := float64(want.Indexed-total) / float64(total); r.Duplication != wantDup {
			t.Errorf("%v: duplication %g, want %g", r.Chunking, r.Duplication, wantDup)
		}
		if len(r.Result.Queries) != len(c.Queries) {
			t.Errorf("%v: %d queries evaluated, want %d", r.Chunking, len(r.Result.Queries), len(c.Queries))
		}
		if i == 0 {
			if _, err := sw.Comparison(r.Chunking, sw.Measures[0]); err == nil || !strings.Contains(err.Error(), "is the baseline") {
				t.Errorf("baseline row compared with itself: %v", err)
			}
			continue
		}
		for _, m := range sw.Measures {
			cmp, err := sw.Comparison(r.Chunking, m)
			if err != nil {
				t.Fatal(err)
			}
			if cmp.PTHolm < cmp.PT || cmp.PPermHolm < cmp.PPerm || cmp.PPerm <= 0 || cmp.PTHolm > 1 {
				t.Errorf("%v %s: p-values %+v out of order", r.Chunking, m, cmp)
			}
			if d := r.Result.Mean(m) - sw.Rows[0].Result.Mean(m); math.Abs(cmp.Diff-d) > 1e-12 {
				t.Errorf("%v %s: delta %g, want %g", r.Chunking, m, cmp.Diff, d)
			}
			if e, err := sw.Mean(r.Chunking, m); err != nil || e.Mean != cmp.Mean || e.Low > e.Mean || e.High < e.Mean {
				t.Errorf("%v %s: mean %+v (%v), comparison's %g", r.Chunking, m, e, err, cmp.Mean)
			}
		}
	}
	checkBudgets(t, sw)
	h, rows := sw.BudgetGrid("nDCG")
	if len(h) != len(sw.Budgets)+1 || len(rows) != len(sw.Rows) || rows[0][1] != fmt.Sprintf("%.3f", sw.Rows[0].Budget.Mean(rag.NDCGAt(sw.Budgets[0]))) {
		t.Errorf("BudgetGrid: header %v, %d rows, first cell %q", h, len(rows), rows[0][1])
	}
}

// checkBudgets checks the budget results of every row: every qrels query evaluated, values in
// [0, 1], each query's values never falling as the budget grows (a larger context holds a
// longer prefix of the same ranking), and the report's differences equal to the means'.
func checkBudgets(t *testing.T, sw Sweep) {
	t.Helper()
	ms := sw.budgetMeasures()
	if len(sw.Budget.Runs) != len(sw.Rows) || len(sw.Budget.Measures) != len(ms) {
		t.Fatalf("budget report: %d runs, %d measures; want %d, %d", len(sw.Budget.Runs), len(sw.Budget.Measures), len(sw.Rows), len(ms))
	}
	for i, r := range sw.Rows {
		if !slices.Equal(r.Budget.Queries, sw.Rows[0].Result.Queries) {
			t.Fatalf("%v: budget queries differ from the evaluated queries", r.Chunking)
		}
		for q := range r.Budget.Queries {
			for j, m := range ms {
				v := r.Budget.Values[q][j]
				if v < 0 || v > 1 {
					t.Errorf("%v %s query %d = %v, outside [0, 1]", r.Chunking, m, q, v)
				}
				if j >= 3 && v < r.Budget.Values[q][j-3]-1e-15 {
					t.Errorf("%v %s query %d = %v falls below %s = %v", r.Chunking, m, q, v, ms[j-3], r.Budget.Values[q][j-3])
				}
			}
		}
		if i == 0 {
			continue
		}
		for j, m := range ms {
			c, err := sw.Comparison(r.Chunking, m)
			if d := r.Budget.Means[j] - sw.Rows[0].Budget.Means[j]; err != nil || math.Abs(c.Diff-d) > 1e-12 || c.CILow > c.Diff || c.CIHigh < c.Diff {
				t.Errorf("%v %s: comparison %+v (%v), want Δ %g inside its interval", r.Chunking, m, c, err, d)
			}
		}
	}
}

// smallCollection is sharedtest's four-document collection with three judged queries.
func smallCollection(t *testing.T) retrieval.Collection {
	t.Helper()
	c, err := retrieval.ReadCollection(sharedtest.SmallBEIR(t), "test")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestStandardChunkings: the standard sweeps' configurations are valid, 11 lexical (whole, then
// 5 sizes × 2 overlaps) and 9 dense (whole, then 4 sizes × 2, the largest 192 with overlap 48).
func TestStandardChunkings(t *testing.T) {
	for _, c := range append(sweepChunkings(), denseSweepChunkings()...) {
		if err := c.Validate(); err != nil {
			t.Errorf("Validate(%+v) = %v", c, err)
		}
	}
	if got := len(sweepChunkings()); got != 11 {
		t.Errorf("sweepChunkings has %d configurations, want 11", got)
	}
	if got := denseSweepChunkings(); len(got) != 9 || got[8] != (retrieval.Chunking{Chunk: 192, Overlap: 48}) {
		t.Errorf("dense standard chunkings %v", got)
	}
}

func TestSweepSmall(t *testing.T) {
	c := smallCollection(t)
	configs := []retrieval.Chunking{retrieval.Whole, {Chunk: 4}, {Chunk: 4, Overlap: 1}, {Chunk: 8, Overlap: 2}}
	sw, err := RunSweep(c, SweepOptions{Chunkings: configs, Permutations: 200})
	if err != nil {
		t.Fatal(err)
	}
	checkSweep(t, c, sw, configs)
	// Notebooks keep a sweep between cells with gob (nb.Cache): it must give it back.
	var gs Sweep
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(sw); err != nil || gob.NewDecoder(&buf).Decode(&gs) != nil {
		t.Errorf("gob round trip: %v", err)
	}
	c1, err1 := gs.Comparison(configs[1], rag.NDCGAt(512))
	c0, err0 := sw.Comparison(configs[1], rag.NDCGAt(512))
	d1, _ := gs.Comparison(configs[1], sw.Measures[0])
	d0, _ := sw.Comparison(configs[1], sw.Measures[0])
	if err0 != nil || err1 != nil || gs.Rows[2].Budget.Mean(rag.BudgetMeasure{Name: "R", Tokens: 256}) != sw.Rows[2].Budget.Mean(rag.BudgetMeasure{Name: "R", Tokens: 256}) || c1.PTHolm != c0.PTHolm || d1.PTHolm != d0.PTHolm {
		t.Errorf("a sweep read back differs (%v, %v)", err0, err1)
	}
	// No budgets: the document measures and their tests only.
	docOnly, err := RunSweep(c, SweepOptions{Chunkings: configs, Budgets: []int{}, Permutations: 200})
	if err != nil {
		t.Fatal(err)
	}
	d2, _ := docOnly.Comparison(configs[1], sw.Measures[0])
	if len(docOnly.Budget.Runs) != 0 || len(docOnly.Rows[1].Budget.Measures) != 0 || d2.PTHolm != d0.PTHolm || d2.Diff != d0.Diff {
		t.Errorf("Budgets: []int{}: budget report %d runs, row budget %v; document comparison %+v, want %+v",
			len(docOnly.Budget.Runs), docOnly.Rows[1].Budget.Measures, d2, d0)
	}
	if _, err := docOnly.Comparison(configs[1], rag.NDCGAt(512)); err == nil || !strings.Contains(err.Error(), "nDCG@512tok was not measured") {
		t.Errorf("unmeasured budget measure: %v", err)
	}
	checkFamilies(t, sw)
	// Best at 512 tokens: the highest nDCG@512tok of rows 1.. (computed here from the rows).
	best, err := sw.Best(rag.NDCGAt(512))
	want := sw.Rows[1]
	for _, r := range sw.Rows[2:] {
		if r.Budget.Mean(rag.NDCGAt(512)) > want.Budget.Mean(rag.NDCGAt(512)) {
			want = r
		}
	}
	if err != nil || best != want.Chunking {
		t.Errorf("Best = %v (%v), want %v", best, err, want.Chunking)
	}
	if _, err := docOnly.Best(rag.NDCGAt(512)); err == nil {
		t.Error("Best of an unmeasured budget: want an error")
	}
	if _, err := RunSweep(c, SweepOptions{Chunkings: []retrieval.Chunking{{Chunk: 4, Overlap: 4}}}); err == nil {
		t.Error("RunSweep with overlap = chunk: want an error")
	}
}

// TestSweepCranfield runs the whole sweep on Cranfield with its graded qrels and checks
// the measured footprint of every configuration.
func TestSweepCranfield(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	c, err := retrieval.ReadCollection(sharedtest.Path(t, "data", "cranfield"), "test.graded")
	if err != nil {
		t.Fatal(err)
	}
	sw, err := RunSweep(c, SweepOptions{Budgets: []int{256, 2048}, Permutations: 1000, Resamples: 1000})
	if err != nil {
		t.Fatal(err)
	}
	checkSweep(t, c, sw, sweepChunkings())
	for _, r := range sw.Rows {
		t.Logf("%-22v nDCG@10 %.4f R@100 %.4f RR@10 %.4f", r.Chunking, r.Result.Means[0], r.Result.Means[1], r.Result.Means[2])
	}
}

// checkFamilies checks Family and Overlap against the reports they regroup: the same
// differences, one Holm family over every comparison (so each adjusted p is at least the
// per-measure report's), intervals at the Bonferroni level.
func checkFamilies(t *testing.T, sw Sweep) {
	t.Helper()
	f, err := sw.Family(0.05)
	if err != nil {
		t.Fatal(err)
	}
	m := (len(sw.Rows) - 1) * len(sw.Measures)
	if len(f.Comparisons) != m || f.Family != m || math.Abs(f.Options.Level-(1-0.05/float64(m))) > 1e-15 {
		t.Errorf("family: %d comparisons (family %d), level %v; want %d at 1 - 0.05/%d", len(f.Comparisons), f.Family, f.Options.Level, m, m)
	}
	for _, c := range f.Comparisons {
		ch := sw.Rows[slices.IndexFunc(sw.Rows, func(r SweepRow) bool { return r.Chunking.String() == c.Run })].Chunking
		one, err := sw.Comparison(ch, c.Measure)
		if err != nil || one.Diff != c.Diff || one.PT != c.PT || c.PTHolm < one.PTHolm {
			t.Errorf("%s %s: family %+v, per-measure %+v (%v)", c.Run, c.Measure, c, one, err)
		}
	}
	// configs: {4} and {4, 1} form the one pair; {8, 2} has no {8} and is skipped.
	configs4 := []retrieval.Chunking{{Chunk: 4}, {Chunk: 4, Overlap: 1}}
	ov, err := sw.Overlap(0.05)
	if err != nil {
		t.Fatal(err)
	}
	if len(ov) != 1 || ov[0].Baseline() != configs4[0].String() || ov[0].Runs[1].Name != configs4[1].String() || ov[0].Family != len(sw.Measures) {
		t.Fatalf("overlap reports %d, %+v", len(ov), ov)
	}
	for _, c := range ov[0].Comparisons {
		a, b := sw.Rows[2].Result.Mean(c.Measure.(eval.Measure)), sw.Rows[1].Result.Mean(c.Measure.(eval.Measure))
		if math.Abs(c.Diff-(a-b)) > 1e-12 {
			t.Errorf("overlap %s: Δ %v, want %v", c.Measure, c.Diff, a-b)
		}
	}
}
