package retrieval

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/ranklab/ranklab/chunking"
)

// Chunking says how documents are cut: Chunk = 0 keeps whole documents (one unit per
// document); otherwise each document's tokens are cut into the windows of the lab's
// footprint model, chunking.Windows(tokens, Chunk, Overlap): windows of Chunk tokens starting
// every Chunk − Overlap tokens, the last one ending at the document's end, so a document
// of n ≤ Chunk tokens is one chunk and an empty document has no chunk.
type Chunking struct {
	Chunk, Overlap int
}

// Whole is the Chunking that keeps whole documents.
var Whole = Chunking{}

// String returns "whole" or "chunk=N overlap=M".
func (c Chunking) String() string {
	if c.Chunk == 0 {
		return "whole"
	}
	return fmt.Sprintf("chunk=%d overlap=%d", c.Chunk, c.Overlap)
}

// Validate reports an error naming the field when Chunk is outside 0..chunking.MaxChunk or,
// for Chunk > 0, Overlap is outside 0..Chunk−1 (for whole documents Overlap must be 0).
func (c Chunking) Validate() error {
	if c.Chunk == 0 {
		if c.Overlap != 0 {
			return fmt.Errorf("overlap %d: must be 0 for whole documents (chunk 0)", c.Overlap)
		}
		return nil
	}
	if c.Chunk < 0 {
		return fmt.Errorf("chunk %d: must be 0 (whole documents) or 1..%d", c.Chunk, chunking.MaxChunk)
	}
	_, err := chunking.NewFootprint(0, c.Chunk, c.Overlap)
	return err
}

// Tokenized is a corpus with each document's Content encoded in cl100k_base tokens.
type Tokenized struct {
	Docs   []Document
	Tokens [][]int // Tokens[i]: the tokens of Docs[i].Content()
}

// Tokenize encodes every document's Content, on all CPUs. docs is not modified.
func Tokenize(tok *Tokenizer, docs []Document) Tokenized {
	t := Tokenized{Docs: docs, Tokens: make([][]int, len(docs))}
	workers := min(runtime.GOMAXPROCS(0), max(1, len(docs)))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(docs); i += workers {
				t.Tokens[i] = tok.Encode(docs[i].Content())
			}
		}()
	}
	wg.Wait()
	return t
}

// lengths returns the token count of each document.
func (t Tokenized) lengths() []int {
	out := make([]int, len(t.Tokens))
	for i, toks := range t.Tokens {
		out[i] = len(toks)
	}
	return out
}

// textChunk is one indexed unit: a window of one document's tokens and its text.
type textChunk struct {
	Doc    int // index of the document in Tokenized.Docs
	Window chunking.Window
	Text   string // the decoded tokens [Window.Start, Window.End)
}

// len returns the chunk's length in tokens.
func (c textChunk) len() int { return c.Window.End - c.Window.Start }

// chunks cuts every document into the windows of c, in document order then window order.
// For whole documents each document is one chunk holding its Content. An empty document
// (no tokens) gives no chunk in either case, so it is never retrieved. The sum of chunk
// lengths equals chunking.FootprintOf(t.lengths(), c.Chunk, c.Overlap).Indexed (for whole
// documents: the corpus's token count). It returns an error when c is invalid, or when a
// document's tokens are not its content's (t was not built by Tokenize with tok).
func (t Tokenized) chunks(tok *Tokenizer, c Chunking) ([]textChunk, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	var out []textChunk
	for i, toks := range t.Tokens {
		if len(toks) == 0 {
			continue
		}
		if c.Chunk == 0 || len(toks) <= c.Chunk {
			out = append(out, textChunk{Doc: i, Window: chunking.Window{Start: 0, End: len(toks)}, Text: t.Docs[i].Content()})
			continue
		}
		// The tokens' bytes concatenate to the content, so a window's decoded text is the
		// content between the byte offsets of its first and its end token.
		content := t.Docs[i].Content()
		offsets := make([]int, len(toks)+1)
		for j, id := range toks {
			offsets[j+1] = offsets[j] + tok.byteLen(id)
		}
		if offsets[len(toks)] != len(content) {
			return nil, fmt.Errorf("document %q: its %d tokens decode to %d bytes, not its %d", t.Docs[i].ID, len(toks), offsets[len(toks)], len(content))
		}
		for _, w := range chunking.Windows(len(toks), c.Chunk, c.Overlap) {
			out = append(out, textChunk{Doc: i, Window: w, Text: content[offsets[w.Start]:offsets[w.End]]})
		}
	}
	return out, nil
}
