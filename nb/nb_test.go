package nb

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMust(t *testing.T) {
	if got := Must(42, nil); got != 42 {
		t.Errorf("Must(42, nil) = %d", got)
	}
	bad := errors.New("file.txt:3: bad line")
	defer func() {
		if r := recover(); r != bad {
			t.Errorf("panic %v, want the error itself", r)
		}
	}()
	Must(0, bad)
	t.Error("Must did not panic")
}

func TestShared(t *testing.T) {
	// A repository with ../shared/anchors beside it, and a notebook folder inside it.
	top := t.TempDir()
	repo := filepath.Join(top, "ranklab")
	for _, d := range []string{filepath.Join(repo, "notebooks"), filepath.Join(top, "shared", "anchors")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GONB_DIR", filepath.Join(repo, "notebooks"))
	got, err := Shared("anchors")
	if err != nil || got != filepath.Join(top, "shared", "anchors") {
		t.Errorf("Shared(anchors) = %q, %v", got, err)
	}
	if _, err := Shared("data", "scifact"); err == nil || !strings.Contains(err.Error(), filepath.Join(top, "shared", "data", "scifact")+" is not here") {
		t.Errorf("missing folder: err = %v", err)
	}
	t.Setenv("GONB_DIR", top) // no go.mod at or above
	if _, err := Shared(); err == nil || !strings.Contains(err.Error(), "no go.mod") {
		t.Errorf("no repository: err = %v", err)
	}
}

func TestCache(t *testing.T) {
	calls := 0
	slow := func() (map[string]float64, error) {
		calls++
		return map[string]float64{"nDCG@10": 0.6787}, nil
	}
	t.Setenv("GONB_TMP_DIR", "")
	Cache("k", slow)
	Cache("k", slow)
	if calls != 2 {
		t.Errorf("outside a notebook fn ran %d times, want every time (2)", calls)
	}
	t.Setenv("GONB_TMP_DIR", t.TempDir())
	calls = 0
	a := Cache("k", slow)
	b := Cache("k", slow)
	if calls != 1 || fmt.Sprint(a) != fmt.Sprint(b) || b["nDCG@10"] != 0.6787 {
		t.Errorf("in a kernel: %d calls, %v then %v", calls, a, b)
	}
	defer func() {
		if r := recover(); fmt.Sprint(r) != "no data" {
			t.Errorf("panic %v", r)
		}
	}()
	Cache("failing", func() (int, error) { return 0, errors.New("no data") })
}
