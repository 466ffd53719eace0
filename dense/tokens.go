package dense

import (
	"github.com/ranklab/ranklab/embed"
	"github.com/ranklab/ranklab/rag"
	"github.com/ranklab/ranklab/retrieval"
)

// Tokenized is a corpus in an embedder's WordPiece tokens: it is to BuildTokenized what
// retrieval.Tokenized is to retrieval.BuildTokenized (a dense sweep tokenizes once for all its
// configurations).
type Tokenized struct {
	Docs     []retrieval.Document
	Tokens   [][]int32 // Tokens[i]: Docs[i].DenseText() in WordPiece IDs, no token limit, [CLS] and [SEP] left out
	Embedder embed.Embedder
}

// Tokenize tokenizes every document's DenseText with e's WordPiece, on all CPUs. docs is not
// modified.
func Tokenize(docs []retrieval.Document, e embed.Embedder) Tokenized {
	return Tokenized{Docs: docs, Tokens: wordPieces(docs, e), Embedder: e}
}

// Check returns the most tokens a unit of e holds besides [CLS] and [SEP] (what Build
// cuts whole documents at), or the error Build gives for ch and agg: the check a caller
// makes before anything is tokenized or embedded.
func Check(e embed.Embedder, ch retrieval.Chunking, agg rag.Aggregation) (limit int, err error) {
	return check(e, ch, agg)
}

// BuildTokenized is Build on a corpus already tokenized by Tokenize.
func BuildTokenized(t Tokenized, ch retrieval.Chunking, agg rag.Aggregation) (*Searcher, error) {
	if _, err := check(t.Embedder, ch, agg); err != nil {
		return nil, err
	}
	return buildDense(t.Docs, t.Tokens, t.Embedder, ch, agg)
}
