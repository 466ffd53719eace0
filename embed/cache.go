package embed

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sync/atomic"
)

// Cache is an Embedder that keeps every vector on disk, so a text is embedded once per model
// and settings: the second run of a notebook, or a sweep's second chunking of the same text,
// embeds nothing. A vector's file is
//
//	Dir/<sha256(Key())[:16]>/<h[:2]>/<h>   with h = sha256(Key() + "\x00" + text)
//
// holding "RLV1", the dimension (uint32, little endian) and the float32 values. Files are
// written to a temporary name and renamed, so concurrent runs never read half a vector; a file
// that is not a well-formed vector counts as missing and is written again.
type Cache struct {
	Inner Embedder
	Dir   string // "" means denseDir()/cache
	// Hits and Misses count the texts found and embedded since the Cache was made.
	Hits, Misses atomic.Int64
}

// Key implements Embedder: the inner embedder's key (caching changes no vector).
func (c *Cache) Key() string { return c.Inner.Key() }

// Embed implements Embedder: vectors on disk are read, the others embedded by Inner (in one
// call) and stored.
func (c *Cache) Embed(texts []string) ([][]float32, error) {
	return c.embed(texts, c.Inner.Embed)
}

// WordPiece implements Embedder: the inner embedder's tokenizer.
func (c *Cache) WordPiece() WordPiece { return c.Inner.WordPiece() }

// EmbedTokens implements Embedder: a token list is cached as if it were the
// text "\x00tokens" followed by its IDs (4 bytes each, little endian); a real text would have to
// be those bytes, NUL first, to share its file.
func (c *Cache) EmbedTokens(toks [][]int32) ([][]float32, error) {
	inner := c.Inner
	keys := make([]string, len(toks))
	back := make(map[string][]int32, len(toks))
	for i, t := range toks {
		b := make([]byte, 0, 7+4*len(t))
		b = append(b, "\x00tokens"...)
		for _, id := range t {
			b = binary.LittleEndian.AppendUint32(b, uint32(id))
		}
		keys[i] = string(b)
		back[keys[i]] = t
	}
	return c.embed(keys, func(ks []string) ([][]float32, error) {
		ts := make([][]int32, len(ks))
		for i, k := range ks {
			ts[i] = back[k]
		}
		return inner.EmbedTokens(ts)
	})
}

// embed looks texts up on disk and embeds the missing ones with fn.
func (c *Cache) embed(texts []string, fn func([]string) ([][]float32, error)) ([][]float32, error) {
	dir := c.Dir
	if dir == "" {
		dir = filepath.Join(denseDir(), "cache")
	}
	key := c.Inner.Key()
	ks := sha256.Sum256([]byte(key))
	dir = filepath.Join(dir, hex.EncodeToString(ks[:8]))
	out := make([][]float32, len(texts))
	paths := make([]string, len(texts))
	parallel(len(texts), func(i int) {
		h := sha256.Sum256([]byte(key + "\x00" + texts[i]))
		name := hex.EncodeToString(h[:])
		paths[i] = filepath.Join(dir, name[:2], name)
		out[i], _ = readVector(paths[i])
	})
	var missing []int
	var todo, todoPaths []string
	seen := map[string]int{}
	for i, v := range out {
		if v != nil {
			continue
		}
		if _, dup := seen[texts[i]]; !dup {
			seen[texts[i]] = len(todo)
			todo = append(todo, texts[i])
			todoPaths = append(todoPaths, paths[i])
		}
		missing = append(missing, i)
	}
	c.Hits.Add(int64(len(texts) - len(missing)))
	c.Misses.Add(int64(len(todo)))
	if len(todo) == 0 {
		return out, nil
	}
	vecs, err := fn(todo)
	if err != nil {
		return nil, err
	}
	if len(vecs) != len(todo) {
		return nil, fmt.Errorf("embed: %s returned %d vectors for %d texts", key, len(vecs), len(todo))
	}
	var werr atomic.Value
	parallel(len(todo), func(j int) {
		if err := writeVector(todoPaths[j], vecs[j]); err != nil {
			werr.CompareAndSwap(nil, err)
		}
	})
	for _, i := range missing {
		out[i] = vecs[seen[texts[i]]]
	}
	if err, _ := werr.Load().(error); err != nil {
		return out, fmt.Errorf("embed: cache: %w", err)
	}
	return out, nil
}

var magic = [4]byte{'R', 'L', 'V', '1'}

// readVector reads a vector file; nil when absent or malformed.
func readVector(path string) ([]float32, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	v, ok := decodeVector(data)
	if !ok {
		return nil, errors.New("malformed vector file")
	}
	return v, nil
}

// decodeVector parses "RLV1", a uint32 dimension and that many float32 values (finite).
func decodeVector(data []byte) ([]float32, bool) {
	if len(data) < 8 || [4]byte(data[:4]) != magic {
		return nil, false
	}
	dim := binary.LittleEndian.Uint32(data[4:8])
	if dim == 0 || uint64(len(data)-8) != 4*uint64(dim) {
		return nil, false
	}
	v := make([]float32, dim)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[8+4*i:]))
		if math.IsNaN(float64(v[i])) || math.IsInf(float64(v[i]), 0) {
			return nil, false
		}
	}
	return v, true
}

func encodeVector(v []float32) []byte {
	data := make([]byte, 8+4*len(v))
	copy(data, magic[:])
	binary.LittleEndian.PutUint32(data[4:], uint32(len(v)))
	for i, x := range v {
		binary.LittleEndian.PutUint32(data[8+4*i:], math.Float32bits(x))
	}
	return data
}

// writeVector writes v to path through a temporary file and a rename.
func writeVector(path string, v []float32) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	if _, err := f.Write(encodeVector(v)); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), path)
}
