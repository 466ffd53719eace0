package rerank

import (
	"strings"
	"testing"

	"github.com/ranklab/ranklab/dense"
	"github.com/ranklab/ranklab/embed"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/rag"
	"github.com/ranklab/ranklab/retrieval"
)

// words is an embed.Embedder over a small WordPiece vocabulary (BERT's [UNK], [CLS] and [SEP]
// IDs) that counts the token lists it embedded: the stand-in for the model in a test of the
// cache's keys.
type words struct{ embedded int }

var wordVocab = map[string]int32{"[UNK]": 100, "[CLS]": 101, "[SEP]": 102, "alpha": 1000, "beta": 1001, "gamma": 1002}

func (w *words) WordPiece() embed.WordPiece { return embed.WordPiece{Vocab: wordVocab, MaxTokens: 8} }
func (w *words) Key() string                { return "words" }
func (w *words) Embed(texts []string) ([][]float32, error) {
	toks := make([][]int32, len(texts))
	for i, t := range texts {
		wp := w.WordPiece()
		toks[i] = wp.Wrap(wp.Pieces(t))
	}
	return w.EmbedTokens(toks)
}
func (w *words) EmbedTokens(toks [][]int32) ([][]float32, error) {
	out := make([][]float32, len(toks))
	for i, t := range toks {
		w.embedded++
		v := make([]float32, 3)
		for _, id := range t {
			if id >= 1000 {
				v[id-1000]++
			}
		}
		out[i] = v
	}
	return out, nil
}

// TestRerankReadsTheDenseRunsVectors: a dense run (dense.Build, whole documents cut at
// the model's limit) and the bi-encoder reranker key a document's vector alike, so after a dense
// run over the corpus reranking embeds only the queries; the dense run's queries, embedded as
// text too, are found as well.
func TestRerankReadsTheDenseRunsVectors(t *testing.T) {
	c := retrieval.Collection{
		Docs: []retrieval.Document{
			{ID: "d1", Title: "Alpha", Text: "beta"},
			{ID: "d2", Text: strings.Repeat("gamma alpha ", 10)}, // 20 words: cut at 8 tokens
			{ID: "d3", Title: "beta", Text: "Gamma"},
		},
		Queries: []retrieval.Query{{ID: "q1", Text: "alpha gamma"}},
		Qrels:   eval.Qrels{"q1": {"d2": 1}},
	}
	inner := &words{}
	cache := &embed.Cache{Inner: inner, Dir: t.TempDir()}
	dense, err := dense.Build(c.Docs, cache, retrieval.Whole, rag.MaxP)
	if err != nil {
		t.Fatal(err)
	}
	if dense.Truncated != 1 || inner.embedded != 3 {
		t.Fatalf("dense run: %d truncated, %d embedded; want 1 and 3", dense.Truncated, inner.embedded)
	}
	first := eval.Run{Tag: "first", Queries: map[string][]eval.ScoredDoc{"q1": {{Doc: "d1", Score: 3}, {Doc: "d2", Score: 2}, {Doc: "d3", Score: 1}}}}
	if _, err := Rerank(c, first, BiEncoder(cache), Options{Depth: 3}); err != nil {
		t.Fatal(err)
	}
	if inner.embedded != 4 || cache.Hits.Load() != 3 {
		t.Errorf("reranking embedded %d texts and found %d in the cache; want the query alone embedded and the 3 documents found",
			inner.embedded-3, cache.Hits.Load())
	}
}
