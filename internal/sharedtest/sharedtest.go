// Package sharedtest holds what the tests of several packages share: the read-only ../shared
// folder (trec_eval anchors, real collections), the Python of the peers' environment, and small
// temporary files (a tree of files, gzipped bytes).
package sharedtest

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
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

// WriteTree writes name → content into a new temporary folder and returns the folder. A name
// may hold folders ("qrels/test.tsv"); they are made.
func WriteTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
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
