package chunking

import (
	"errors"
	"slices"
	"testing"
)

// bruteWindows enumerates the windows by walking the corpus: a window starts at 0, the next
// starts stride later, and the walk stops at the first window that reaches the corpus end.
func bruteWindows(corpus, chunk, overlap int) []Window {
	var out []Window
	if corpus == 0 {
		return out
	}
	for start := 0; ; start += chunk - overlap {
		end := min(start+chunk, corpus)
		out = append(out, Window{start, end})
		if end == corpus {
			return out
		}
	}
}

// bruteFootprint derives the footprint from the enumerated windows.
func bruteFootprint(corpus, chunk, overlap int) (chunks, indexed int) {
	for _, w := range bruteWindows(corpus, chunk, overlap) {
		chunks++
		indexed += w.End - w.Start
	}
	return chunks, indexed
}

func TestFootprintMatchesEnumeration(t *testing.T) {
	triples := 0
	for corpus := 0; corpus <= 70; corpus++ {
		for chunk := 1; chunk <= 24; chunk++ {
			for overlap := 0; overlap < chunk; overlap++ {
				triples++
				f, err := NewFootprint(corpus, chunk, overlap)
				if err != nil {
					t.Fatalf("NewFootprint(%d, %d, %d): %v", corpus, chunk, overlap, err)
				}
				chunks, indexed := bruteFootprint(corpus, chunk, overlap)
				if f.Chunks != chunks || f.Indexed != indexed || f.Duplicated != indexed-corpus || f.Stride != chunk-overlap {
					t.Fatalf("NewFootprint(%d, %d, %d) = %+v, enumeration: %d chunks, %d indexed", corpus, chunk, overlap, f, chunks, indexed)
				}
				want := 0.0
				if corpus > 0 {
					want = float64(indexed-corpus) / float64(corpus)
				}
				if f.Duplication != want {
					t.Fatalf("NewFootprint(%d, %d, %d).Duplication = %v, want %v", corpus, chunk, overlap, f.Duplication, want)
				}
				ws := Windows(corpus, chunk, overlap)
				if !slices.Equal(ws, bruteWindows(corpus, chunk, overlap)) {
					t.Fatalf("Windows(%d, %d, %d) = %v, enumeration %v", corpus, chunk, overlap, ws, bruteWindows(corpus, chunk, overlap))
				}
				for i, w := range ws {
					if f.Window(i) != w {
						t.Fatalf("Window(%d) = %v, want %v", i, f.Window(i), w)
					}
					if i > 0 && w.End <= ws[i-1].End {
						t.Fatalf("Windows(%d, %d, %d): window %v lies inside the previous %v", corpus, chunk, overlap, w, ws[i-1])
					}
				}
			}
		}
	}
	if triples < 10000 {
		t.Fatalf("only %d triples checked", triples)
	}
}

func TestFootprintFormula(t *testing.T) {
	cases := []struct {
		name                            string
		corpus, chunk, overlap          int
		stride, chunks, indexed, dupTok int
		duplication                     float64
	}{
		// default: 1 + ceil((10000−512)/384) = 1 + 25 chunks; the last starts at 25·384 = 9600.
		{"default", 10000, 512, 128, 384, 1 + 25, 25*512 + (10000 - 25*384), 25*512 + (10000 - 25*384) - 10000, float64(25*512+(10000-25*384)-10000) / 10000},
		{"empty corpus", 0, 512, 128, 384, 0, 0, 0, 0},
		{"corpus equal to chunk", 512, 512, 128, 384, 1, 512, 0, 0},
		{"corpus below chunk", 100, 512, 500, 12, 1, 100, 0, 0},
		{"no overlap tiles", 1000, 100, 0, 100, 10, 1000, 0, 0},
		{"no overlap, short last window", 1050, 100, 0, 100, 1 + 10, 1050, 0, 0},
		// stride 1: windows start at 0..corpus−chunk, each full.
		{"stride 1", 10, 4, 3, 1, 1 + 6, 7 * 4, 7*4 - 10, float64(7*4-10) / 10},
		{"last window shorter", 10, 4, 1, 3, 1 + 2, 2*4 + (10 - 2*3), 2*4 + (10 - 2*3) - 10, float64(2*4+(10-2*3)-10) / 10},
		{"one token", 1, 1, 0, 1, 1, 1, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := NewFootprint(c.corpus, c.chunk, c.overlap)
			if err != nil {
				t.Fatal(err)
			}
			want := Footprint{Corpus: c.corpus, Chunk: c.chunk, Overlap: c.overlap, Stride: c.stride, Chunks: c.chunks,
				Indexed: c.indexed, Duplicated: c.dupTok, Duplication: c.duplication}
			if f != want {
				t.Errorf("NewFootprint(%d, %d, %d) = %+v, want %+v", c.corpus, c.chunk, c.overlap, f, want)
			}
		})
	}
}

func TestFootprintLargeCorpus(t *testing.T) {
	// The footprint of the largest corpus at stride 1 stays exact in int64:
	// chunks = 1 + (MaxCorpus − MaxChunk), each window MaxChunk tokens.
	f, err := NewFootprint(MaxCorpus, MaxChunk, MaxChunk-1)
	if err != nil {
		t.Fatal(err)
	}
	chunks := 1 + (MaxCorpus - MaxChunk)
	if f.Chunks != chunks || f.Indexed != chunks*MaxChunk {
		t.Errorf("got %+v, want %d chunks and %d indexed", f, chunks, chunks*MaxChunk)
	}
	// Footprint.Window is O(1): the first 3 windows of a corpus with ~10^12 windows.
	got := []Window{f.Window(0), f.Window(1), f.Window(2)}
	if want := []Window{{0, MaxChunk}, {1, 1 + MaxChunk}, {2, 2 + MaxChunk}}; !slices.Equal(got, want) {
		t.Errorf("first windows %v, want %v", got, want)
	}
	if last := f.Window(f.Chunks - 1); last != (Window{MaxCorpus - MaxChunk, MaxCorpus}) {
		t.Errorf("last window %v", last)
	}
}

func TestFootprintOf(t *testing.T) {
	for _, c := range []struct {
		name           string
		lengths        []int
		chunk, overlap int
	}{
		{"mixed", []int{0, 5, 512, 513, 10000, 1}, 512, 128},
		{"none", nil, 10, 2},
		{"small windows", []int{3, 7, 11, 20}, 4, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := slices.Clone(c.lengths)
			f, err := FootprintOf(c.lengths, c.chunk, c.overlap)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(in, c.lengths) {
				t.Fatal("lengths modified")
			}
			corpus, chunks, indexed := 0, 0, 0
			for _, n := range c.lengths {
				ch, ix := bruteFootprint(n, c.chunk, c.overlap)
				corpus, chunks, indexed = corpus+n, chunks+ch, indexed+ix
			}
			dup := 0.0
			if corpus > 0 {
				dup = float64(indexed-corpus) / float64(corpus)
			}
			want := Footprint{Corpus: corpus, Chunk: c.chunk, Overlap: c.overlap, Stride: c.chunk - c.overlap,
				Chunks: chunks, Indexed: indexed, Duplicated: indexed - corpus, Duplication: dup}
			if f != want {
				t.Errorf("got %+v, want %+v", f, want)
			}
		})
	}
}

func TestFootprintErrors(t *testing.T) {
	cases := []struct {
		name                   string
		corpus, chunk, overlap int
		lengths                []int
		want                   string
	}{
		{"overlap equal to chunk", 1000, 128, 128, nil, "overlap: 128 must be in 0..127 (below chunk size 128)"},
		{"negative overlap", 1000, 128, -1, nil, "overlap: -1 must be in 0..127 (below chunk size 128)"},
		{"zero chunk", 1000, 0, 0, nil, "chunk: 0 must be in 1..1048576"},
		{"chunk too big", 1000, MaxChunk + 1, 0, nil, "chunk: 1048577 must be in 1..1048576"},
		{"negative corpus", -5, 10, 0, nil, "corpus: -5 must be in 0..1099511627776"},
		{"negative length", 0, 10, 0, []int{4, -1}, "lengths[1]: -1 must be in 0..1099511627772 (the summed corpus may not exceed 1099511627776 tokens)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			if c.lengths != nil {
				_, err = FootprintOf(c.lengths, c.chunk, c.overlap)
			} else {
				_, err = NewFootprint(c.corpus, c.chunk, c.overlap)
			}
			if err == nil || err.Error() != c.want {
				t.Fatalf("error %v, want %q", err, c.want)
			}
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Errorf("error %T is not a *FieldError", err)
			}
		})
	}
	defer func() {
		if recover() == nil {
			t.Error("Windows on an invalid overlap did not panic")
		}
	}()
	Windows(10, 4, 4)
}

func BenchmarkNewFootprint(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		if _, err := NewFootprint(MaxCorpus-i%1000, 512, 128); err != nil {
			b.Fatal(err)
		}
	}
}
