package retrieval

import (
	"os"
	"path/filepath"
	"testing"
)

// sharedData returns ../shared/data/<name> relative to the module root, skipping the test
// when it is absent.
func sharedData(t testing.TB, name string) string {
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
			t.Skip("go.mod not found")
		}
		dir = parent
	}
	p := filepath.Join(dir, "..", "shared", "data", name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s absent: %v", p, err)
	}
	return p
}
