// Package toyembed is a dense model small enough to follow by hand, for the tests of the packages
// that embed (retrieval's dense searcher, study's dense sweep): its tokenizer knows two words,
// and a vector counts them.
package toyembed

import (
	"math"

	"github.com/ranklab/ranklab/embed"
)

// Vocab is Count's vocabulary: BERT's special tokens and the words "a" (1000) and "b" (1001).
var Vocab = map[string]int32{"[PAD]": 0, "[UNK]": 100, "[CLS]": 101, "[SEP]": 102, "a": 1000, "b": 1001}

// Count is an embed.Embedder that embeds a token list as the unit vector of (number of "a",
// number of "b"), and a text by its tokens; its tokenizer reads at most 4 words besides [CLS]
// and [SEP]. Units counts the token lists it has embedded.
type Count struct{ Units int }

// Key implements embed.Embedder.
func (e *Count) Key() string { return "count" }

// WordPiece implements embed.Embedder: Vocab, at most 6 tokens with [CLS] and [SEP].
func (e *Count) WordPiece() embed.WordPiece {
	return embed.WordPiece{Vocab: Vocab, MaxTokens: 6}
}

// Embed implements embed.Embedder.
func (e *Count) Embed(texts []string) ([][]float32, error) {
	toks := make([][]int32, len(texts))
	for i, s := range texts {
		toks[i] = e.WordPiece().Wrap(e.WordPiece().Pieces(s))
	}
	return e.EmbedTokens(toks)
}

// EmbedTokens implements embed.Embedder.
func (e *Count) EmbedTokens(toks [][]int32) ([][]float32, error) {
	out := make([][]float32, len(toks))
	for i, t := range toks {
		var a, b float64
		for _, id := range t {
			switch id {
			case Vocab["a"]:
				a++
			case Vocab["b"]:
				b++
			}
		}
		n := math.Hypot(a, b)
		out[i] = []float32{float32(a / n), float32(b / n)}
		e.Units++
	}
	return out, nil
}
