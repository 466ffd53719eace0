// Package chunking cuts a token sequence into fixed-size windows with overlap and computes what
// that costs in storage (chunks, indexed and duplicated tokens).
//
//	f, err := chunking.NewFootprint(10000, 512, 128) // stride 384, 26 chunks, 13200 indexed, 3200 duplicated
//
// The windows here are the ones the lab shows and the ones package retrieval indexes, so the
// footprint model and the real chunker cannot disagree. A footprint is storage, not quality:
// whether overlap helps retrieval needs a retriever and qrels (package retrieval).
package chunking

import (
	"fmt"
)

// Limits of the chunking panel. They keep every footprint sum inside int64:
// Indexed <= Corpus·Chunk <= 2^60.
const (
	MaxCorpus = 1 << 40 // tokens in a corpus (about 1.1e12)
	MaxChunk  = 1 << 20 // tokens in a chunk (1,048,576)
)

// Footprint is the storage cost of cutting a corpus into overlapping windows of Chunk tokens.
//
// Windows start at 0 and every Stride = Chunk − Overlap tokens; the last window ends at the
// corpus end (it may be shorter than Chunk) and no window lies wholly inside the previous one:
//
//	Chunks      = 0 when Corpus = 0; 1 when Corpus <= Chunk; else 1 + ceil((Corpus − Chunk) / Stride)
//	Indexed     = Σ window lengths = (Chunks − 1)·Chunk + (Corpus − (Chunks − 1)·Stride)  (Corpus > 0)
//	Duplicated  = Indexed − Corpus
//	Duplication = Duplicated / Corpus   (0 for an empty corpus)
//
// For several documents (FootprintOf) Corpus, Chunks, Indexed and Duplicated are sums over the
// documents, each cut on its own, and Duplication is the summed Duplicated over the summed Corpus.
// Overlap costs storage and adds redundant near-duplicate candidates; it is not by itself a
// relevance gain (that needs a retriever and qrels).
type Footprint struct {
	Corpus, Chunk, Overlap int
	Stride                 int
	Chunks                 int
	Indexed                int
	Duplicated             int
	Duplication            float64
}

// A Window is the token range [Start, End) of one chunk.
type Window struct{ Start, End int }

// NewFootprint computes the footprint of one corpus of corpus tokens in O(1). It returns a
// *FieldError naming the field when corpus is outside 0..MaxCorpus, chunk outside 1..MaxChunk or
// overlap outside 0..chunk−1 (the lab's state checks these three this way).
func NewFootprint(corpus, chunk, overlap int) (Footprint, error) {
	if err := check(corpus, chunk, overlap); err != nil {
		return Footprint{}, err
	}
	f := Footprint{Corpus: corpus, Chunk: chunk, Overlap: overlap, Stride: chunk - overlap}
	f.Chunks = chunkCount(corpus, chunk, f.Stride)
	if f.Chunks > 0 {
		f.Indexed = (f.Chunks-1)*chunk + corpus - (f.Chunks-1)*f.Stride
	}
	f.Duplicated = f.Indexed - corpus
	if corpus > 0 {
		f.Duplication = float64(f.Duplicated) / float64(corpus)
	}
	return f, nil
}

// FootprintOf computes the footprint of documents of the given token lengths, each cut into its
// own windows, summed (see Footprint). An error names the first bad length (lengths[i]), the chunk
// or the overlap; the summed corpus must stay within MaxCorpus. lengths is not modified.
func FootprintOf(lengths []int, chunk, overlap int) (Footprint, error) {
	if err := check(0, chunk, overlap); err != nil {
		return Footprint{}, err
	}
	sum := Footprint{Chunk: chunk, Overlap: overlap, Stride: chunk - overlap}
	for i, n := range lengths {
		if n < 0 || n > MaxCorpus-sum.Corpus {
			return Footprint{}, &FieldError{Field: fmt.Sprintf("lengths[%d]", i),
				Msg: fmt.Sprintf("%d must be in 0..%d (the summed corpus may not exceed %d tokens)", n, MaxCorpus-sum.Corpus, MaxCorpus)}
		}
		f, _ := NewFootprint(n, chunk, overlap) // valid: checked above
		sum.Corpus += f.Corpus
		sum.Chunks += f.Chunks
		sum.Indexed += f.Indexed
		sum.Duplicated += f.Duplicated
	}
	if sum.Corpus > 0 {
		sum.Duplication = float64(sum.Duplicated) / float64(sum.Corpus)
	}
	return sum, nil
}

// Window returns window i (0 <= i < f.Chunks) of a single-corpus footprint in O(1):
// [i·Stride, min(i·Stride + Chunk, Corpus)). It panics when i is out of range.
func (f Footprint) Window(i int) Window {
	if i < 0 || i >= f.Chunks {
		panic(fmt.Sprintf("chunking: Footprint.Window: index %d outside 0..%d", i, f.Chunks-1))
	}
	start := i * f.Stride
	return Window{Start: start, End: min(start+f.Chunk, f.Corpus)}
}

// Windows lists the windows of a corpus (see Footprint), in order: one document's chunks.
// For a big corpus use Footprint.Window, which computes window i in O(1) without the list.
// Windows panics on parameters NewFootprint rejects.
func Windows(corpus, chunk, overlap int) []Window {
	f := mustFootprint(corpus, chunk, overlap)
	out := make([]Window, f.Chunks)
	for i := range out {
		out[i] = f.Window(i)
	}
	return out
}

func mustFootprint(corpus, chunk, overlap int) Footprint {
	f, err := NewFootprint(corpus, chunk, overlap)
	if err != nil {
		panic("chunking: " + err.Error())
	}
	return f
}

// chunkCount is 0 for an empty corpus, 1 when corpus <= chunk, else 1 + ceil((corpus − chunk)/stride).
func chunkCount(corpus, chunk, stride int) int {
	switch {
	case corpus == 0:
		return 0
	case corpus <= chunk:
		return 1
	}
	return 1 + (corpus-chunk+stride-1)/stride
}

// check reports whether corpus is in 0..MaxCorpus, chunk in 1..MaxChunk and overlap in
// 0..chunk−1; the error is a *FieldError naming the field and its range.
func check(corpus, chunk, overlap int) error {
	if corpus < 0 || corpus > MaxCorpus {
		return rangeError("corpus", corpus, 0, MaxCorpus, "")
	}
	if chunk < 1 || chunk > MaxChunk {
		return rangeError("chunk", chunk, 1, MaxChunk, "")
	}
	if overlap < 0 || overlap >= chunk {
		return rangeError("overlap", overlap, 0, chunk-1, fmt.Sprintf(" (below chunk size %d)", chunk))
	}
	return nil
}

// FieldError is an invalid value of one named input: Error prints "field: msg". The lab's state
// errors are this type too, so a caller tests for one type.
type FieldError struct {
	Field string // the input as links and the command line name it (corpus, chunk, overlap, lengths[3])
	Msg   string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

// rangeError returns a *FieldError saying that field's value v must lie in lo..hi, followed by note.
func rangeError(field string, v, lo, hi int, note string) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf("%d must be in %d..%d%s", v, lo, hi, note)}
}
