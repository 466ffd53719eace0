package judge

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/atomicfile"
	"github.com/ranklab/ranklab/pool"
)

// logEntry is one line of the side log: a judgment or the undo of one.
type logEntry struct {
	Time    time.Time
	Judge   string
	Action  string // "judge" or "undo"
	Pair    pool.Pair
	Grade   int     // judge: the grade given; undo: the grade restored (NoGrade: none)
	Seconds float64 // judge: seconds the document was on screen before the grade
}

// noGrade in an undo entry means the pair had no grade before the undone judgment.
const noGrade = -1 << 31

// logHeader starts every side log.
const logHeader = "# ranklab judge log v1: time\tjudge\taction\tquery\tdoc\tgrade\tseconds\n"

// judgmentStore is a judgments file opened for writing: the TREC qrels file (path) that every tool
// reads, its side log (path+".log") and its lock (path+".lock"). See the package doc for the
// durability design.
type judgmentStore struct {
	path, logPath string
	judge         string
	log           *os.File
	lk            *lock
	grades        map[pool.Pair]int
	entries       []logEntry // the side log, in order
	undo          []undoStep
	readOnly      bool
	mu            sync.Mutex // Close may come from the orphan watch while a key is recorded
	// StaleLock is the PID of a dead panel whose lock file Open took over (0: none).
	StaleLock int
	// Repaired tells what Open had to repair: a torn last log line dropped, the qrels file
	// rewritten from the log (a crash between the two writes).
	Repaired []string
}

type undoStep struct {
	pair pool.Pair
	prev int // NoGrade: none
}

// openStore opens (or creates) the judgments file at path for judge (a name without tabs or line
// breaks). It takes the lock, reads the qrels file, replays the side log over it and, when the
// two disagree (a crash between the log append and the qrels rewrite), rewrites the qrels file.
func openStore(path, judge string) (*judgmentStore, error) {
	if judge == "" || strings.ContainsAny(judge, "\t\r\n") {
		return nil, fmt.Errorf("judge: judge name %q: want a non-empty name without tabs or line breaks", judge)
	}
	lk, err := acquire(path + ".lock")
	if err != nil {
		return nil, err
	}
	s := &judgmentStore{path: path, logPath: path + ".log", judge: judge, lk: lk, grades: map[pool.Pair]int{}, StaleLock: lk.Stale}
	if err := s.load(); err != nil {
		lk.release()
		return nil, err
	}
	return s, nil
}

// openStoreReadOnly reads the judgments file at path and its side log without taking the lock or
// writing anything (a torn last log line is ignored, a stale qrels file is not rewritten): what
// the static view shows while a panel may be judging elsewhere. Record and Undo fail on it.
func openStoreReadOnly(path string) (*judgmentStore, error) {
	s := &judgmentStore{path: path, logPath: path + ".log", grades: map[pool.Pair]int{}, readOnly: true}
	if err := s.load(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *judgmentStore) load() error {
	base := map[pool.Pair]int{}
	if _, err := os.Stat(s.path); err == nil {
		pairs, grades, err := pool.ReadFile(s.path)
		if err != nil {
			return err
		}
		for i, p := range pairs {
			base[p] = grades[i]
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	for p, g := range base {
		s.grades[p] = g
	}
	if s.readOnly {
		data, err := os.ReadFile(s.logPath)
		if errors.Is(err, os.ErrNotExist) {
			return nil
		} else if err != nil {
			return err
		}
		entries, err := readLog(bytes.NewReader(data[:bytes.LastIndexByte(data, '\n')+1]), s.logPath)
		if err != nil {
			return err
		}
		for _, e := range entries {
			s.apply(e)
		}
		return nil
	}
	created := false
	f, err := os.OpenFile(s.logPath, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		if f, err = os.OpenFile(s.logPath, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644); err != nil {
			return err
		}
		created = true
	} else if err != nil {
		return err
	}
	s.log = f
	data, err := io.ReadAll(f)
	if err != nil {
		return err
	}
	// A power loss mid-append can leave a torn last line: it was never acknowledged (fsync had
	// not returned), so it is dropped before anything is appended after it.
	if n := bytes.LastIndexByte(data, '\n') + 1; n < len(data) {
		if err := f.Truncate(int64(n)); err != nil {
			return err
		}
		s.Repaired = append(s.Repaired, fmt.Sprintf("%s: dropped a torn last line (%d bytes)", s.logPath, len(data)-n))
		data = data[:n]
	}
	if len(data) == 0 {
		if _, err := f.Write([]byte(logHeader)); err != nil {
			return err
		}
		if err := f.Sync(); err != nil {
			return err
		}
		if created {
			if err := atomicfile.SyncDir(filepath.Dir(s.logPath)); err != nil {
				return err
			}
		}
	} else {
		entries, err := readLog(bytes.NewReader(data), s.logPath)
		if err != nil {
			return err
		}
		for _, e := range entries {
			s.apply(e)
		}
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		return err
	}
	if !equalGrades(base, s.grades) {
		s.Repaired = append(s.Repaired, s.path+": rewritten from the side log")
		return s.writeQrels()
	}
	return nil
}

func equalGrades(a, b map[pool.Pair]int) bool {
	if len(a) != len(b) {
		return false
	}
	for p, g := range a {
		if h, ok := b[p]; !ok || h != g {
			return false
		}
	}
	return true
}

// apply replays one log entry on the grades and the undo stack.
func (s *judgmentStore) apply(e logEntry) {
	switch e.Action {
	case "judge":
		prev, ok := s.grades[e.Pair]
		if !ok {
			prev = noGrade
		}
		s.undo = append(s.undo, undoStep{e.Pair, prev})
		s.grades[e.Pair] = e.Grade
	case "undo":
		if n := len(s.undo); n > 0 {
			s.undo = s.undo[:n-1]
		}
		if e.Grade == noGrade {
			delete(s.grades, e.Pair)
		} else {
			s.grades[e.Pair] = e.Grade
		}
	}
	s.entries = append(s.entries, e)
}

// Grade returns the pair's grade and whether it has one.
func (s *judgmentStore) Grade(p pool.Pair) (int, bool) {
	g, ok := s.grades[p]
	return g, ok && g >= 0
}

// Entries returns the side log's entries in order.
func (s *judgmentStore) Entries() []logEntry { return slices.Clone(s.entries) }

// Path is the qrels file.
func (s *judgmentStore) Path() string { return s.path }

// Record gives p the grade g (0..3), seconds after it was shown, and makes it durable: the
// side log line is appended and fsynced, then the qrels file is rewritten atomically (temp
// file, fsync, rename, fsync of the folder). Only then does Record return.
func (s *judgmentStore) Record(p pool.Pair, g int, seconds float64) error {
	if g < 0 || g > 3 {
		return fmt.Errorf("judge: grade %d: want 0..3", g)
	}
	return s.commit(logEntry{Time: time.Now().UTC(), Judge: s.judge, Action: "judge", Pair: p, Grade: g, Seconds: seconds})
}

// Undo reverts the newest judgment not yet undone (durably, as Record) and returns its pair;
// ok is false when there is nothing to undo.
func (s *judgmentStore) Undo() (p pool.Pair, ok bool, err error) {
	n := len(s.undo)
	if n == 0 {
		return pool.Pair{}, false, nil
	}
	u := s.undo[n-1]
	return u.pair, true, s.commit(logEntry{Time: time.Now().UTC(), Judge: s.judge, Action: "undo", Pair: u.pair, Grade: u.prev})
}

// commit appends e to the side log (fsync), applies it and rewrites the qrels file.
func (s *judgmentStore) commit(e logEntry) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.log == nil {
		return errors.New("judge: the store is closed (or read-only)")
	}
	for _, id := range []string{e.Pair.Query, e.Pair.Doc} {
		if id == "" || strings.ContainsFunc(id, func(r rune) bool { return r <= ' ' }) {
			return fmt.Errorf("judge: ID %q must be one non-empty word", id)
		}
	}
	if _, err := s.log.Write([]byte(formatEntry(e))); err != nil {
		return fmt.Errorf("%s: %w", s.logPath, err)
	}
	if err := s.log.Sync(); err != nil {
		return fmt.Errorf("%s: %w", s.logPath, err)
	}
	s.apply(e)
	return s.writeQrels()
}

// writeQrels writes the grades as TREC qrels "query 0 doc grade" (sorted by query, then doc)
// to a temporary file beside path, fsyncs it, renames it over path and fsyncs the folder.
func (s *judgmentStore) writeQrels() error {
	pairs := make([]pool.Pair, 0, len(s.grades))
	for p := range s.grades {
		pairs = append(pairs, p)
	}
	slices.SortFunc(pairs, func(a, b pool.Pair) int {
		if c := strings.Compare(a.Query, b.Query); c != 0 {
			return c
		}
		return strings.Compare(a.Doc, b.Doc)
	})
	var buf bytes.Buffer
	for _, p := range pairs {
		fmt.Fprintf(&buf, "%s 0 %s %d\n", p.Query, p.Doc, s.grades[p])
	}
	if err := atomicfile.WriteFile(s.path, buf.Bytes()); err != nil {
		return fmt.Errorf("%s: %w", s.path, err)
	}
	return nil
}

// Close closes the side log and releases the lock.
func (s *judgmentStore) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var err error
	if s.log != nil {
		err = s.log.Close()
		s.log = nil
	}
	s.lk.release()
	return err
}

// formatEntry is one side log line: time, judge, action, query, doc, grade ("-" for none),
// seconds, tab-separated.
func formatEntry(e logEntry) string {
	g := "-"
	if e.Grade != noGrade {
		g = strconv.Itoa(e.Grade)
	}
	return fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.Time.UTC().Format(time.RFC3339Nano), e.Judge, e.Action,
		e.Pair.Query, e.Pair.Doc, g, strconv.FormatFloat(e.Seconds, 'f', 3, 64))
}

// readLog reads a side log. Lines starting with "#" and blank lines are skipped; any other line
// must have the 7 tab-separated fields of formatEntry, or it is an error "name:line: ...".
func readLog(r io.Reader, name string) ([]logEntry, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	var out []logEntry
	line := 0
	for sc.Scan() {
		line++
		t := sc.Text()
		if strings.TrimSpace(t) == "" || strings.HasPrefix(t, "#") {
			continue
		}
		e, err := parseEntry(t)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", name, line+1, err)
	}
	return out, nil
}

func parseEntry(t string) (logEntry, error) {
	f := strings.Split(t, "\t")
	if len(f) != 7 {
		return logEntry{}, fmt.Errorf("got %d tab-separated fields, want 7 (time judge action query doc grade seconds)", len(f))
	}
	var e logEntry
	var err error
	if e.Time, err = time.Parse(time.RFC3339Nano, f[0]); err != nil {
		return logEntry{}, fmt.Errorf("time %.40q: %v", f[0], err)
	}
	e.Judge, e.Action = f[1], f[2]
	if e.Action != "judge" && e.Action != "undo" {
		return logEntry{}, fmt.Errorf("action %.40q: want judge or undo", f[2])
	}
	e.Pair = pool.Pair{Query: f[3], Doc: f[4]}
	if e.Pair.Query == "" || e.Pair.Doc == "" || strings.ContainsFunc(f[3]+f[4], func(r rune) bool { return r <= ' ' }) {
		return logEntry{}, fmt.Errorf("query %.40q, doc %.40q: want non-empty IDs without spaces", f[3], f[4])
	}
	if f[5] == "-" && e.Action == "undo" {
		e.Grade = noGrade
	} else if e.Grade, err = strconv.Atoi(f[5]); err != nil || e.Grade < 0 || e.Grade > 3 {
		return logEntry{}, fmt.Errorf("grade %.40q: want 0..3 (or - in an undo)", f[5])
	}
	if e.Seconds, err = strconv.ParseFloat(f[6], 64); err != nil || e.Seconds < 0 {
		return logEntry{}, fmt.Errorf("seconds %.40q: want a non-negative number", f[6])
	}
	return e, nil
}

// Qrels returns the grades as eval.Qrels.
func (s *judgmentStore) Qrels() eval.Qrels {
	q := eval.Qrels{}
	for p, g := range s.grades {
		if q[p.Query] == nil {
			q[p.Query] = map[string]int{}
		}
		q[p.Query][p.Doc] = g
	}
	return q
}
