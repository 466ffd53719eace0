package embed

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// countingEmbedder embeds like a Model: Embed(texts) is EmbedTokens of their tokens (toy vocabulary,
// 8 tokens at most). The vector of token IDs t is (len(t), t[1]), t[1] being the first token after
// [CLS]; calls records each token list it embedded (as fmt.Sprint(t)), batches records each call's size.
type countingEmbedder struct {
	key     string
	calls   []string
	batches []int
	delay   time.Duration
}

func (e *countingEmbedder) Key() string          { return e.key }
func (e *countingEmbedder) WordPiece() WordPiece { return WordPiece{Vocab: toyVocab(), MaxTokens: 8} }
func (e *countingEmbedder) Embed(texts []string) ([][]float32, error) {
	toks := make([][]int32, len(texts))
	for i, s := range texts {
		toks[i] = e.WordPiece().tokenize(s)
	}
	return e.EmbedTokens(toks)
}
func (e *countingEmbedder) EmbedTokens(toks [][]int32) ([][]float32, error) {
	time.Sleep(e.delay)
	e.batches = append(e.batches, len(toks))
	out := make([][]float32, len(toks))
	for i, t := range toks {
		e.calls = append(e.calls, fmt.Sprint(t))
		out[i] = []float32{float32(len(t)), float32(t[1])}
	}
	return out, nil
}

// The toy vocabulary's IDs: [CLS] 101, [SEP] 102, "a" 1004, "b" 1005, "," 1006.

func TestCache(t *testing.T) {
	dir := t.TempDir()
	inner := &countingEmbedder{key: "toy/v1"}
	c := &Cache{Inner: inner, Dir: dir}
	check := func(texts []string, want [][]float32, wantEmbedded []string) {
		t.Helper()
		got, err := c.Embed(texts)
		if err != nil {
			t.Fatal(err)
		}
		for i := range texts {
			if !slices.Equal(got[i], want[i]) {
				t.Errorf("%q: got %v, want %v", texts[i], got[i], want[i])
			}
		}
		if !slices.Equal(inner.calls, wantEmbedded) {
			t.Errorf("embedded %q, want %q", inner.calls, wantEmbedded)
		}
		inner.calls = nil
	}
	a, b, ab := []float32{3, 1004}, []float32{3, 1005}, []float32{4, 1004}
	check([]string{"a", "b b", "a"}, [][]float32{a, {4, 1005}, a}, []string{"[101 1004 102]", "[101 1005 1005 102]"}) // a duplicate is embedded once
	check([]string{"b b", "b", "A"}, [][]float32{{4, 1005}, b, a}, []string{"[101 1005 102]"})                        // only the new tokens: "A" reads as "a"
	check([]string{"a b", "a  B"}, [][]float32{ab, ab}, []string{"[101 1004 1005 102]"})                              // two texts, one token list
	check([]string{"a", "b", "a b"}, [][]float32{a, b, ab}, nil)                                                      // nothing
	// hits (texts found on disk): 0 + 2 + 0 + 3; misses (token lists embedded): 2 + 1 + 1 + 0
	if h, m := c.Hits.Load(), c.Misses.Load(); h != 5 || m != 4 {
		t.Errorf("hits %d misses %d, want 5 and 4", h, m)
	}
	// A chunk given as tokens finds the vector of the text with the same tokens.
	if got, err := c.EmbedTokens([][]int32{{101, 1004, 1005, 102}}); err != nil || !slices.Equal(got[0], ab) || len(inner.calls) != 0 {
		t.Errorf("EmbedTokens of the tokens of \"a b\": %v, %v, embedded %q", got, err, inner.calls)
	}

	// another key shares nothing
	other := &countingEmbedder{key: "toy/v2"}
	if _, err := (&Cache{Inner: other, Dir: dir}).Embed([]string{"a"}); err != nil || len(other.calls) != 1 {
		t.Errorf("a different key reused a vector (calls %v, err %v)", other.calls, err)
	}

	// every vector file is there, and nothing temporary is left
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*", "*"))
	if len(files) != 5 {
		t.Fatalf("%d vector files, want 5: %v", len(files), files)
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, "*", ".tmp-*")); len(tmp) != 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}

// TestCacheConcurrentRuns embeds the same texts through two Caches on one Dir at once (as two
// processes would: each holds its own flock): one embeds them, the other waits and reads them.
func TestCacheConcurrentRuns(t *testing.T) {
	dir := t.TempDir()
	texts := []string{"a", "b", "a b", "b , a"}
	inners := []*countingEmbedder{{key: "toy/v1", delay: 200 * time.Millisecond}, {key: "toy/v1", delay: 200 * time.Millisecond}}
	var wg sync.WaitGroup
	got := make([][][]float32, 2)
	errs := make([]error, 2)
	for i, in := range inners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = (&Cache{Inner: in, Dir: dir}).Embed(texts)
		}()
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil {
		t.Fatal(errs)
	}
	if n := len(inners[0].calls) + len(inners[1].calls); n != len(texts) {
		t.Errorf("%d texts embedded in all (%q and %q), want %d: each once", n, inners[0].calls, inners[1].calls, len(texts))
	}
	for i := range texts {
		if !slices.Equal(got[0][i], got[1][i]) {
			t.Errorf("%q: %v and %v", texts[i], got[0][i], got[1][i])
		}
	}
}

func FuzzDecodeVector(f *testing.F) {
	f.Add(encodeVector([]float32{1, -2.5}, "ab12"))
	f.Add(encodeVector([]float32{float32(math.NaN())}, "ab12"))
	f.Add([]byte("RLV2"))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := decodeVector(data, "ab12")
		if err != nil {
			return
		}
		if back := encodeVector(v, "ab12"); string(back) != string(data) {
			t.Fatalf("decode then encode changed %x to %x", data, back)
		}
		if _, err := decodeVector(data, "ab13"); err == nil {
			t.Fatalf("%x passed the checksum under another name", data)
		}
	})
}

func TestCacheTokens(t *testing.T) {
	inner := &countingEmbedder{key: "toy/v1"}
	c := &Cache{Inner: inner, Dir: t.TempDir()}
	for round, wantCalls := range []int{2, 0} {
		got, err := c.EmbedTokens([][]int32{{101, 7, 102}, {101, 8, 102}, {101, 7, 102}})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got[0], []float32{3, 7}) || !slices.Equal(got[1], []float32{3, 8}) || !slices.Equal(got[2], got[0]) {
			t.Errorf("round %d: got %v", round, got)
		}
		if len(inner.calls) != wantCalls {
			t.Errorf("round %d: %d token lists embedded, want %d", round, len(inner.calls), wantCalls)
		}
		inner.calls = nil
	}
}
