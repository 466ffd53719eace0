package embed

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// countingEmbedder gives text s the vector (len(s), 1) and counts the texts it embeds.
type countingEmbedder struct {
	key   string
	calls [][]string
}

func (e *countingEmbedder) Key() string { return e.key }
func (e *countingEmbedder) Embed(texts []string) ([][]float32, error) {
	e.calls = append(e.calls, slices.Clone(texts))
	out := make([][]float32, len(texts))
	for i, s := range texts {
		out[i] = []float32{float32(len(s)), 1}
	}
	return out, nil
}

func TestCache(t *testing.T) {
	dir := t.TempDir()
	inner := &countingEmbedder{key: "toy/v1"}
	c := &Cache{Inner: inner, Dir: dir}
	check := func(texts []string, wantEmbedded []string) {
		t.Helper()
		got, err := c.Embed(texts)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range texts {
			if want := []float32{float32(len(s)), 1}; !slices.Equal(got[i], want) {
				t.Errorf("%q: got %v, want %v", s, got[i], want)
			}
		}
		var embedded []string
		if len(inner.calls) > 0 {
			embedded = inner.calls[len(inner.calls)-1]
		}
		if !slices.Equal(embedded, wantEmbedded) {
			t.Errorf("embedded %q, want %q", embedded, wantEmbedded)
		}
		inner.calls = nil
	}
	check([]string{"a", "bb", "a"}, []string{"a", "bb"}) // a duplicate is embedded once
	check([]string{"bb", "ccc", "a"}, []string{"ccc"})   // only the new text
	check([]string{"a", "bb", "ccc"}, nil)               // nothing
	if h, m := c.Hits.Load(), c.Misses.Load(); h != 0+2+3 || m != 2+1+0 {
		// hits: 0 + 2 + 3 = 5; misses: 2 + 1 = 3
		t.Errorf("hits %d misses %d, want 5 and 3", h, m)
	}

	// another key shares nothing
	other := &countingEmbedder{key: "toy/v2"}
	if _, err := (&Cache{Inner: other, Dir: dir}).Embed([]string{"a"}); err != nil || len(other.calls) != 1 {
		t.Errorf("a different key reused a vector (calls %v, err %v)", other.calls, err)
	}

	// a damaged file is embedded again
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*", "*"))
	if len(files) != 4 {
		t.Fatalf("%d vector files, want 4", len(files))
	}
	for _, f := range files {
		if err := os.WriteFile(f, []byte("RLV1\x02\x00\x00\x00short"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	check([]string{"a"}, []string{"a"})
	if tmp, _ := filepath.Glob(filepath.Join(dir, "*", "*", ".tmp-*")); len(tmp) != 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}

func FuzzDecodeVector(f *testing.F) {
	f.Add(encodeVector([]float32{1, -2.5}))
	f.Add([]byte("RLV1\x01\x00\x00\x00\x00\x00\xc0\x7f")) // NaN
	f.Add([]byte("RLV1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, ok := decodeVector(data)
		if !ok {
			return
		}
		if back := encodeVector(v); string(back) != string(data) {
			t.Fatalf("decode then encode changed %x to %x", data, back)
		}
		_ = fmt.Sprint(v)
	})
}

// The vector of token IDs t is (len(t), t[0]).

func (e *countingEmbedder) WordPiece() WordPiece { return WordPiece{Vocab: toyVocab(), MaxTokens: 8} }
func (e *countingEmbedder) EmbedTokens(toks [][]int32) ([][]float32, error) {
	out := make([][]float32, len(toks))
	for i, t := range toks {
		e.calls = append(e.calls, []string{fmt.Sprint(t)})
		out[i] = []float32{float32(len(t)), float32(t[0])}
	}
	return out, nil
}

func TestCacheTokens(t *testing.T) {
	inner := &countingEmbedder{key: "toy/v1"}
	c := &Cache{Inner: inner, Dir: t.TempDir()}
	for round, wantCalls := range []int{2, 0} {
		got, err := c.EmbedTokens([][]int32{{101, 7, 102}, {101, 102}, {101, 7, 102}})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got[0], []float32{3, 101}) || !slices.Equal(got[1], []float32{2, 101}) || !slices.Equal(got[2], got[0]) {
			t.Errorf("round %d: got %v", round, got)
		}
		if len(inner.calls) != wantCalls {
			t.Errorf("round %d: %d token lists embedded, want %d", round, len(inner.calls), wantCalls)
		}
		inner.calls = nil
	}
}
