package retrieval

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/embed"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/rag"
)

// countEmbedder embeds token lists as the unit vector of (number of "a", number of "b"), and a
// text by its tokens; its tokenizer knows only "a" and "b" and reads at most 4 of them.
type countEmbedder struct{ units int }

var abVocab = map[string]int32{"[PAD]": 0, "[UNK]": 100, "[CLS]": 101, "[SEP]": 102, "a": 1000, "b": 1001}

func (e *countEmbedder) Key() string { return "count" }
func (e *countEmbedder) WordPiece() embed.WordPiece {
	return embed.WordPiece{Vocab: abVocab, MaxTokens: 6}
}
func (e *countEmbedder) Embed(texts []string) ([][]float32, error) {
	toks := make([][]int32, len(texts))
	for i, s := range texts {
		toks[i] = e.WordPiece().Tokenize(s)
	}
	return e.EmbedTokens(toks)
}
func (e *countEmbedder) EmbedTokens(toks [][]int32) ([][]float32, error) {
	out := make([][]float32, len(toks))
	for i, t := range toks {
		var a, b float64
		for _, id := range t {
			a += float64(btoi(id == 1000))
			b += float64(btoi(id == 1001))
		}
		n := math.Hypot(a, b)
		out[i] = []float32{float32(a / n), float32(b / n)}
		e.units++
	}
	return out, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// toyDenseDocs are five documents over the words a and b for countEmbedder (d4 empty; d5 has 5
// tokens: whole, the model of limit 4 reads "b b b b").
func toyDenseDocs() []Document {
	return []Document{
		{ID: "d1", Text: "a a b b"},
		{ID: "d2", Text: "b a"},
		{ID: "d3", Text: "b b a a"},
		{ID: "d4", Text: ""},
		{ID: "d5", Text: "b b b b a"},
	}
}

func TestDenseSearcher(t *testing.T) {
	docs := toyDenseDocs()
	q := []Query{{ID: "q", Text: "a"}}
	r2 := math.Sqrt(0.5)
	// q = (1, 0). Chunks of 2: d1 = (1,0) (0,1); d2 = (√½,√½); d3 = (0,1) (1,0);
	// d5 = (0,1) (0,1) (1,0) [windows 0-2, 2-4, 4-5]
	cases := []struct {
		name string
		ch   Chunking
		agg  Aggregation
		want []eval.ScoredDoc
	}{
		{"maxp", Chunking{Chunk: 2}, MaxP, []eval.ScoredDoc{{Doc: "d5", Score: 1}, {Doc: "d3", Score: 1}, {Doc: "d1", Score: 1}, {Doc: "d2", Score: r2}}},
		{"firstp", Chunking{Chunk: 2}, rag.FirstP, []eval.ScoredDoc{{Doc: "d1", Score: 1}, {Doc: "d2", Score: r2}, {Doc: "d5", Score: 0}, {Doc: "d3", Score: 0}}},
		{"sump", Chunking{Chunk: 2}, rag.SumP, []eval.ScoredDoc{{Doc: "d5", Score: 1}, {Doc: "d3", Score: 1}, {Doc: "d1", Score: 1}, {Doc: "d2", Score: r2}}},
		// whole documents: d1 = d3 = (√½,√½), d2 too; d5 truncated to "b b b b" = (0,1)
		{"whole", Whole, MaxP, []eval.ScoredDoc{{Doc: "d3", Score: r2}, {Doc: "d2", Score: r2}, {Doc: "d1", Score: r2}, {Doc: "d5", Score: 0}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := &countEmbedder{}
			s, err := BuildDense(docs, e, c.ch, c.agg)
			if err != nil {
				t.Fatal(err)
			}
			runs, err := s.Run(q, RunOptions{Depth: 10, ChunkDepth: 3})
			if err != nil {
				t.Fatal(err)
			}
			got := runs.Docs.Queries["q"]
			if len(got) != len(c.want) {
				t.Fatalf("docs %v, want %v", got, c.want)
			}
			for i := range got {
				if got[i].Doc != c.want[i].Doc || math.Abs(got[i].Score-c.want[i].Score) > 1e-6 {
					t.Errorf("rank %d: %v, want %v", i+1, got[i], c.want[i])
				}
			}
			if n := len(runs.Chunks.Queries["q"]); n != 3 {
				t.Errorf("chunk run holds %d chunks, want ChunkDepth 3", n)
			}
			if c.ch == Whole && s.Truncated != 1 {
				t.Errorf("Truncated %d, want 1 (d5)", s.Truncated)
			}
		})
	}
	s, err := BuildDense(docs, &countEmbedder{}, Chunking{Chunk: 2}, MaxP)
	if err != nil {
		t.Fatal(err)
	}
	m := s.ChunkMap()
	want := rag.ChunkMap{"d1#0": {Doc: "d1", Start: 0, End: 2}, "d1#1": {Doc: "d1", Start: 2, End: 4}, "d2#0": {Doc: "d2", Start: 0, End: 2},
		"d3#0": {Doc: "d3", Start: 0, End: 2}, "d3#1": {Doc: "d3", Start: 2, End: 4},
		"d5#0": {Doc: "d5", Start: 0, End: 2}, "d5#1": {Doc: "d5", Start: 2, End: 4}, "d5#2": {Doc: "d5", Start: 4, End: 5}}
	if len(m) != len(want) {
		t.Errorf("chunk map %v, want %v", m, want)
	}
	for id, sp := range want {
		if m[id] != sp {
			t.Errorf("%s: %v, want %v", id, m[id], sp)
		}
	}
	// a token budget of 2 keeps the shortest prefix holding more than 2 tokens: two chunks
	runs, _ := s.Run(q, RunOptions{ChunkTokens: 2})
	if ids := runs.Chunks.Queries["q"]; len(ids) != 2 {
		t.Errorf("ChunkTokens 2: %v, want 2 chunks", ids)
	}
	if _, err := BuildDense(docs, &countEmbedder{}, Chunking{Chunk: 5}, MaxP); err == nil {
		t.Error("a chunk longer than the model reads: no error")
	}
}

// TestDenseSweep runs RunSweep with an Embedder (countEmbedder: 4 tokens besides [CLS] and
// [SEP]) on TestDenseSearcher's documents. Every count is in WordPiece tokens, checked by hand:
// the corpus holds 4 + 2 + 4 + 0 + 5 = 15 tokens;
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
	docs := toyDenseDocs()
	c := Collection{Dir: "ab", Split: "test", Docs: docs, Queries: []Query{{ID: "q1", Text: "a"}, {ID: "q2", Text: "b"}},
		Qrels: eval.Qrels{"q1": {"d2": 1}, "q2": {"d5": 1}}}
	configs := []Chunking{Whole, {Chunk: 2}, {Chunk: 2, Overlap: 1}}
	e := &countEmbedder{}
	var progress []Chunking
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
	for _, chs := range [][]Chunking{{Whole, {Chunk: 5}}, nil} {
		e := &countEmbedder{}
		_, err := RunSweep(c, SweepOptions{Chunkings: chs, Embedder: e})
		if err == nil || !strings.Contains(err.Error(), "at most 4 tokens") || e.units != 0 {
			t.Errorf("chunkings %v: error %v after %d units embedded; want one naming the limit 4, nothing embedded", chs, err, e.units)
		}
	}
	if _, err := RunSweep(c, SweepOptions{Chunkings: configs, Embedder: e, Model: Anserini}); err == nil {
		t.Error("both Model and Embedder: want an error")
	}
	if got := denseSweepChunkings(); len(got) != 9 || got[8] != (Chunking{Chunk: 192, Overlap: 48}) {
		t.Errorf("dense standard chunkings %v", got)
	}
}

// TestDenseSearcherNamesEmptyDocuments is issue 33 item 19: a document with no tokens has no
// unit and so is in no run; the searcher says which (d4, and d6 whose only character the
// tokenizer drops), in corpus order.
func TestDenseSearcherNamesEmptyDocuments(t *testing.T) {
	docs := append(toyDenseDocs(), Document{ID: "d6", Text: "\u200b"})
	s, err := BuildDense(docs, &countEmbedder{}, Whole, MaxP)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"d4", "d6"}; !slices.Equal(s.Empty, want) {
		t.Errorf("Empty %q, want %q", s.Empty, want)
	}
}

// shortQueries embeds texts of more than one token as countEmbedder does, and a query of one
// token as a vector of 3 dimensions (as a cache holding another model's vector would).
type shortQueries struct{ countEmbedder }

func (e *shortQueries) Embed(texts []string) ([][]float32, error) {
	out, err := e.countEmbedder.Embed(texts)
	for i, s := range texts {
		if !strings.Contains(s, " ") {
			out[i] = []float32{1, 0, 0}
		}
	}
	return out, err
}

// TestDenseRunQueryOfAnotherDimension is issue 33 item 13: a query vector of another dimension
// than the index's is an error naming the query, not a panic.
func TestDenseRunQueryOfAnotherDimension(t *testing.T) {
	e := &shortQueries{}
	s, err := BuildDense(toyDenseDocs(), e, Whole, MaxP)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Run([]Query{{ID: "q1", Text: "a b"}, {ID: "q2", Text: "a"}}, RunOptions{Depth: 10})
	if err == nil || !strings.Contains(err.Error(), "q2") || !strings.Contains(err.Error(), "3 dimensions") {
		t.Errorf("error %v, want one naming q2 and its 3 dimensions", err)
	}
}
