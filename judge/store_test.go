package judge

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/pool"
)

func pp(q, d string) pool.Pair { return pool.Pair{Query: q, Doc: d} }

func mustOpen(t *testing.T, path string) *judgmentStore {
	t.Helper()
	s, err := openStore(path, "ann")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// readQrels reads the judgments file the way every tool does.
func readQrels(t *testing.T, path string) eval.Qrels {
	t.Helper()
	q, err := eval.ReadQrelsFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func TestRecordUndoRejudgeReadByEval(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.qrels")
	s := mustOpen(t, path)
	defer s.Close()
	steps := []func() error{
		func() error { return s.Record(pp("1", "a"), 2, 3.5) },
		func() error { return s.Record(pp("1", "b"), 0, 2) },
		func() error { return s.Record(pp("1", "a"), 3, 1) }, // re-judge: the later grade wins
		func() error { _, _, err := s.Undo(); return err },   // back to 2
		func() error { _, _, err := s.Undo(); return err },   // 1 b gone
		func() error { return s.Record(pp("2", "c"), 1, 4) },
	}
	for i, f := range steps {
		if err := f(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	want := eval.Qrels{"1": {"a": 2}, "2": {"c": 1}}
	if got := readQrels(t, path); !reflect.DeepEqual(got, want) {
		t.Fatalf("eval reads %v, want %v", got, want)
	}
	data, _ := os.ReadFile(path)
	if string(data) != "1 0 a 2\n2 0 c 1\n" {
		t.Fatalf("qrels file %q", data)
	}
	es, err := readLog(strings.NewReader(mustRead(t, path+".log")), "log")
	if err != nil {
		t.Fatal(err)
	}
	var acts []string
	for _, e := range es {
		g := fmt.Sprint(e.Grade)
		if e.Grade == noGrade {
			g = "-"
		}
		acts = append(acts, e.Action+" "+e.Pair.Query+" "+e.Pair.Doc+" "+g)
	}
	wantActs := []string{"judge 1 a 2", "judge 1 b 0", "judge 1 a 3", "undo 1 a 2", "undo 1 b -", "judge 2 c 1"}
	if !reflect.DeepEqual(acts, wantActs) {
		t.Fatalf("log %q, want %q", acts, wantActs)
	}
	if es[0].Seconds != 3.5 || es[0].Judge != "ann" {
		t.Fatalf("first entry %+v", es[0])
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSecondPanelRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.qrels")
	s := mustOpen(t, path)
	_, err := openStore(path, "bob")
	if !errors.Is(err, errLocked) || !strings.Contains(err.Error(), fmt.Sprint(os.Getpid())) {
		t.Fatalf("second Open: %v, want ErrLocked naming pid %d", err, os.Getpid())
	}
	s.Close()
	if _, err := os.Stat(path + ".lock"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("lock file left after Close: %v", err)
	}
	s2 := mustOpen(t, path)
	s2.Close()
}

// The crash test: a child process records judgments and kills itself with SIGKILL (no Close,
// no deferred code, the lock file left behind). A new store then finds every judgment, in the
// qrels file (read by eval) and in the log, and takes over the stale lock.
func TestCrashChild(t *testing.T) {
	path := os.Getenv("JUDGE_CRASH_PATH")
	if path == "" {
		t.Skip("run by TestKilledProcessLosesNothing and TestSecondProcessRefused")
	}
	s, err := openStore(path, "child")
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(2)
	}
	if os.Getenv("JUDGE_HOLD") != "" { // hold the lock until stdin closes
		fmt.Println("ready")
		io.Copy(io.Discard, os.Stdin)
		s.Close()
		os.Exit(0)
	}
	for i := 0; i < 5; i++ {
		if err := s.Record(pp("q", fmt.Sprintf("d%d", i)), i%4, 1); err != nil {
			fmt.Println("record:", err)
			os.Exit(2)
		}
	}
	syscall.Kill(os.Getpid(), syscall.SIGKILL)
}

func TestKilledProcessLosesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.qrels")
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$")
	cmd.Env = append(os.Environ(), "JUDGE_CRASH_PATH="+path)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ProcessState.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("child: %v %s, want killed by SIGKILL", err, out)
	}
	if _, err := os.Stat(path + ".lock"); err != nil {
		t.Fatalf("the killed child should leave its lock file: %v", err)
	}
	want := eval.Qrels{"q": {"d0": 0, "d1": 1, "d2": 2, "d3": 3, "d4": 0}}
	if got := readQrels(t, path); !reflect.DeepEqual(got, want) {
		t.Fatalf("after the kill eval reads %v, want %v", got, want)
	}
	s := mustOpen(t, path)
	defer s.Close()
	if s.StaleLock != cmd.Process.Pid {
		t.Fatalf("StaleLock = %d, want the dead child's pid %d", s.StaleLock, cmd.Process.Pid)
	}
	if len(s.Entries()) != 5 || len(s.Repaired) != 0 {
		t.Fatalf("entries %d, repaired %q", len(s.Entries()), s.Repaired)
	}
	// The pool resumes after the five judged pairs.
	pairs := []pool.Pair{pp("q", "d0"), pp("q", "d1"), pp("q", "d2"), pp("q", "d3"), pp("q", "d4"), pp("q", "d5")}
	ss := newSession(pairs, s)
	if p, _ := ss.Current(); p != pp("q", "d5") {
		t.Fatalf("resumes at %v, want q d5", p)
	}
	// The static view (no front-end) says so too, naming the dead panel's process.
	h := staticHTML("id", ss, docTexts{}, "static", "no-frontend")
	if want := fmt.Sprintf("took over the lock of process %d,", cmd.Process.Pid); !strings.Contains(h, want) {
		t.Errorf("the static view after a kill lacks %q: %s", want, h)
	}
}

// A crash between the log's fsync and the qrels rename: the log is the truth and the qrels file
// is rewritten on Open. A torn last log line (power loss mid-append) is dropped.
func TestRepairFromLog(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "j.qrels")
	log := logHeader +
		"2026-01-02T03:04:05Z\tann\tjudge\t1\ta\t2\t1.000\n" +
		"2026-01-02T03:04:06Z\tann\tjudge\t1\tb\t1\t1.000\n" +
		"2026-01-02T03:04:07Z\tann\tjud"
	os.WriteFile(path+".log", []byte(log), 0o644)
	os.WriteFile(path, []byte("1 0 a 2\n"), 0o644) // the second judgment's rewrite never happened
	// ... so the file is older than the second judgment's line (written after the first one's).
	older := time.Date(2026, 1, 2, 3, 4, 5, 500, time.UTC)
	os.Chtimes(path, older, older)
	s := mustOpen(t, path)
	if len(s.Repaired) != 2 {
		t.Fatalf("repaired %q, want the torn line and the qrels rewrite", s.Repaired)
	}
	if err := s.Record(pp("1", "c"), 0, 2); err != nil {
		t.Fatal(err)
	}
	s.Close()
	want := eval.Qrels{"1": {"a": 2, "b": 1, "c": 0}}
	if got := readQrels(t, path); !reflect.DeepEqual(got, want) {
		t.Fatalf("eval reads %v, want %v", got, want)
	}
	if _, err := readLog(strings.NewReader(mustRead(t, path+".log")), "log"); err != nil {
		t.Fatalf("the log after the repair: %v", err)
	}
}

// Judgments that are in the qrels file but not the log (made by another tool) are kept.
func TestExistingQrelsKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.qrels")
	os.WriteFile(path, []byte("7 0 x 1\n"), 0o644)
	s := mustOpen(t, path)
	if err := s.Record(pp("7", "y"), 3, 1); err != nil {
		t.Fatal(err)
	}
	s.Close()
	want := eval.Qrels{"7": {"x": 1, "y": 3}}
	if got := readQrels(t, path); !reflect.DeepEqual(got, want) {
		t.Fatalf("eval reads %v, want %v", got, want)
	}
}

func TestRecordRefuses(t *testing.T) {
	s := mustOpen(t, filepath.Join(t.TempDir(), "j.qrels"))
	defer s.Close()
	for _, c := range []struct {
		p pool.Pair
		g int
	}{{pp("1", "a"), 4}, {pp("1", "a"), -1}, {pp("1", "a b"), 1}, {pp("", "a"), 1}} {
		if err := s.Record(c.p, c.g, 0); err == nil {
			t.Errorf("Record(%v, %d) accepted", c.p, c.g)
		}
	}
	if _, err := openStore(filepath.Join(t.TempDir(), "k"), "a\tb"); err == nil {
		t.Error("a judge name with a tab accepted")
	}
}

func FuzzReadLog(f *testing.F) {
	f.Add(logHeader + "2026-01-02T03:04:05Z\tann\tjudge\t1\ta\t2\t1.000\n")
	f.Add("2026-01-02T03:04:05Z\tann\tundo\t1\ta\t-\t0.000\n")
	f.Add("x\ty\n")
	f.Add("2026-01-02T03:04:05Z\tann\tjudge\t1\ta\t2\t1.000\t-\n2026-01-02T03:04:06Z\t-\tedit\t1\ta\t-\t0.000\t2\n")
	f.Fuzz(func(t *testing.T, s string) {
		es, err := readLog(strings.NewReader(s), "f")
		if err != nil {
			return
		}
		// What reads must write back to lines that read the same.
		var b strings.Builder
		for _, e := range es {
			b.WriteString(formatEntry(e))
		}
		es2, err := readLog(strings.NewReader(b.String()), "g")
		if err != nil || len(es2) != len(es) {
			t.Fatalf("round trip: %v (%d vs %d)", err, len(es2), len(es))
		}
		for i := range es {
			if es[i].Pair != es2[i].Pair || es[i].Grade != es2[i].Grade || es[i].Action != es2[i].Action || es[i].Prev != es2[i].Prev {
				t.Fatalf("entry %d: %+v vs %+v", i, es[i], es2[i])
			}
		}
	})
}

// The static view reads without the lock and writes nothing, even beside a running panel.
func TestReadOnly(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "j.qrels")
	s := mustOpen(t, path)
	defer s.Close()
	s.Record(pp("1", "a"), 2, 1)
	s.Record(pp("1", "b"), 1, 1)
	s.Undo()
	// a torn line the writer has not finished
	f, _ := os.OpenFile(path+".log", os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("2026-01-02T03:04:05Z\tann\tjud")
	f.Close()
	before, _ := os.ReadFile(path + ".log")
	r, err := openStoreReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	if g, ok := r.Grade(pp("1", "a")); !ok || g != 2 {
		t.Fatalf("read-only grade %d %v", g, ok)
	}
	if _, ok := r.Grade(pp("1", "b")); ok {
		t.Fatal("the undone grade is back")
	}
	if err := r.Record(pp("1", "c"), 1, 0); err == nil {
		t.Fatal("Record on a read-only store")
	}
	after, _ := os.ReadFile(path + ".log")
	if string(before) != string(after) {
		t.Fatal("the read-only open changed the log")
	}
	if r2, err := openStoreReadOnly(filepath.Join(dir, "none.qrels")); err != nil || len(r2.Entries()) != 0 {
		t.Fatalf("a missing file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "none.qrels.log")); err == nil {
		t.Fatal("the read-only open created a log")
	}
}

// A panel in another process (another kernel, another notebook) holds the file: Open refuses,
// naming that process; once it closes, Open succeeds.
func TestSecondProcessRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.qrels")
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$")
	cmd.Env = append(os.Environ(), "JUDGE_CRASH_PATH="+path, "JUDGE_HOLD=1")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, _ := bufio.NewReader(stdout).ReadString('\n'); line != "ready\n" {
		t.Fatalf("child: %q", line)
	}
	_, err := openStore(path, "ann")
	if !errors.Is(err, errLocked) || !strings.Contains(err.Error(), fmt.Sprintf("process %d", cmd.Process.Pid)) {
		t.Fatalf("Open beside a running panel: %v, want ErrLocked naming process %d", err, cmd.Process.Pid)
	}
	stdin.Close()
	cmd.Wait()
	s := mustOpen(t, path)
	if s.StaleLock != 0 {
		t.Fatalf("a cleanly closed panel left a stale lock (%d)", s.StaleLock)
	}
	s.Close()
}

func TestLoadTextsSciFact(t *testing.T) {
	dir := filepath.Join(filepath.Dir(cranfield(t)), "scifact")
	tx, err := loadTexts([]pool.Pair{pp("1", "31715818")}, dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if d := tx.Docs["31715818"]; d.Title == "" || d.Text == "" || tx.Queries["1"] == "" {
		t.Fatalf("SciFact texts: %+v %q", d, tx.Queries["1"])
	}
}
