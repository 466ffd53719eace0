package retrieval

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/ranklab/ranklab/chunking"
	"github.com/ranklab/ranklab/rag"
)

// checkSweep checks every row's measured chunks and indexed tokens against the footprint
// model summed over the documents' token lengths, computed here from a fresh tokenization.
func checkSweep(t *testing.T, c Collection, sw Sweep, configs []Chunking) {
	t.Helper()
	lengths := Tokenize(mustTokenizer(t), c.Docs).Lengths()
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
			if r.Compare != nil {
				t.Errorf("baseline row has comparisons")
			}
			continue
		}
		for m, cmp := range r.Compare {
			if cmp.TPHolm < cmp.TP || cmp.RandPHolm < cmp.RandP || cmp.RandP <= 0 || cmp.TPHolm > 1 {
				t.Errorf("%v measure %d: p-values %+v out of order", r.Chunking, m, cmp)
			}
			if d := r.Result.Means[m] - sw.Rows[0].Result.Means[m]; math.Abs(cmp.Delta-d) > 1e-12 {
				t.Errorf("%v measure %d: delta %g, want %g", r.Chunking, m, cmp.Delta, d)
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
	ms := sw.BudgetMeasures()
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
			c, ok := sw.BudgetComparison(r.Chunking, m)
			if d := r.Budget.Means[j] - sw.Rows[0].Budget.Means[j]; !ok || math.Abs(c.Diff-d) > 1e-12 || c.CILow > c.Diff || c.CIHigh < c.Diff {
				t.Errorf("%v %s: comparison %+v (ok %v), want Δ %g inside its interval", r.Chunking, m, c, ok, d)
			}
		}
	}
}

func TestSweepSmall(t *testing.T) {
	c := smallCollection(t)
	configs := []Chunking{Whole, {Chunk: 4}, {Chunk: 4, Overlap: 1}, {Chunk: 8, Overlap: 2}}
	sw, err := RunSweep(c, SweepOptions{Chunkings: configs, Permutations: 200})
	if err != nil {
		t.Fatal(err)
	}
	checkSweep(t, c, sw, configs)
	// Notebooks keep a sweep between cells as JSON or gob: both must give it back.
	var js Sweep
	if b, err := json.Marshal(sw); err != nil || json.Unmarshal(b, &js) != nil {
		t.Errorf("JSON round trip: %v", err)
	}
	var gs Sweep
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(sw); err != nil || gob.NewDecoder(&buf).Decode(&gs) != nil {
		t.Errorf("gob round trip: %v", err)
	}
	for _, back := range []Sweep{js, gs} {
		c1, _ := back.BudgetComparison(configs[1], rag.NDCGAt(512))
		c0, _ := sw.BudgetComparison(configs[1], rag.NDCGAt(512))
		if back.Rows[2].Budget.Mean(rag.RecallAt(256)) != sw.Rows[2].Budget.Mean(rag.RecallAt(256)) || c1.PTHolm != c0.PTHolm || back.Rows[1].Compare[0] != sw.Rows[1].Compare[0] {
			t.Error("a sweep read back differs")
		}
	}
	// No budgets: the document measures and their tests only.
	docOnly, err := RunSweep(c, SweepOptions{Chunkings: configs, Budgets: []int{}, Permutations: 200})
	if err != nil {
		t.Fatal(err)
	}
	if len(docOnly.Budget.Runs) != 0 || len(docOnly.Rows[1].Budget.Measures) != 0 || docOnly.Rows[1].Compare[0] != sw.Rows[1].Compare[0] {
		t.Errorf("Budgets: []int{}: budget report %d runs, row budget %v; document comparison %+v, want %+v",
			len(docOnly.Budget.Runs), docOnly.Rows[1].Budget.Measures, docOnly.Rows[1].Compare[0], sw.Rows[1].Compare[0])
	}
	if _, err := RunSweep(c, SweepOptions{Chunkings: []Chunking{{Chunk: 4, Overlap: 4}}}); err == nil {
		t.Error("RunSweep with overlap = chunk: want an error")
	}
}

// TestSweepCranfield runs the whole sweep on Cranfield with its graded qrels and checks
// the measured footprint of every configuration.
func TestSweepCranfield(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	c, err := ReadCollection(sharedData(t, "cranfield"), "test.graded")
	if err != nil {
		t.Fatal(err)
	}
	sw, err := RunSweep(c, SweepOptions{Budgets: []int{256, 2048}, Permutations: 1000, Resamples: 1000})
	if err != nil {
		t.Fatal(err)
	}
	checkSweep(t, c, sw, SweepChunkings())
	for _, r := range sw.Rows {
		t.Logf("%-22v nDCG@10 %.4f R@100 %.4f RR@10 %.4f", r.Chunking, r.Result.Means[0], r.Result.Means[1], r.Result.Means[2])
	}
}

// TestFootprintSciFact checks, for every sweep configuration, that the chunks cut from
// SciFact hold exactly the footprint model's tokens, and the corpus's token count given in
// ../shared/data/README.md.
func TestFootprintSciFact(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	docs, err := ReadCorpusFile(sharedData(t, "scifact"))
	if err != nil {
		t.Fatal(err)
	}
	tok := mustTokenizer(t)
	tz := Tokenize(tok, docs)
	if total := sum(tz.Lengths()); len(docs) != 5183 || total != 1660493 {
		t.Errorf("SciFact: %d documents, %d tokens; want 5183, 1660493", len(docs), total)
	}
	for _, c := range SweepChunkings()[1:] {
		chunksAsModelled(t, tok, tz, c)
	}
}
