package retrieval

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/chunking"
)

func TestChunks(t *testing.T) {
	tok := mustTokenizer(t)
	var docs []Document
	for i, n := range []int{0, 1, 5, 31, 32, 33, 100, 257, 700} {
		words := make([]string, n)
		for j := range words {
			words[j] = fmt.Sprintf("w%dé%d", j%7, j%3) // multi-token words with a 2-byte character
		}
		docs = append(docs, Document{ID: fmt.Sprint("d", i), Title: fmt.Sprint("Title ", n), Text: strings.Join(words, " ")})
	}
	docs = append(docs, Document{ID: "empty"})
	tz := Tokenize(tok, docs)
	lengths := tz.lengths()
	if lengths[len(lengths)-1] != 0 {
		t.Fatalf("empty document has %d tokens", lengths[len(lengths)-1])
	}
	configs := append(sweepSizes(), Chunking{Chunk: 1}, Chunking{Chunk: 5, Overlap: 4}, Chunking{Chunk: 3, Overlap: 1})
	for _, c := range configs {
		t.Run(c.String(), func(t *testing.T) {
			if c.Chunk == 0 {
				chunks, indexed := cutChunks(t, tok, tz, c)
				if total := sum(lengths); indexed != total || len(chunks) != len(docs)-1 {
					t.Errorf("whole: %d chunks, %d tokens; want %d, %d", len(chunks), indexed, len(docs)-1, total)
				}
				return
			}
			chunks := chunksAsModelled(t, tok, tz, c)
			// Document by document: the windows are the model's, the texts decode them, and
			// windows that tile the document (no overlap) give back its content.
			for d, toks := range tz.Tokens {
				var mine []chunking.Window
				var text strings.Builder
				for _, ch := range chunks {
					if ch.Doc == d {
						mine = append(mine, ch.Window)
						if ch.Text != tok.Decode(toks[ch.Window.Start:ch.Window.End]) {
							t.Errorf("doc %d window %v: text is not the decoded window", d, ch.Window)
						}
						text.WriteString(ch.Text)
					}
				}
				want := chunking.Windows(len(toks), c.Chunk, c.Overlap)
				if !slices.Equal(mine, want) && !(len(mine) == 0 && len(want) == 0) {
					t.Errorf("doc %d: windows %v, want %v", d, mine, want)
				}
				if c.Overlap == 0 && text.String() != docs[d].Content() && len(toks) > 0 {
					t.Errorf("doc %d: chunks without overlap do not concatenate to the content", d)
				}
			}
		})
	}
}

func TestChunkingValidate(t *testing.T) {
	for _, c := range []Chunking{{Chunk: -1}, {Chunk: 0, Overlap: 3}, {Chunk: 4, Overlap: 4}, {Chunk: 4, Overlap: -1}, {Chunk: chunking.MaxChunk + 1}} {
		if err := c.Validate(); err == nil {
			t.Errorf("Validate(%+v) = nil, want an error", c)
		}
	}
	for _, c := range sweepSizes() {
		if err := c.Validate(); err != nil {
			t.Errorf("Validate(%+v) = %v", c, err)
		}
	}
}

// cutChunks cuts the documents of tz with c and returns the chunks and the tokens they hold.
func cutChunks(t *testing.T, tok *Tokenizer, tz Tokenized, c Chunking) (chunks []textChunk, indexed int) {
	t.Helper()
	chunks, err := tz.chunks(tok, c)
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range chunks {
		indexed += ch.len()
	}
	return chunks, indexed
}

// chunksAsModelled cuts the documents of tz into chunks of c.Chunk > 0 tokens and fails the test
// unless they are as many and hold as many tokens as the footprint model says
// (chunking.FootprintOf of the documents' lengths). It returns the chunks.
func chunksAsModelled(t *testing.T, tok *Tokenizer, tz Tokenized, c Chunking) []textChunk {
	t.Helper()
	chunks, indexed := cutChunks(t, tok, tz, c)
	f, err := chunking.FootprintOf(tz.lengths(), c.Chunk, c.Overlap)
	if err != nil {
		t.Fatal(err)
	}
	if indexed != f.Indexed || len(chunks) != f.Chunks {
		t.Errorf("%v: %d chunks, %d tokens; footprint model %d, %d", c, len(chunks), indexed, f.Chunks, f.Indexed)
	}
	return chunks
}

// sum returns the sum of xs.
func sum(xs []int) int {
	total := 0
	for _, x := range xs {
		total += x
	}
	return total
}

// sweepSizes are the configurations of package study's standard sweep: whole documents, then
// chunk sizes 32, 64, 128, 256 and 512 tokens, each without overlap and with 25 % overlap.
func sweepSizes() []Chunking {
	return []Chunking{Whole, {Chunk: 32}, {Chunk: 32, Overlap: 8}, {Chunk: 64}, {Chunk: 64, Overlap: 16},
		{Chunk: 128}, {Chunk: 128, Overlap: 32}, {Chunk: 256}, {Chunk: 256, Overlap: 64}, {Chunk: 512}, {Chunk: 512, Overlap: 128}}
}

// TestFootprintSciFact checks, for every configuration of the standard sweep, that the chunks
// cut from SciFact hold exactly the footprint model's tokens, and the corpus's token count given
// in ../shared/data/README.md.
func TestFootprintSciFact(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	docs, err := ReadCorpusFile(sharedData(t, "scifact"))
	if err != nil {
		t.Fatal(err)
	}
	tok := mustTokenizer(t)
	tz := Tokenize(tok, docs)
	if total := sum(tz.lengths()); len(docs) != 5183 || total != 1660493 {
		t.Errorf("SciFact: %d documents, %d tokens; want 5183, 1660493", len(docs), total)
	}
	for _, c := range sweepSizes()[1:] {
		chunksAsModelled(t, tok, tz, c)
	}
}
