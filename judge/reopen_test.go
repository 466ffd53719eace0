package judge

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/pool"
)

func reopen(t *testing.T, s *judgmentStore, path string) *judgmentStore {
	t.Helper()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return mustOpen(t, path)
}

func mustUndo(t *testing.T, s *judgmentStore) {
	t.Helper()
	if _, ok, err := s.Undo(); err != nil || !ok {
		t.Fatalf("undo: %v %v", ok, err)
	}
}

// TestUndoAfterReopen is defect 3 of issue 33: the log was replayed on top of the qrels file's
// final grades, so after reopening each "grade before" was the final one and undo undid nothing.
// Each judge line now records the grade it replaced.
func TestUndoAfterReopen(t *testing.T) {
	t.Run("judge, reopen, undo", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "j.qrels")
		s := mustOpen(t, path)
		s.Record(pp("1", "a"), 2, 1)
		s = reopen(t, s, path)
		defer s.Close()
		mustUndo(t, s)
		if got := mustRead(t, path); got != "" {
			t.Errorf("after undo the file holds %q, want nothing", got)
		}
	})
	t.Run("re-judge, reopen, two undos", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "j.qrels")
		s := mustOpen(t, path)
		s.Record(pp("1", "a"), 2, 1)
		s.Record(pp("1", "a"), 0, 1)
		s = reopen(t, s, path)
		defer s.Close()
		mustUndo(t, s)
		if got, want := readQrels(t, path), (eval.Qrels{"1": {"a": 2}}); !reflect.DeepEqual(got, want) {
			t.Errorf("after one undo eval reads %v, want %v", got, want)
		}
		mustUndo(t, s)
		if got := mustRead(t, path); got != "" {
			t.Errorf("after two undos the file holds %q, want nothing", got)
		}
		if _, ok, _ := s.Undo(); ok {
			t.Error("a third undo undid something")
		}
	})
	t.Run("another tool's grade, re-judged, reopen, undo", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "j.qrels")
		os.WriteFile(path, []byte("1 0 a 1\n"), 0o644)
		s := mustOpen(t, path)
		s.Record(pp("1", "a"), 3, 1)
		s = reopen(t, s, path)
		defer s.Close()
		mustUndo(t, s)
		if got, want := readQrels(t, path), (eval.Qrels{"1": {"a": 1}}); !reflect.DeepEqual(got, want) {
			t.Errorf("after undo eval reads %v, want the other tool's %v", got, want)
		}
	})
}

// handEdit writes content to path as an editor would, a second after everything before it.
func handEdit(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Second)
	os.Chtimes(path, later, later)
}

// TestHandEditKept is defect 4 of issue 33: a hand edit of the judged qrels (a changed grade, a
// deleted line, a comment) was reverted from the log the next time a panel opened the file.
// Now the file wins when it is newer than the log's last line; the changed pairs are named and
// logged as edits, and later rewrites keep the comment.
func TestHandEditKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.qrels")
	s := mustOpen(t, path)
	for i, d := range []string{"a", "b", "c"} {
		if err := s.Record(pp("1", d), 2-i, 1); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	edited := "# checked by hand\n1 0 a 1\n1 0 c 0\n"
	handEdit(t, path, edited)
	s = mustOpen(t, path)
	defer s.Close()
	if got := mustRead(t, path); got != edited {
		t.Errorf("opening rewrote the edited file:\n%s", got)
	}
	msg := strings.Join(s.Repaired, "\n")
	for _, want := range []string{"changed since the panel last wrote it", "1 a 2→1", "1 b 1→none"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the notice lacks %q: %s", want, msg)
		}
	}
	if err := s.Record(pp("1", "d"), 3, 1); err != nil {
		t.Fatal(err)
	}
	want := "# checked by hand\n1 0 a 1\n1 0 c 0\n1 0 d 3\n"
	if got := mustRead(t, path); got != want {
		t.Errorf("after a judgment the file is\n%s\nwant\n%s", got, want)
	}
	// Undo stops at the edits: d, then c (judged, untouched by the edit), then nothing.
	mustUndo(t, s)
	mustUndo(t, s)
	if _, ok, _ := s.Undo(); ok {
		t.Error("undo went past a hand edit")
	}
	if got, want := readQrels(t, path), (eval.Qrels{"1": {"a": 1}}); !reflect.DeepEqual(got, want) {
		t.Errorf("eval reads %v, want %v", got, want)
	}
	// The log says so too: a fresh open agrees with the file, repairing nothing.
	s2, err := openStoreReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(s2.Repaired) != 0 || !reflect.DeepEqual(s2.Qrels(), eval.Qrels{"1": {"a": 1}}) {
		t.Errorf("read again: %v, repaired %q", s2.Qrels(), s2.Repaired)
	}
}

// A hand edit that puts back exactly the grades before the last judgment is still an edit (the
// file is newer than the line), not the crash window.
func TestHandRevertOfLastJudgment(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.qrels")
	s := mustOpen(t, path)
	s.Record(pp("1", "a"), 2, 1)
	s.Record(pp("1", "b"), 1, 1)
	s.Close()
	handEdit(t, path, "1 0 a 2\n")
	s = mustOpen(t, path)
	defer s.Close()
	if got := mustRead(t, path); got != "1 0 a 2\n" {
		t.Errorf("the reverted judgment came back:\n%s", got)
	}
}

// An edit made while the panel runs is taken in before the next key is written.
func TestHandEditWhileOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.qrels")
	s := mustOpen(t, path)
	defer s.Close()
	s.Record(pp("1", "a"), 2, 1)
	handEdit(t, path, "1 0 a 0 \n# a note\n")
	if err := s.Record(pp("1", "b"), 3, 1); err != nil {
		t.Fatal(err)
	}
	if got, want := mustRead(t, path), "1 0 a 0 \n# a note\n1 0 b 3\n"; got != want {
		t.Errorf("file\n%q\nwant\n%q", got, want)
	}
	if msg := strings.Join(s.Repaired, "\n"); !strings.Contains(msg, "while the panel ran") || !strings.Contains(msg, "1 a 2→0") {
		t.Errorf("notice %q", msg)
	}
}

// TestSymlinkOnePanel is defect 5 of issue 33: the lock was per name, so a second panel
// through a symbolic link was not refused, and its rename replaced the link with a private copy
// (two files, two logs). The store now works on the real path.
func TestSymlinkOnePanel(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "j.qrels")
	link := filepath.Join(dir, "link.qrels")
	os.WriteFile(real, nil, 0o644)
	if err := os.Symlink("j.qrels", link); err != nil {
		t.Fatal(err)
	}
	s := mustOpen(t, link)
	if _, err := openStore(real, "bob"); !errors.Is(err, errLocked) {
		t.Fatalf("a second panel on the link's target: %v, want refused", err)
	}
	if err := s.Record(pp("1", "a"), 2, 1); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link became %v", st.Mode())
	}
	if got := mustRead(t, real); got != "1 0 a 2\n" {
		t.Errorf("the real file holds %q", got)
	}
	if _, err := os.Stat(link + ".log"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a second log beside the link: %v", err)
	}
	s2 := mustOpen(t, real)
	defer s2.Close()
	if g, ok := s2.Grade(pp("1", "a")); !ok || g != 2 {
		t.Errorf("through the real name: %d %v", g, ok)
	}
}

// TestJudgmentFilesUmask is defect 21 of issue 33: the judgments file was created 0600 while
// every other output honours the umask.
func TestJudgmentFilesUmask(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "j.qrels")
	s := mustOpen(t, path)
	s.Record(pp("1", "a"), 2, 1)
	s.Close()
	for _, p := range []string{path, path + ".log"} {
		if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o644 {
			t.Errorf("%s under umask 022: %v, want -rw-r--r--", filepath.Base(p), st.Mode())
		}
	}
}

// FuzzQrelsFileRender: what readQrelsFile reads, render writes back so that it reads the same,
// byte for byte when nothing changed (lines ending in "\n", no carriage return).
func FuzzQrelsFileRender(f *testing.F) {
	f.Add("# note\n1 0 a 2\n\n1 0 b 0\n")
	f.Add("\ufeff1 0 a 1\r\n2\t0 b  3 \n")
	f.Add("1 0 a x\n")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data string) {
		path := filepath.Join(dir, "q")
		os.WriteFile(path, []byte(data), 0o644)
		file, err := readQrelsFile(path)
		if err != nil {
			return
		}
		out, _ := render(file.lines, file.grades)
		if !strings.Contains(data, "\r") && strings.HasSuffix(data, "\n") && string(out) != data {
			t.Fatalf("unchanged file rendered as %q, was %q", out, data)
		}
		os.WriteFile(path, out, 0o644)
		again, err := readQrelsFile(path)
		if err != nil || !reflect.DeepEqual(again.grades, file.grades) {
			t.Fatalf("rendered file reads %v (%v), want %v", again.grades, err, file.grades)
		}
	})
}

// TestCorpusFileGzipByMagic is defect 15 of issue 33: the panel's corpus file was gunzipped by
// its .gz suffix: a gzip without the suffix read as text ("carriage return inside the line"), a
// zero-padded .gz failed. It is read through internal/scan now, as every reader.
func TestCorpusFileGzipByMagic(t *testing.T) {
	corpus := `{"_id": "d1", "title": "T", "text": "a text"}` + "\n"
	queries := `{"_id": "q1", "text": "a query"}` + "\n"
	gz := func(s string) []byte {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(s))
		w.Close()
		return b.Bytes()
	}
	dir := t.TempDir()
	for name, data := range map[string][]byte{
		"corpus.jsonl": gz(corpus), "padded.jsonl.gz": append(gz(corpus), make([]byte, 100)...), "plain.jsonl": []byte(corpus),
	} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, data, 0o644)
		qpath := filepath.Join(dir, "q-"+name)
		os.WriteFile(qpath, gz(queries), 0o644)
		tx, err := loadTexts([]pool.Pair{pp("q1", "d1")}, path, qpath)
		if err != nil || tx.Docs["d1"].Text != "a text" || tx.Queries["q1"] != "a query" {
			t.Errorf("%s: %v %+v", name, err, tx)
		}
	}
}
