package nbcheck

import (
	"path/filepath"
	"testing"
)

// TestNotebooks checks every notebook of the repository: it prints each notebook's positional
// reads (go test -v) and fails on a line-up or on a notebook whose code does not type-check.
func TestNotebooks(t *testing.T) {
	skipShort(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	paths, err := Glob(filepath.Join(root, "notebooks"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no notebooks in %s: %v", root, err)
	}
	nbs, err := Check(root, paths...)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, nb := range nbs {
		name := filepath.Base(nb.Path)
		t.Logf("%-28s %3d positional reads, %d line-ups", name, len(nb.Reads), len(nb.LineUps))
		for _, r := range nb.Reads {
			t.Logf("    %s", r)
		}
		total += len(nb.Reads)
		for _, e := range nb.Errors {
			t.Errorf("%s: does not type-check: %s", name, e)
		}
		for _, l := range nb.LineUps {
			t.Errorf("%s: %s", name, l)
		}
	}
	t.Logf("%-28s %3d positional reads", "total", total)
}

// skipShort skips under -short: the check builds the export data of every package the
// notebooks import (go list -export), which the full pass of scripts/test-all.sh does once.
func skipShort(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the notebook check runs in the full pass")
	}
}
