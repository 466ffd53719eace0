package retrieval

import (
	"math"
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

func TestDenseSearcher(t *testing.T) {
	docs := []Document{
		{ID: "d1", Text: "a a b b"},
		{ID: "d2", Text: "b a"},
		{ID: "d3", Text: "b b a a"},
		{ID: "d4", Text: ""},
		{ID: "d5", Text: "b b b b a"}, // 5 tokens: whole, the model reads "b b b b"
	}
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
