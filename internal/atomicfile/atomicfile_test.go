package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteLeavesNoPart is defect 7 of issue 23: a write that fails half-way leaves the path as
// it was (absent, or its old content) and no temporary file; one that succeeds replaces it whole.
func TestWriteLeavesNoPart(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.run")
	fail := errors.New("disk full")
	half := func(w io.Writer) error {
		io.WriteString(w, strings.Repeat("q1 Q0 d 1 1 t\n", 10000)) // 140,000 bytes, beyond one buffer
		return fail
	}
	if err := Write(path, half); !errors.Is(err, fail) {
		t.Fatalf("err = %v, want the producer's", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("a failed write left %s (%v)", path, err)
	}
	if err := WriteFile(path, []byte("old\n")); err != nil {
		t.Fatal(err)
	}
	if Write(path, half) == nil {
		t.Fatal("no error")
	}
	if b, _ := os.ReadFile(path); string(b) != "old\n" {
		t.Errorf("a failed write changed the old content to %.20q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left in the folder: %v", entries)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode())
	}
	// A device is written in place, never renamed over: /dev/full refuses the write (Linux) and
	// stays a device.
	if st, err := os.Stat("/dev/full"); err == nil && st.Mode()&os.ModeDevice != 0 {
		if err := Write("/dev/full", func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }); err == nil {
			t.Error("writing to /dev/full: want an error")
		}
		if st, err := os.Stat("/dev/full"); err != nil || st.Mode()&os.ModeDevice == 0 {
			t.Fatalf("/dev/full is no longer a device: %v %v", st.Mode(), err)
		}
	}
}
