// Package sharedtest holds what the tests of several packages share: the read-only ../shared
// folder (trec_eval anchors, real collections), the Python of the peers' environment, and small
// temporary files (a tree of files, gzipped bytes).
package sharedtest

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/nb"
)

// Path returns ../shared/<elem...> beside the module root (nb.Shared, searching from the test's
// working directory). It skips the test when that path is absent.
func Path(t testing.TB, elem ...string) string {
	t.Helper()
	p, err := nb.Shared(elem...)
	if err != nil {
		t.Skip(err)
	}
	return p
}

// WriteFile writes data to the file name in the folder dir (t.TempDir() when dir is "") and
// returns the file's path. A name may hold folders ("qrels/test.tsv"); they are made. It fails
// the test when the file cannot be written.
func WriteFile[D string | []byte](t testing.TB, dir, name string, data D) string {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// WriteTree writes name → content (WriteFile) into a new temporary folder and returns the folder.
func WriteTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		WriteFile(t, dir, name, content)
	}
	return dir
}

// Gzip returns data compressed as a gzip stream.
func Gzip(data []byte) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data) // a bytes.Buffer does not fail
	zw.Close()
	return b.Bytes()
}

// LineDiff lists the lines in which got and want differ, one "line N: got ..., want ..." each
// (quoted), "" when they are equal.
func LineDiff(got, want string) string {
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	var b strings.Builder
	for i := range max(len(gl), len(wl)) {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			fmt.Fprintf(&b, "line %d: got  %q\n        want %q\n", i+1, g, w)
		}
	}
	return b.String()
}

// Err returns the error of a two-result call: sharedtest.Err(f(x)).
func Err[T any](_ T, err error) error { return err }

// AllLines returns the "all" lines of trec_eval's output text (name, "all", value, separated by
// white space): trec_eval name → value. It fails the test on a value that is not a number.
func AllLines(t testing.TB, text string) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) != 3 || f[1] != "all" {
			continue
		}
		v, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			t.Fatalf("trec_eval output: %q: %v", line, err)
		}
		out[f[0]] = v
	}
	return out
}

// VectorCache points embed's vector cache (RANKLAB_VECTOR_CACHE) at a folder of t's own, unless
// the variable is already set: make test sets it to a folder keyed by the hash of package
// embed's code, so that its tests and notebooks embed each text once and never read vectors
// older code left. It returns the folder.
func VectorCache(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("RANKLAB_VECTOR_CACHE"); d != "" {
		return d
	}
	d := t.TempDir()
	t.Setenv("RANKLAB_VECTOR_CACHE", d)
	return d
}
