package embed

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// vectorFiles returns the vector files under a Cache's Dir.
func vectorFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*", "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// dimEmbedder is a countingEmbedder that declares its vectors' dimension, as a Model does.
type dimEmbedder struct {
	countingEmbedder
	d int
}

func (e *dimEmbedder) dim() int { return e.d }

// TestCacheRejectsAlteredVectors is issue 33 item 1: a vector file changed after it was written
// (its floats shuffled, still finite and of unit length) or replaced by a well-formed vector of
// another dimension than the model's must be an error naming the file, not a vector read back
// and not silently embedded again.
func TestCacheRejectsAlteredVectors(t *testing.T) {
	texts := []string{"a", "b b"}
	t.Run("floats shuffled", func(t *testing.T) {
		dir := t.TempDir()
		inner := &countingEmbedder{key: "toy/v1"}
		if _, err := (&Cache{Inner: inner, Dir: dir}).Embed(texts); err != nil {
			t.Fatal(err)
		}
		for _, f := range vectorFiles(t, dir) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			// the two float32 values (bytes 8..16) swap places
			swapped := slices.Concat(data[:8], data[12:16], data[8:12], data[16:])
			if err := os.WriteFile(f, swapped, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		inner.calls = nil
		got, err := (&Cache{Inner: inner, Dir: dir}).Embed(texts)
		if err == nil || !strings.Contains(err.Error(), dir) {
			t.Fatalf("shuffled vectors: got %v, error %v; want an error naming the file", got, err)
		}
		if len(inner.calls) != 0 {
			t.Errorf("embedded %q again instead of saying the file changed", inner.calls)
		}
	})
	t.Run("another dimension", func(t *testing.T) {
		dir := t.TempDir()
		inner := &dimEmbedder{countingEmbedder{key: "toy/v1"}, 2}
		c := &Cache{Inner: inner, Dir: dir}
		if _, err := c.Embed(texts); err != nil {
			t.Fatal(err)
		}
		// every file a well-formed vector of 3 dimensions (checksum and all)
		for _, f := range vectorFiles(t, dir) {
			if err := writeVector(filepath.Dir(filepath.Dir(f)), filepath.Base(f), []float32{0.6, 0.8, 0}); err != nil {
				t.Fatal(err)
			}
		}
		got, err := (&Cache{Inner: inner, Dir: dir}).Embed(texts)
		if err == nil || !strings.Contains(err.Error(), "3 dimensions, the model's vectors have 2") {
			t.Fatalf("3-dimension vectors for a 2-dimension model: got %v, error %v", got, err)
		}
	})
	t.Run("moved to another text's name", func(t *testing.T) {
		dir := t.TempDir()
		inner := &countingEmbedder{key: "toy/v1"}
		if _, err := (&Cache{Inner: inner, Dir: dir}).Embed(texts); err != nil {
			t.Fatal(err)
		}
		files := vectorFiles(t, dir)
		a, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(files[1], a, 0o644); err != nil {
			t.Fatal(err)
		}
		if got, err := (&Cache{Inner: inner, Dir: dir}).Embed(texts); err == nil {
			t.Fatalf("a vector copied over another text's file was read back: %v", got)
		}
	})
}

// failingEmbedder embeds like countingEmbedder, 2 texts a batch, and fails at batch failAt (0
// based), in both of the ways a Cache may call it; with progress set, it appends a line to that
// file after each batch it computed.
type failingEmbedder struct {
	countingEmbedder
	failAt   int
	progress string
}

var errBatch = errors.New("batch failed")

func (e *failingEmbedder) EmbedTokens(toks [][]int32) ([][]float32, error) {
	var out [][]float32
	err := e.embedEach(toks, func(idx []int, vecs [][]float32) error {
		out = append(out, vecs...)
		return nil
	})
	return out, err
}

func (e *failingEmbedder) embedEach(toks [][]int32, each func(idx []int, vecs [][]float32) error) error {
	for b := 0; b*2 < len(toks); b++ {
		if b == e.failAt {
			return errBatch
		}
		idx := []int{b * 2}
		if b*2+1 < len(toks) {
			idx = append(idx, b*2+1)
		}
		var part [][]int32
		for _, i := range idx {
			part = append(part, toks[i])
		}
		vecs, err := e.countingEmbedder.EmbedTokens(part)
		if err != nil {
			return err
		}
		if err := each(idx, vecs); err != nil {
			return err
		}
		if e.progress != "" {
			f, err := os.OpenFile(e.progress, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				return err
			}
			fmt.Fprintln(f, b)
			f.Close()
		}
	}
	return nil
}

// TestCacheKeepsBatchesOfFailedRun is issue 33 item 19: a run that fails after some batches
// keeps their vectors, so the next run embeds only the rest.
func TestCacheKeepsBatchesOfFailedRun(t *testing.T) {
	dir := t.TempDir()
	texts := []string{"a", "b", "a b", "b a", "a a", "b b"}
	bad := &failingEmbedder{countingEmbedder: countingEmbedder{key: "toy/v1"}, failAt: 2}
	if _, err := (&Cache{Inner: bad, Dir: dir}).Embed(texts); !errors.Is(err, errBatch) {
		t.Fatalf("error %v, want the third batch's", err)
	}
	if n := len(vectorFiles(t, dir)); n != 4 {
		t.Errorf("%d vectors kept after two of three batches, want 4", n)
	}
	good := &countingEmbedder{key: "toy/v1"}
	if _, err := (&Cache{Inner: good, Dir: dir}).Embed(texts); err != nil {
		t.Fatal(err)
	}
	if len(good.calls) != 2 {
		t.Errorf("the second run embedded %q, want only the 2 texts the failed batch held", good.calls)
	}
}

// TestCacheSweepsTempFiles is issue 33 item 19: the temporary files a run killed with -9 leaves
// are removed by the next run that embeds into the folder.
func TestCacheSweepsTempFiles(t *testing.T) {
	dir := t.TempDir()
	inner := &countingEmbedder{key: "toy/v1"}
	if _, err := (&Cache{Inner: inner, Dir: dir}).Embed([]string{"a"}); err != nil {
		t.Fatal(err)
	}
	keyDir := filepath.Dir(filepath.Dir(vectorFiles(t, dir)[0]))
	left := filepath.Join(keyDir, ".tmp-123456")
	if err := os.WriteFile(left, []byte("RLV2\x05"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := (&Cache{Inner: inner, Dir: dir}).Embed([]string{"b"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(left); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s is still there after the next run (%v)", left, err)
	}
}

// TestCacheKillKeepsVectors runs an embedding in a child process (this test binary), kills it
// with SIGKILL once it has computed 5 of its 20 batches, and wants at least 4 batches' vectors
// on disk, read back by the next run, which embeds only the rest and leaves no temporary file.
func TestCacheKillKeepsVectors(t *testing.T) {
	if os.Getenv("EMBED_KILL_CHILD") != "" {
		return
	}
	dir, progress := t.TempDir(), filepath.Join(t.TempDir(), "progress")
	cmd := exec.Command(os.Args[0], "-test.run=^TestCacheKillChild$")
	cmd.Env = append(os.Environ(), "EMBED_KILL_CHILD="+dir, "EMBED_KILL_PROGRESS="+progress)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if data, _ := os.ReadFile(progress); strings.Count(string(data), "\n") >= 5 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	kept := len(vectorFiles(t, dir))
	if kept < 8 || kept >= len(killTexts) {
		t.Fatalf("%d of %d vectors on disk when the child was killed after 5 batches of 2; want at least 8 and not all", kept, len(killTexts))
	}
	inner := &countingEmbedder{key: "toy/v1"}
	if _, err := (&Cache{Inner: inner, Dir: dir}).Embed(killTexts); err != nil {
		t.Fatal(err)
	}
	if len(inner.calls) != len(killTexts)-kept {
		t.Errorf("after the kill %d vectors were kept, and the next run embedded %d texts; want %d", kept, len(inner.calls), len(killTexts)-kept)
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, "*", ".tmp-*")); len(tmp) != 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}

// killTexts are 40 texts of the toy vocabulary with distinct tokens (two words each).
var killTexts = func() []string {
	words := []string{"a", "b", ",", ".", "$", "世", "界", "cafe", "naive", "σ"}
	var out []string
	for n := range 40 {
		out = append(out, words[n%10]+" "+words[n/10])
	}
	return out
}()

// TestCacheKillChild is the child of TestCacheKillKeepsVectors: it embeds killTexts 2 a batch,
// 100 ms a batch, until it is killed.
func TestCacheKillChild(t *testing.T) {
	dir := os.Getenv("EMBED_KILL_CHILD")
	if dir == "" {
		t.Skip("the child of TestCacheKillKeepsVectors")
	}
	inner := &failingEmbedder{countingEmbedder: countingEmbedder{key: "toy/v1", delay: 100 * time.Millisecond}, failAt: -1, progress: os.Getenv("EMBED_KILL_PROGRESS")}
	_, err := (&Cache{Inner: inner, Dir: dir}).Embed(killTexts)
	fmt.Println("child finished:", err)
}
