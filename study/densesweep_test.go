package study

import (
	"math"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/toyembed"
	"github.com/ranklab/ranklab/rag"
	"github.com/ranklab/ranklab/retrieval"
)

// TestDenseSweep runs RunSweep with an Embedder (toyembed.Count: 4 tokens besides [CLS] and
// [SEP]) on the documents of package dense's TestDenseSearcher. Every count is in WordPiece tokens,
// checked by hand: the corpus holds 4 + 2 + 4 + 0 + 5 = 15 tokens;
//
//   - whole: 4 units (d4 is empty), 14 tokens read (d5 cut at 4), 1 truncated, duplication −1/15;
//   - chunk=2: d1 2 units, d2 1, d3 2, d5 3 (windows 0-2, 2-4, 4-5): 8 units, 15 tokens;
//   - chunk=2 overlap=1 (stride 1): d1 3 units, d2 1, d3 3, d5 4: 11 units, 22 tokens.
//
// q1 "a" = (1, 0) judges d2: whole ranks d3 d2 d1 (all √½) d5 (0), d2 2nd: nDCG@10 1/log2(3);
// chunk=2 ranks d5 d3 d1 (1) d2 (√½), d2 4th: 1/log2(5); so does chunk=2 overlap=1 (d3 d1 at 1,
// then d5 d2 at √½). q2 "b" = (0, 1) judges d5, first everywhere (d5 read as "b b b b" is (0, 1)).
// At 4 tokens q2's context holds d5 (its whole 4 tokens, or its chunks #1 and #0), q1's never
// d2 (d3's 4 tokens; d5#2, d3#1): R@4tok is 0.5 for every row.
func TestDenseSweep(t *testing.T) {
	docs := []retrieval.Document{{ID: "d1", Text: "a a b b"}, {ID: "d2", Text: "b a"}, {ID: "d3", Text: "b b a a"}, {ID: "d4"}, {ID: "d5", Text: "b b b b a"}}
	c := retrieval.Collection{Dir: "ab", Split: "test", Docs: docs, Queries: []retrieval.Query{{ID: "q1", Text: "a"}, {ID: "q2", Text: "b"}},
		Qrels: eval.Qrels{"q1": {"d2": 1}, "q2": {"d5": 1}}}
	configs := []retrieval.Chunking{retrieval.Whole, {Chunk: 2}, {Chunk: 2, Overlap: 1}}
	e := &toyembed.Count{}
	var progress []retrieval.Chunking
	sw, err := RunSweep(c, SweepOptions{Chunkings: configs, Budgets: []int{4, 8}, Embedder: e, Permutations: 100, Resamples: 100,
		Progress: func(r SweepRow) { progress = append(progress, r.Chunking) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(sw.Rows) != 3 || sw.Tokens != 15 || sw.Tokenizer != "count WordPiece" || sw.Model != "count (dense, exact cosine)" || len(progress) != 3 {
		t.Fatalf("%d rows, %d tokens, tokenizer %q, model %q, %d progress calls; want 3, 15, count WordPiece, count (dense, exact cosine), 3",
			len(sw.Rows), sw.Tokens, sw.Tokenizer, sw.Model, len(progress))
	}
	want := []struct {
		chunks, indexed, truncated int
		ndcg                       float64
	}{
		{4, 14, 1, (1/math.Log2(3) + 1) / 2},
		{8, 15, 0, (1/math.Log2(5) + 1) / 2},
		{11, 22, 0, (1/math.Log2(5) + 1) / 2},
	}
	for i, r := range sw.Rows {
		w := want[i]
		if r.Chunking != configs[i] || r.Chunks != w.chunks || r.Indexed != w.indexed || r.Truncated != w.truncated ||
			r.Footprint.Indexed != w.indexed || r.Footprint.Chunks != w.chunks || r.Duplication != float64(w.indexed-15)/15 {
			t.Errorf("%v: %d units, %d tokens, %d truncated, footprint %+v, duplication %g; want %d, %d, %d, duplication %g",
				r.Chunking, r.Chunks, r.Indexed, r.Truncated, r.Footprint, r.Duplication, w.chunks, w.indexed, w.truncated, float64(w.indexed-15)/15)
		}
		if got := r.Result.Mean(eval.NDCG(10)); math.Abs(got-w.ndcg) > 1e-12 {
			t.Errorf("%v: nDCG@10 %.6f, want %.6f", r.Chunking, got, w.ndcg)
		}
		if got := r.Budget.Mean(rag.BudgetMeasure{Name: "R", Tokens: 4}); got != 0.5 {
			t.Errorf("%v: R@4tok %g, want 0.5", r.Chunking, got)
		}
	}
	checkBudgets(t, sw)
	if c, err := sw.Comparison(configs[1], eval.NDCG(10)); err != nil || math.Abs(c.Diff-(want[1].ndcg-want[0].ndcg)) > 1e-12 {
		t.Errorf("chunk=2 against whole on nDCG@10: %+v (%v)", c, err)
	}

	// Chunks longer than the model reads: an error naming its limit, before anything is embedded;
	// so are the standard dense chunkings (32 and more) for this 4-token model.
	for _, chs := range [][]retrieval.Chunking{{retrieval.Whole, {Chunk: 5}}, nil} {
		e := &toyembed.Count{}
		_, err := RunSweep(c, SweepOptions{Chunkings: chs, Embedder: e})
		if err == nil || !strings.Contains(err.Error(), "at most 4 tokens") || e.Units != 0 {
			t.Errorf("chunkings %v: error %v after %d units embedded; want one naming the limit 4, nothing embedded", chs, err, e.Units)
		}
	}
	if _, err := RunSweep(c, SweepOptions{Chunkings: configs, Embedder: e, Model: retrieval.Anserini}); err == nil {
		t.Error("both Model and Embedder: want an error")
	}
}
