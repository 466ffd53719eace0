package retrieval

import "github.com/ranklab/ranklab/embed"

// DenseTokenized is a corpus in an embedder's WordPiece tokens: it is to BuildDenseTokenized what
// Tokenized is to BuildTokenized (a dense sweep tokenizes once for all its configurations).
type DenseTokenized struct {
	Docs     []Document
	Tokens   [][]int32 // Tokens[i]: Docs[i].DenseText() in WordPiece IDs, no token limit, [CLS] and [SEP] left out
	Embedder embed.Embedder
}

// TokenizeDense tokenizes every document's DenseText with e's WordPiece, on all CPUs. docs is not
// modified.
func TokenizeDense(docs []Document, e embed.Embedder) DenseTokenized {
	return DenseTokenized{Docs: docs, Tokens: wordPieces(docs, e), Embedder: e}
}

// CheckDense returns the most tokens a unit of e holds besides [CLS] and [SEP] (what BuildDense
// cuts whole documents at), or the error BuildDense gives for ch and agg: the check a caller
// makes before anything is tokenized or embedded.
func CheckDense(e embed.Embedder, ch Chunking, agg Aggregation) (limit int, err error) {
	return checkDense(e, ch, agg)
}

// BuildDenseTokenized is BuildDense on a corpus already tokenized by TokenizeDense.
func BuildDenseTokenized(t DenseTokenized, ch Chunking, agg Aggregation) (*DenseSearcher, error) {
	if _, err := checkDense(t.Embedder, ch, agg); err != nil {
		return nil, err
	}
	return buildDense(t.Docs, t.Tokens, t.Embedder, ch, agg)
}
