package embed

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFindManifestMissing(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("RANKLAB_DENSE_DIR", dir)
	_, err := findManifest()
	if !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), "make lab") || !strings.Contains(err.Error(), "RANKLAB_DENSE_DIR") {
		t.Errorf("no manifest: %v; want ErrNotInstalled naming `make lab` and RANKLAB_DENSE_DIR", err)
	}
	// a manifest naming a runtime that is gone
	m := `{"model_dir": "` + dir + `", "runtime": "` + filepath.Join(dir, "libonnxruntime.so") + `"}`
	if err := os.WriteFile(filepath.Join(dir, "dense.json"), []byte(m), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err = findManifest(); !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), "libonnxruntime.so") {
		t.Errorf("runtime missing: %v; want ErrNotInstalled naming the file", err)
	}
	if _, err := Open(Options{}); !errors.Is(err, ErrNotInstalled) {
		t.Errorf("Open without the model: %v, want ErrNotInstalled", err)
	}
}
