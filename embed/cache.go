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
	"strings"
	"sync"
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
// (the IDs 4 bytes each, little endian) holding "RLV2", the dimension d (uint32, little endian),
// d float32 values and a checksum: the first 16 bytes of sha256(h + "\x00" + the bytes before
// it), so a file changed after it was written, or moved to another text's name, is noticed.
//
// A cache cannot lie: a vector file that is malformed, fails its checksum or has another
// dimension than Inner's vectors (a Model's 384) is an error naming the file, never a vector
// and never silently replaced. Files are written to a temporary name (Dir/<key>/.tmp-*) and
// renamed, as each batch of Inner's is computed, so a run that fails or is killed keeps what it
// embedded; the next run that embeds into the folder removes the temporary files a killed run
// left. Processes that share a Dir embed one at a time (an flock(2) on
// Dir/<sha256(Key())[:16]>/.lock, held while the missing vectors are embedded and written): a
// process that waited looks its texts up again first, so two runs of the same corpus at once
// embed it once, not twice.
type Cache struct {
	Inner Embedder
	Dir   string // "" means $RANKLAB_VECTOR_CACHE, else denseDir()/cache (cacheDir)
	// Hits and Misses count the texts found and embedded since the Cache was made.
	Hits, Misses atomic.Int64
}

// cacheDir is where a Cache with no Dir keeps its vectors: $RANKLAB_VECTOR_CACHE when set (make
// test points it at a folder keyed by the hash of this package's code, so its tests and
// notebooks share vectors and never read those older code left), else the cache folder beside
// the installed model, ~/.cache/ranklab/dense/cache.
func cacheDir() string {
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

// EmbedTokens implements Embedder: vectors on disk are read, the others embedded by Inner and
// stored batch by batch (Inner's own batches for a Model; 64 texts a call to EmbedTokens for
// another Embedder). A token list is cached as if it were the text "\x00tokens" followed by
// its IDs (4 bytes each, little endian).
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
		dir = cacheDir()
	}
	key := c.Inner.Key()
	ks := sha256.Sum256([]byte(key))
	dir = filepath.Join(dir, hex.EncodeToString(ks[:8]))
	wantDim := 0
	if d, ok := c.Inner.(interface{ dim() int }); ok {
		wantDim = d.dim()
	}
	out := make([][]float32, len(keys))
	names := make([]string, len(keys))
	var rerr firstError
	lookup := func(i int) {
		if out[i] != nil {
			return
		}
		if names[i] == "" {
			h := sha256.Sum256([]byte(key + "\x00" + keys[i]))
			names[i] = hex.EncodeToString(h[:])
		}
		v, err := readVector(dir, names[i], wantDim)
		rerr.set(err)
		out[i] = v
	}
	parallel(len(keys), lookup)
	if err := rerr.get(); err != nil {
		return nil, fmt.Errorf("embed: cache: %w", err)
	}
	todo := missingOf(keys, out)
	if len(todo) > 0 {
		// Another process may be embedding the same texts into this Dir: wait for it, then
		// look again, so that each vector is embedded once.
		unlock, err := lockDir(dir)
		if err != nil {
			return nil, fmt.Errorf("embed: cache: %w", err)
		}
		defer unlock()
		if err := sweepTemp(dir); err != nil {
			return nil, fmt.Errorf("embed: cache: %w", err)
		}
		parallel(len(keys), lookup)
		if err := rerr.get(); err != nil {
			return nil, fmt.Errorf("embed: cache: %w", err)
		}
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
	vecs := make([][]float32, len(todo))
	store := func(js []int, got [][]float32) error {
		if len(got) != len(js) {
			return fmt.Errorf("embed: %s returned %d vectors for %d texts", key, len(got), len(js))
		}
		for b, j := range js {
			if wantDim > 0 && len(got[b]) != wantDim {
				return fmt.Errorf("embed: %s returned a vector of %d dimensions, want %d", key, len(got[b]), wantDim)
			}
			if err := writeVector(dir, names[todo[j]], got[b]); err != nil {
				return fmt.Errorf("embed: cache: %w", err)
			}
			vecs[j] = got[b]
		}
		return nil
	}
	if e, ok := c.Inner.(eachEmbedder); ok {
		if err := e.embedEach(ts, store); err != nil {
			return nil, err
		}
	} else {
		for start := 0; start < len(ts); start += 64 {
			end := min(start+64, len(ts))
			got, err := c.Inner.EmbedTokens(ts[start:end])
			if err != nil {
				return nil, err
			}
			js := make([]int, end-start)
			for j := range js {
				js[j] = start + j
			}
			if err := store(js, got); err != nil {
				return nil, err
			}
		}
	}
	byKey := make(map[string][]float32, len(todo))
	for j, i := range todo {
		byKey[keys[i]] = vecs[j]
	}
	for i, v := range out {
		if v == nil {
			out[i] = byKey[keys[i]]
		}
	}
	return out, nil
}

// eachEmbedder is an Embedder that hands out each batch's vectors as soon as they are computed
// (a Model): a Cache then writes them batch by batch. each may be called concurrently.
type eachEmbedder interface {
	embedEach(toks [][]int32, each func(idx []int, vecs [][]float32) error) error
}

// firstError keeps the first non-nil error set from several goroutines.
type firstError struct {
	mu  sync.Mutex
	err error
}

func (f *firstError) set(err error) {
	if err != nil {
		f.mu.Lock()
		if f.err == nil {
			f.err = err
		}
		f.mu.Unlock()
	}
}

func (f *firstError) get() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
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

var magic = [4]byte{'R', 'L', 'V', '2'}

// sumLen is the length of a vector file's checksum.
const sumLen = 16

// vectorPath is where the vector named name (its key hash, hex) lives under dir.
func vectorPath(dir, name string) string { return filepath.Join(dir, name[:2], name) }

// readVector reads the vector named name under dir: nil and no error when it is not there; an
// error naming the file when the file is malformed, fails its checksum, or has another
// dimension than wantDim (0: any).
func readVector(dir, name string, wantDim int) ([]float32, error) {
	path := vectorPath(dir, name)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	v, err := decodeVector(data, name)
	if err == nil && wantDim > 0 && len(v) != wantDim {
		err = fmt.Errorf("%d dimensions, the model's vectors have %d", len(v), wantDim)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w (delete the file, or the folder %s, to embed again)", path, err, dir)
	}
	return v, nil
}

// decodeVector parses "RLV2", a uint32 dimension, that many float32 values (finite) and the
// checksum of name and the bytes before it.
func decodeVector(data []byte, name string) ([]float32, error) {
	if len(data) < 8+sumLen || [4]byte(data[:4]) != magic {
		return nil, errors.New("not a vector file (RLV2)")
	}
	dim := binary.LittleEndian.Uint32(data[4:8])
	if dim == 0 || uint64(len(data)-8-sumLen) != 4*uint64(dim) {
		return nil, fmt.Errorf("%d bytes for %d dimensions", len(data), dim)
	}
	body := data[:len(data)-sumLen]
	if sum := checksum(name, body); string(sum[:]) != string(data[len(body):]) {
		return nil, errors.New("checksum mismatch: the file was changed after it was written, or belongs to another text")
	}
	v := make([]float32, dim)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[8+4*i:]))
		if math.IsNaN(float64(v[i])) || math.IsInf(float64(v[i]), 0) {
			return nil, fmt.Errorf("value %d is %v", i, v[i])
		}
	}
	return v, nil
}

// checksum is the first sumLen bytes of sha256(name + "\x00" + body).
func checksum(name string, body []byte) [sumLen]byte {
	h := sha256.New()
	h.Write([]byte(name))
	h.Write([]byte{0})
	h.Write(body)
	return [sumLen]byte(h.Sum(nil))
}

func encodeVector(v []float32, name string) []byte {
	data := make([]byte, 8+4*len(v), 8+4*len(v)+sumLen)
	copy(data, magic[:])
	binary.LittleEndian.PutUint32(data[4:], uint32(len(v)))
	for i, x := range v {
		binary.LittleEndian.PutUint32(data[8+4*i:], math.Float32bits(x))
	}
	sum := checksum(name, data)
	return append(data, sum[:]...)
}

// writeVector writes v as the vector named name under dir, through a temporary file in dir
// (.tmp-*) and a rename.
func writeVector(dir, name string, v []float32) error {
	path := vectorPath(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	if _, err := f.Write(encodeVector(v, name)); err != nil {
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

// sweepTemp removes the temporary files (dir/.tmp-*) a killed run left. Called with dir's lock
// held: every writer holds it, so no such file is being written.
func sweepTemp(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".tmp-") {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}
