package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
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

// TestModes is defect 21 of issue 33: a new file honours the umask (as "> file" does), an
// existing one keeps its bits; nothing is left 0600 by the temporary file.
func TestModes(t *testing.T) {
	dir := t.TempDir()
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	path := filepath.Join(dir, "new.txt")
	if err := WriteFile(path, []byte("x\n")); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
		t.Errorf("a new file under umask 027: %v, want -rw-r-----", st.Mode())
	}
	os.Chmod(path, 0o604)
	if err := WriteFile(path, []byte("y\n")); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o604 {
		t.Errorf("a replaced file: %v, want its own -rw----r--", st.Mode())
	}
}

// TestSpecialPaths is defect 9 of issue 33: a symbolic link stays a link (its target is
// written), a named pipe and a device are written in place and stay what they are.
func TestSpecialPaths(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "sub", "real.txt")
	os.Mkdir(filepath.Dir(target), 0o755)
	os.WriteFile(target, []byte("old\n"), 0o600)
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(filepath.Join("sub", "real.txt"), link); err != nil {
		t.Fatal(err)
	}
	link2 := filepath.Join(dir, "link2.txt") // a link to the link
	os.Symlink("link.txt", link2)
	if err := WriteFile(link2, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("%s is no longer a symbolic link: %v", link, st.Mode())
	}
	if st, err := os.Lstat(link2); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("%s is no longer a symbolic link: %v", link2, st.Mode())
	}
	if b, _ := os.ReadFile(target); string(b) != "new\n" {
		t.Errorf("the link's target holds %q", b)
	}
	if st, _ := os.Stat(target); st.Mode().Perm() != 0o600 {
		t.Errorf("the target's mode %v, want its own 0600", st.Mode())
	}
	// A link to a file not yet there: the file is made where the link points.
	dangling := filepath.Join(dir, "dangling.txt")
	os.Symlink("made.txt", dangling)
	if err := WriteFile(dangling, []byte("m\n")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "made.txt")); string(b) != "m\n" {
		t.Errorf("through a dangling link: %q", b)
	}
	if a, b := mustReal(t, link2), mustReal(t, target); a != b {
		t.Errorf("RealPath: %s and %s", a, b)
	}

	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan string)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	if err := WriteFile(fifo, []byte("through the pipe\n")); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through the pipe\n" {
		t.Errorf("the pipe's reader got %q", s)
	}
	if st, _ := os.Lstat(fifo); st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the named pipe became %v", st.Mode())
	}
	// A device node of our own (null: major 1, minor 3), so no real device is at stake.
	dev := filepath.Join(dir, "null")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Logf("mknod (needs root): %v; the device case is /dev/full's in TestWriteLeavesNoPart", err)
		return
	}
	if err := WriteFile(dev, []byte("gone\n")); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Lstat(dev); st.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("the device became %v", st.Mode())
	}
}

func mustReal(t *testing.T, p string) string {
	t.Helper()
	r, err := RealPath(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
