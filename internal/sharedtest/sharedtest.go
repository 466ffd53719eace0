// Package sharedtest finds the read-only ../shared folder (trec_eval anchors, real collections)
// that sits beside the module root on developers' machines and in CI.
package sharedtest

import (
	"os"
	"path/filepath"
	"testing"
)

// Path returns ../shared/<elem...> relative to the module root (the folder holding go.mod above
// the test's working directory). It skips the test when that path is absent.
func Path(t testing.TB, elem ...string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("go.mod not found above the test")
		}
		dir = parent
	}
	p := filepath.Join(append([]string{dir, "..", "shared"}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s is absent", p)
	}
	return p
}
