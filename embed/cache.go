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
	"syscall"
)

// Cache is an Embedder that keeps every vector on disk, so a text is embedded once per model
// and settings: the second run of a notebook, or a sweep's second chunking of the same text,
// embeds nothing. A vector is keyed by the tokens the model reads, not by the text: Embed
// tokenizes with Inner's WordPiece and embeds through EmbedTokens, so a whole document and a
// chunk with the same tokens (a document shorter than the chunk size), or two texts that differ
// only in case or accents, share one vector. A vector's file is
//
//	Dir/<sha256(Key())[:16]>/<h[:2]>/<h>   with h = sha256(Key() + "\x00" + "\x00tokens" + IDs)
//
// (the IDs 4 bytes each, little endian) holding "RLV1", the dimension (uint32, little endian)
// and the float32 values. Files are written to a temporary name and renamed, so concurrent runs
// never read half a vector; a file that is not a well-formed vector counts as missing and is
// written again. Processes that share a Dir embed one at a time (an flock(2) on
// Dir/<sha256(Key())[:16]>/.lock, held while the missing vectors are embedded and written):
// a process that waited looks its texts up again first, so two runs of the same corpus at once
// embed it once, not twice.
type Cache struct {
	Inner Embedder
	Dir   string // "" means $RANKLAB_VECTOR_CACHE, else denseDir()/cache (CacheDir)
	// Hits and Misses count the texts found and embedded since the Cache was made.
	Hits, Misses atomic.Int64
}

// CacheDir is where a Cache with no Dir keeps its vectors: $RANKLAB_VECTOR_CACHE when set (make
// test points it at a folder keyed by the hash of this package's code, so its tests and
// notebooks share vectors and never read those older code left), else the cache folder beside
// the installed model, ~/.cache/ranklab/dense/cache.
func CacheDir() string {
	if d := os.Getenv("RANKLAB_VECTOR_CACHE"); d != "" {
		return d
	}
	return filepath.Join(denseDir(), "cache")
}

// Key implements Embedder: the inner embedder's key (caching changes no vector).
func (c *Cache) Key() string { return c.Inner.Key() }

// Embed implements Embedder: the texts are tokenized with Inner's WordPiece and embedded as
// EmbedTokens embeds them (Inner.Embed is never called: a Model's Embed is exactly that).
func (c *Cache) Embed(texts []string) ([][]float32, error) {
	return c.EmbedTokens(tokenizeAll(c.Inner.WordPiece(), texts))
}

// WordPiece implements Embedder: the inner embedder's tokenizer.
func (c *Cache) WordPiece() WordPiece { return c.Inner.WordPiece() }

// EmbedTokens implements Embedder: vectors on disk are read, the others embedded by
// Inner.EmbedTokens (in one call) and stored. A token list is cached as if it were the text
// "\x00tokens" followed by its IDs (4 bytes each, little endian).
func (c *Cache) EmbedTokens(toks [][]int32) ([][]float32, error) {
	keys := make([]string, len(toks))
	for i, t := range toks {
		b := make([]byte, 0, 7+4*len(t))
		b = append(b, "\x00tokens"...)
		for _, id := range t {
			b = binary.LittleEndian.AppendUint32(b, uint32(id))
		}
		keys[i] = string(b)
	}
	dir := c.Dir
	if dir == "" {
		dir = CacheDir()
	}
	key := c.Inner.Key()
	ks := sha256.Sum256([]byte(key))
	dir = filepath.Join(dir, hex.EncodeToString(ks[:8]))
	out := make([][]float32, len(keys))
	paths := make([]string, len(keys))
	parallel(len(keys), func(i int) {
		h := sha256.Sum256([]byte(key + "\x00" + keys[i]))
		name := hex.EncodeToString(h[:])
		paths[i] = filepath.Join(dir, name[:2], name)
		out[i], _ = readVector(paths[i])
	})
	todo := missingOf(keys, out)
	if len(todo) > 0 {
		// Another process may be embedding the same texts into this Dir: wait for it, then
		// look again, so that each vector is embedded once.
		unlock, err := lockDir(dir)
		if err != nil {
			return nil, fmt.Errorf("embed: cache: %w", err)
		}
		defer unlock()
		parallel(len(keys), func(i int) {
			if out[i] == nil {
				out[i], _ = readVector(paths[i])
			}
		})
		todo = missingOf(keys, out)
	}
	c.Hits.Add(int64(len(keys) - countNil(out)))
	c.Misses.Add(int64(len(todo)))
	if len(todo) == 0 {
		return out, nil
	}
	ts := make([][]int32, len(todo))
	for j, i := range todo {
		ts[j] = toks[i]
	}
	vecs, err := c.Inner.EmbedTokens(ts)
	if err != nil {
		return nil, err
	}
	if len(vecs) != len(todo) {
		return nil, fmt.Errorf("embed: %s returned %d vectors for %d texts", key, len(vecs), len(todo))
	}
	var werr atomic.Value
	parallel(len(todo), func(j int) {
		if err := writeVector(paths[todo[j]], vecs[j]); err != nil {
			werr.CompareAndSwap(nil, err)
		}
	})
	byKey := make(map[string][]float32, len(todo))
	for j, i := range todo {
		byKey[keys[i]] = vecs[j]
	}
	for i, v := range out {
		if v == nil {
			out[i] = byKey[keys[i]]
		}
	}
	if err, _ := werr.Load().(error); err != nil {
		return out, fmt.Errorf("embed: cache: %w", err)
	}
	return out, nil
}

// missingOf returns, for each distinct key whose vector out lacks, the index of its first
// occurrence, in order.
func missingOf(keys []string, out [][]float32) []int {
	var todo []int
	seen := map[string]bool{}
	for i, v := range out {
		if v == nil && !seen[keys[i]] {
			seen[keys[i]] = true
			todo = append(todo, i)
		}
	}
	return todo
}

func countNil(vs [][]float32) int {
	n := 0
	for _, v := range vs {
		if v == nil {
			n++
		}
	}
	return n
}

// lockDir takes an exclusive flock(2) on dir/.lock, waiting for another holder; the kernel
// drops it when its process ends, so a killed run leaves no lock behind.
func lockDir(dir string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	return func() { f.Close() }, nil
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
