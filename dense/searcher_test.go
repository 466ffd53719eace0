package dense

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/toyembed"
	"github.com/ranklab/ranklab/rag"
	"github.com/ranklab/ranklab/retrieval"
)

// countEmbedder is the toy model of package toyembed (4 tokens besides [CLS] and [SEP]).
type countEmbedder = toyembed.Count

// toyDenseDocs are five documents over the words a and b for countEmbedder (d4 empty; d5 has 5
// tokens: whole, the model of limit 4 reads "b b b b").
func toyDenseDocs() []retrieval.Document {
	return []retrieval.Document{
		{ID: "d1", Text: "a a b b"},
		{ID: "d2", Text: "b a"},
		{ID: "d3", Text: "b b a a"},
		{ID: "d4", Text: ""},
		{ID: "d5", Text: "b b b b a"},
	}
}

func TestDenseSearcher(t *testing.T) {
	docs := toyDenseDocs()
	q := []retrieval.Query{{ID: "q", Text: "a"}}
	r2 := math.Sqrt(0.5)
	// q = (1, 0). Chunks of 2: d1 = (1,0) (0,1); d2 = (√½,√½); d3 = (0,1) (1,0);
	// d5 = (0,1) (0,1) (1,0) [windows 0-2, 2-4, 4-5]
	cases := []struct {
		name string
		ch   retrieval.Chunking
		agg  rag.Aggregation
		want []eval.ScoredDoc
	}{
		{"maxp", retrieval.Chunking{Chunk: 2}, rag.MaxP, []eval.ScoredDoc{{Doc: "d5", Score: 1}, {Doc: "d3", Score: 1}, {Doc: "d1", Score: 1}, {Doc: "d2", Score: r2}}},
		{"firstp", retrieval.Chunking{Chunk: 2}, rag.FirstP, []eval.ScoredDoc{{Doc: "d1", Score: 1}, {Doc: "d2", Score: r2}, {Doc: "d5", Score: 0}, {Doc: "d3", Score: 0}}},
		{"sump", retrieval.Chunking{Chunk: 2}, rag.SumP, []eval.ScoredDoc{{Doc: "d5", Score: 1}, {Doc: "d3", Score: 1}, {Doc: "d1", Score: 1}, {Doc: "d2", Score: r2}}},
		// whole documents: d1 = d3 = (√½,√½), d2 too; d5 truncated to "b b b b" = (0,1)
		{"whole", retrieval.Whole, rag.MaxP, []eval.ScoredDoc{{Doc: "d3", Score: r2}, {Doc: "d2", Score: r2}, {Doc: "d1", Score: r2}, {Doc: "d5", Score: 0}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := &countEmbedder{}
			s, err := Build(docs, e, c.ch, c.agg)
			if err != nil {
				t.Fatal(err)
			}
			runs, err := s.Run(q, retrieval.RunOptions{Depth: 10, ChunkDepth: 3})
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
			if c.ch == retrieval.Whole && s.Truncated != 1 {
				t.Errorf("Truncated %d, want 1 (d5)", s.Truncated)
			}
		})
	}
	s, err := Build(docs, &countEmbedder{}, retrieval.Chunking{Chunk: 2}, rag.MaxP)
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
	runs, _ := s.Run(q, retrieval.RunOptions{ChunkTokens: 2})
	if ids := runs.Chunks.Queries["q"]; len(ids) != 2 {
		t.Errorf("ChunkTokens 2: %v, want 2 chunks", ids)
	}
	if _, err := Build(docs, &countEmbedder{}, retrieval.Chunking{Chunk: 5}, rag.MaxP); err == nil {
		t.Error("a chunk longer than the model reads: no error")
	}
}

// TestDenseSearcherNamesEmptyDocuments is issue 33 item 19: a document with no tokens has no
// unit and so is in no run; the searcher says which (d4, and d6 whose only character the
// tokenizer drops), in corpus order.
func TestDenseSearcherNamesEmptyDocuments(t *testing.T) {
	docs := append(toyDenseDocs(), retrieval.Document{ID: "d6", Text: "\u200b"})
	s, err := Build(docs, &countEmbedder{}, retrieval.Whole, rag.MaxP)
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
	s, err := Build(toyDenseDocs(), e, retrieval.Whole, rag.MaxP)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Run([]retrieval.Query{{ID: "q1", Text: "a b"}, {ID: "q2", Text: "a"}}, retrieval.RunOptions{Depth: 10})
	if err == nil || !strings.Contains(err.Error(), "q2") || !strings.Contains(err.Error(), "3 dimensions") {
		t.Errorf("error %v, want one naming q2 and its 3 dimensions", err)
	}
}
