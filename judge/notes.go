package judge

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ranklab/ranklab/internal/atomicfile"
	"github.com/ranklab/ranklab/internal/scan"
	"github.com/ranklab/ranklab/pool"
)

// noteBook is the notes file beside a judgments file (path + ".notes.jsonl"): one JSON object a
// line, {"time", "judge", "query", "doc", "note"}, append-only; a pair's latest line is its note
// ("" withdraws it). Each note is appended and fsynced before the panel shows its next screen,
// as a grade is. A torn last line (power lost mid-append, never acknowledged) is dropped when
// read, and cut off the file when it is opened for writing; any other bad line is an error
// naming the file and line.
type noteBook struct {
	path  string
	f     *os.File // nil: read-only, or closed
	notes map[pool.Pair]string
	torn  int64 // the length to cut the file to when its last line is torn; -1: not torn
}

// noteLine is one line of the notes file.
type noteLine struct {
	Time  time.Time `json:"time"`
	Judge string    `json:"judge"`
	Query string    `json:"query"`
	Doc   string    `json:"doc"`
	Note  string    `json:"note"`
}

// maxNote is the longest note kept (bytes): a note is a remark, not a document.
const maxNote = 4000

// openNotes reads the notes file of the judgments file qrels and, unless readOnly, opens it
// for appending (creating it, and syncing its folder, when missing).
func openNotes(qrels string, readOnly bool) (*noteBook, error) {
	nb := &noteBook{path: qrels + ".notes.jsonl", notes: map[pool.Pair]string{}, torn: -1}
	if err := nb.read(); err != nil {
		return nil, err
	}
	if readOnly {
		return nb, nil
	}
	_, statErr := os.Stat(nb.path)
	f, err := os.OpenFile(nb.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
	if err != nil {
		return nil, err
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		if err := atomicfile.SyncDir(filepath.Dir(nb.path)); err != nil {
			f.Close()
			return nil, err
		}
	}
	if nb.torn >= 0 { // drop the torn line, so the next note starts a line of its own
		if err := f.Truncate(nb.torn); err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", nb.path, err)
		}
	}
	nb.f = f
	return nb, nil
}

func (nb *noteBook) read() error {
	r, closeFile, err := scan.Open(nb.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	defer closeFile()
	b, err := io.ReadAll(io.LimitReader(r, scan.MaxLine+1))
	if err != nil {
		return fmt.Errorf("%s: %w", nb.path, err)
	}
	if len(b) > scan.MaxLine {
		return fmt.Errorf("%s: larger than 64 MiB: not a notes file", nb.path)
	}
	lines := strings.Split(string(b), "\n") // the last piece is "" when the file ends in a newline
	for i, line := range lines {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var n noteLine
		if err := json.Unmarshal([]byte(line), &n); err != nil || n.Query == "" || n.Doc == "" {
			if i == len(lines)-1 {
				nb.torn = int64(len(b) - len(line)) // torn by a crash mid-append: never acknowledged
				break
			}
			return fmt.Errorf("%s:%d: not a note line {\"time\", \"judge\", \"query\", \"doc\", \"note\"}", nb.path, i+1)
		}
		nb.notes[pool.Pair{Query: n.Query, Doc: n.Doc}] = n.Note
	}
	return nil
}

// Note returns the pair's note ("" for none).
func (nb *noteBook) Note(p pool.Pair) string { return nb.notes[p] }

// Add records judge's note on p durably (appended, fsynced) before it returns.
func (nb *noteBook) Add(p pool.Pair, judge, note string) error {
	if nb == nil || nb.f == nil {
		return errors.New("judge: the notes file is closed (or read-only)")
	}
	note = strings.TrimSpace(strings.ToValidUTF8(note, "\uFFFD"))
	if len(note) > maxNote {
		return fmt.Errorf("judge: a note of %d bytes: at most %d", len(note), maxNote)
	}
	b, err := json.Marshal(noteLine{Time: time.Now().UTC(), Judge: judge, Query: p.Query, Doc: p.Doc, Note: note})
	if err != nil {
		return err
	}
	if _, err := nb.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("%s: %w", nb.path, err)
	}
	if err := nb.f.Sync(); err != nil {
		return fmt.Errorf("%s: %w", nb.path, err)
	}
	nb.notes[p] = note
	return nil
}

// Close closes the notes file.
func (nb *noteBook) Close() error {
	if nb == nil || nb.f == nil {
		return nil
	}
	err := nb.f.Close()
	nb.f = nil
	return err
}
