package judge

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/atomicfile"
	"github.com/ranklab/ranklab/internal/scan"
	"github.com/ranklab/ranklab/pool"
)

// judgmentStore is a judgments file opened for writing: the TREC qrels file (path) that every tool
// reads, its side log (path+".log") and its lock (path+".lock"). path is the file's real path
// (symbolic links resolved), so two names of one file share one lock, one log and one file. See
// the package doc for the durability design.
type judgmentStore struct {
	path, logPath string
	judge         string
	log           *os.File
	lk            *lock
	grades        map[pool.Pair]int
	logGrades     map[pool.Pair]int // the pairs the log names: their grade after it (noGrade: none)
	entries       []logEntry        // the side log, in order
	undo          []undoStep
	lines         []qrelsLine // the qrels file's lines, as last read or written
	written       os.FileInfo // the qrels file as last read or written (nil: none)
	readOnly      bool
	mu            sync.Mutex // Close may come from the orphan watch while a key is recorded
	// StaleLock is the PID of a dead panel whose lock file Open took over (0: none).
	StaleLock int
	// Repaired tells what Open (or a later key) found and did: a torn last log line dropped,
	// the qrels file rewritten from the log (a crash between the two writes), or changed
	// outside the panel (kept as it is, the changed pairs named and logged as edits).
	Repaired []string
}

type undoStep struct {
	pair pool.Pair
	prev int // noGrade: none; unknownGrade: not recorded (a v1 log)
}

// openStore opens (or creates) the judgments file at path for judge (a name without tabs or line
// breaks). It takes the lock, reads the qrels file and the side log and reconciles them (load).
func openStore(path, judge string) (*judgmentStore, error) {
	if judge == "" || strings.ContainsAny(judge, "\t\r\n") {
		return nil, fmt.Errorf("judge: judge name %q: want a non-empty name without tabs or line breaks", judge)
	}
	real, err := atomicfile.RealPath(path)
	if err != nil {
		return nil, err
	}
	lk, err := acquire(real + ".lock")
	if err != nil {
		return nil, err
	}
	s := newStore(real)
	s.judge, s.lk, s.StaleLock = judge, lk, lk.Stale
	if err := s.load(); err != nil {
		lk.release()
		if s.log != nil {
			s.log.Close()
		}
		return nil, err
	}
	return s, nil
}

func newStore(real string) *judgmentStore {
	return &judgmentStore{path: real, logPath: real + ".log", logGrades: map[pool.Pair]int{}}
}

// openStoreReadOnly reads the judgments file at path and its side log without taking the lock or
// writing anything (a torn last log line is ignored, a stale qrels file is not rewritten, edits
// are not logged): what the static view shows while a panel may be judging elsewhere. Record
// and Undo fail on it.
func openStoreReadOnly(path string) (*judgmentStore, error) {
	real, err := atomicfile.RealPath(path)
	if err != nil {
		return nil, err
	}
	s := newStore(real)
	s.readOnly = true
	if err := s.load(); err != nil {
		return nil, err
	}
	return s, nil
}

// load reads the qrels file and the side log and decides which holds the judgments:
//
//   - they agree (every pair the log names has the grade the log gives it): nothing to do;
//   - the file is the log before its last judge or undo line, and older than that line: the
//     crash window (the line was logged, the rewrite never happened): the file is rewritten;
//   - otherwise the file was changed after the panel wrote it (by hand, by another tool): the
//     file wins. Each pair whose grade differs from the log's is named in Repaired and logged as
//     an edit (which also ends undo for that pair), so the log and the file agree again.
//
// Pairs the log never names (another tool's judgments) are the file's.
func (s *judgmentStore) load() error {
	file, err := readQrelsFile(s.path)
	if err != nil {
		return err
	}
	data, err := s.openLog()
	if err != nil {
		return err
	}
	entries, err := readLog(bytes.NewReader(data), s.logPath)
	if err != nil {
		return err
	}
	for _, e := range entries {
		s.apply(e)
	}
	after := overlay(file.grades, s.logGrades)
	s.lines, s.written = file.lines, file.info
	switch {
	case equalGrades(file.grades, after):
		s.grades = after
		return nil
	case s.crashWindow(file):
		s.grades = after
		s.Repaired = append(s.Repaired, s.path+": rewritten from the side log (its last judgment was logged, the rewrite had not happened)")
		if s.readOnly {
			return nil
		}
		return s.writeQrels()
	}
	s.grades = file.grades
	return s.adoptEdits(file, after, "since the panel last wrote it")
}

// openLog opens the side log (the writer creates it, with its header, and drops a torn last
// line) and returns its whole lines.
func (s *judgmentStore) openLog() ([]byte, error) {
	if s.readOnly {
		data, err := os.ReadFile(s.logPath)
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return data[:bytes.LastIndexByte(data, '\n')+1], err
	}
	created := false
	f, err := os.OpenFile(s.logPath, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		if f, err = os.OpenFile(s.logPath, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666); err != nil {
			return nil, err
		}
		created = true
	} else if err != nil {
		return nil, err
	}
	s.log = f
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	// A power loss mid-append can leave a torn last line: it was never acknowledged (fsync had
	// not returned), so it is dropped before anything is appended after it.
	if n := bytes.LastIndexByte(data, '\n') + 1; n < len(data) {
		if err := f.Truncate(int64(n)); err != nil {
			return nil, err
		}
		s.Repaired = append(s.Repaired, fmt.Sprintf("%s: dropped a torn last line (%d bytes)", s.logPath, len(data)-n))
		data = data[:n]
	}
	if len(data) == 0 {
		if _, err := f.Write([]byte(logHeader)); err != nil {
			return nil, err
		}
		if err := f.Sync(); err != nil {
			return nil, err
		}
		if created {
			if err := atomicfile.SyncDir(filepath.Dir(s.logPath)); err != nil {
				return nil, err
			}
		}
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		return nil, err
	}
	return data, nil
}

// crashWindow reports whether file is what the qrels file held before the log's last judge or
// undo line (every other pair as the log has it) and was written before that line's time.
// Before a v1 line (which does not record the grade it replaced) any grade of its pair fits.
func (s *judgmentStore) crashWindow(file qrelsFile) bool {
	if len(s.entries) == 0 {
		return false
	}
	last := s.entries[len(s.entries)-1]
	if last.Action == "edit" || !file.modTime().Before(last.Time) {
		return false
	}
	before := overlay(file.grades, s.logGrades)
	switch g, ok := file.grades[last.Pair]; {
	case last.Prev == unknownGrade && ok:
		before[last.Pair] = g
	case last.Prev == unknownGrade || last.Prev == noGrade:
		delete(before, last.Pair)
	default:
		before[last.Pair] = last.Prev
	}
	return equalGrades(file.grades, before)
}

// adoptEdits makes the file's grades the store's: every pair whose grade in file differs from
// was (the grades the panel last had) is logged as an edit and named in Repaired.
func (s *judgmentStore) adoptEdits(file qrelsFile, was map[pool.Pair]int, when string) error {
	var changed []pool.Pair
	for p := range overlay(was, file.grades) {
		g, ok := file.grades[p]
		h, ok2 := was[p]
		if ok != ok2 || g != h {
			changed = append(changed, p)
		}
	}
	slices.SortFunc(changed, comparePairs)
	var named []string
	now := time.Now().UTC()
	for _, p := range changed {
		e := logEntry{Time: now, Judge: "-", Action: "edit", Pair: p, Grade: noGrade, Prev: noGrade}
		if g, ok := file.grades[p]; ok {
			e.Grade = g
		}
		if g, ok := was[p]; ok {
			e.Prev = g
		}
		named = append(named, fmt.Sprintf("%s %s %s→%s", p.Query, p.Doc, gradeWord(e.Prev), gradeWord(e.Grade)))
		if !s.readOnly {
			if err := s.appendLog(e); err != nil {
				return err
			}
		}
		s.apply(e)
	}
	const shown = 10
	list := strings.Join(named[:min(shown, len(named))], ", ")
	if len(named) > shown {
		list += fmt.Sprintf(" and %d more", len(named)-shown)
	}
	s.Repaired = append(s.Repaired, fmt.Sprintf("%s was changed %s (by hand or by another tool): kept as it is; %d %s logged as edits: %s",
		s.path, when, len(named), plural(len(named), "pair", "pairs"), list))
	return nil
}

func gradeWord(g int) string {
	if g == noGrade {
		return "none"
	}
	return formatGrade(g)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// overlay returns base with the grades of top over it (noGrade in top: no grade).
func overlay(base, top map[pool.Pair]int) map[pool.Pair]int {
	out := make(map[pool.Pair]int, len(base)+len(top))
	for p, g := range base {
		out[p] = g
	}
	for p, g := range top {
		if g == noGrade {
			delete(out, p)
		} else {
			out[p] = g
		}
	}
	return out
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

// apply replays one log entry on the log's grades and the undo stack. A v1 line's Prev is
// known when an earlier line named its pair.
func (s *judgmentStore) apply(e logEntry) {
	if g, named := s.logGrades[e.Pair]; named && e.Prev == unknownGrade {
		e.Prev = g
	}
	switch e.Action {
	case "judge":
		s.undo = append(s.undo, undoStep{e.Pair, e.Prev})
	case "undo":
		if n := len(s.undo); n > 0 {
			s.undo = s.undo[:n-1]
		}
	case "edit": // a change made outside the panel: undo stops there for its pair
		s.undo = slices.DeleteFunc(s.undo, func(u undoStep) bool { return u.pair == e.Pair })
	}
	s.logGrades[e.Pair] = e.Grade
	if s.grades != nil {
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

// Path is the qrels file (its real path).
func (s *judgmentStore) Path() string { return s.path }

// Record gives p the grade g (0..3), seconds after it was shown, and makes it durable: the
// side log line is appended and fsynced, then the qrels file is rewritten atomically (temp
// file, fsync, rename, fsync of the folder). Only then does Record return.
func (s *judgmentStore) Record(p pool.Pair, g int, seconds float64) error {
	if g < 0 || g > 3 {
		return fmt.Errorf("judge: grade %d: want 0..3", g)
	}
	return s.commit(logEntry{Judge: s.judge, Action: "judge", Pair: p, Grade: g, Seconds: seconds})
}

// Undo reverts the newest judgment not yet undone (durably, as Record) and returns its pair;
// ok is false when there is nothing to undo.
func (s *judgmentStore) Undo() (p pool.Pair, ok bool, err error) {
	n := len(s.undo)
	if n == 0 {
		return pool.Pair{}, false, nil
	}
	u := s.undo[n-1]
	if u.prev == unknownGrade {
		return u.pair, false, fmt.Errorf("judge: cannot undo %s %s: its judgment is in a v1 side log, which does not record the grade before it", u.pair.Query, u.pair.Doc)
	}
	return u.pair, true, s.commit(logEntry{Judge: s.judge, Action: "undo", Pair: u.pair, Grade: u.prev})
}

// commit appends e to the side log (fsync), applies it and rewrites the qrels file. A qrels
// file changed since the store last read or wrote it (an edit while the panel runs) is taken in
// first, as load does.
func (s *judgmentStore) commit(e logEntry) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.log == nil {
		return errors.New("judge: the store is closed (or read-only)")
	}
	if err := scan.IDError("query", e.Pair.Query); err != nil {
		return fmt.Errorf("judge: %w", err)
	}
	if err := scan.IDError("doc", e.Pair.Doc); err != nil {
		return fmt.Errorf("judge: %w", err)
	}
	if err := s.takeInEdits(); err != nil {
		return err
	}
	e.Time = time.Now().UTC()
	e.Prev = noGrade
	if g, ok := s.grades[e.Pair]; ok {
		e.Prev = g
	}
	if err := s.appendLog(e); err != nil {
		return err
	}
	s.apply(e)
	return s.writeQrels()
}

// takeInEdits re-reads the qrels file when it is not the one the store last read or wrote.
func (s *judgmentStore) takeInEdits() error {
	cur, err := os.Stat(s.path)
	switch {
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return err
	case err != nil && s.written == nil:
		return nil
	case err == nil && s.written != nil && os.SameFile(cur, s.written) && cur.ModTime().Equal(s.written.ModTime()) && cur.Size() == s.written.Size():
		return nil
	}
	file, err := readQrelsFile(s.path)
	if err != nil {
		return err
	}
	s.lines, s.written = file.lines, file.info
	if equalGrades(file.grades, s.grades) {
		return nil
	}
	was := s.grades
	s.grades = file.grades
	return s.adoptEdits(file, was, "while the panel ran")
}

// appendLog appends e to the side log and fsyncs it.
func (s *judgmentStore) appendLog(e logEntry) error {
	if _, err := s.log.Write([]byte(formatEntry(e))); err != nil {
		return fmt.Errorf("%s: %w", s.logPath, err)
	}
	if err := s.log.Sync(); err != nil {
		return fmt.Errorf("%s: %w", s.logPath, err)
	}
	return nil
}

// writeQrels writes the grades as TREC qrels "query 0 doc grade" over the file's own lines
// (render: comments and unchanged lines kept, new pairs at the end by query, then doc),
// atomically (internal/atomicfile: temporary file, fsync, rename, fsync of the folder).
func (s *judgmentStore) writeQrels() error {
	data, lines := render(s.lines, s.grades)
	if err := atomicfile.WriteFile(s.path, data); err != nil {
		return fmt.Errorf("%s: %w", s.path, err)
	}
	st, err := os.Stat(s.path)
	if err != nil {
		return err
	}
	s.lines, s.written = lines, st
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
