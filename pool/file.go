package pool

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/atomicfile"
	"github.com/ranklab/ranklab/internal/scan"
)

// Write writes pairs as qrels lines "query 0 doc -1", one a line, in order. It refuses an ID a
// TREC file cannot carry (scan.IDProblem: empty, white space or control characters, a leading
// U+FEFF, which a reader drops as a byte order mark): the line would not read back.
func Write(w io.Writer, pairs []Pair) error {
	bw := bufio.NewWriter(w)
	for _, p := range pairs {
		if err := scan.IDError("query", p.Query); err != nil {
			return fmt.Errorf("pool: %w", err)
		}
		if err := scan.IDError("doc", p.Doc); err != nil {
			return fmt.Errorf("pool: %w", err)
		}
		if _, err := fmt.Fprintf(bw, "%s 0 %s -1\n", p.Query, p.Doc); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteFile writes pairs to path atomically (internal/atomicfile, the writer of every ranklab
// output): to a temporary file in the same folder, synced, then renamed over path, so a reader
// sees the old file or the whole new one, never a part. A new file gets mode 0666 less the
// umask; a symbolic link, a named pipe or a device is written as that package says (the link's
// target; in place), never replaced.
func WriteFile(path string, pairs []Pair) error {
	return atomicfile.Write(path, func(w io.Writer) error { return Write(w, pairs) })
}

// read reads a pool file (or any TREC qrels: "query iteration doc grade", 4 fields separated
// by white space) and returns its pairs in file order, with every grade. Blank lines and lines
// starting with "#" are skipped. A line of another field count, a grade that is not an integer
// or a pair listed twice is an *eval.ParseError "name:line: ..." that unwraps to
// eval.ErrFieldCount, eval.ErrGrade or eval.ErrDuplicate; so is an ID a TREC file cannot carry
// (scan.IDProblem: a control character, a U+FEFF that starts it), which Write would refuse.
func read(r io.Reader, name string) ([]Pair, []int, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var pairs []Pair
	var grades []int
	seen := map[Pair]int{}
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
		}
		f := strings.FieldsFunc(text, isSpace)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if len(f) != 4 {
			return nil, nil, &eval.ParseError{File: name, Line: line, Err: fmt.Errorf("%w: got %d, want 4 (query iteration doc grade)", eval.ErrFieldCount, len(f))}
		}
		g, err := strconv.ParseInt(f[3], 10, 32)
		if err != nil {
			return nil, nil, &eval.ParseError{File: name, Line: line, Err: fmt.Errorf("%w: %.40q", eval.ErrGrade, f[3])}
		}
		p := Pair{f[0], f[2]}
		for _, id := range []struct{ kind, id string }{{"query", p.Query}, {"doc", p.Doc}} {
			if err := scan.IDError(id.kind, id.id); err != nil {
				return nil, nil, &eval.ParseError{File: name, Line: line, Err: err}
			}
		}
		if first, dup := seen[p]; dup {
			return nil, nil, &eval.ParseError{File: name, Line: line, Err: fmt.Errorf("%w: %.40q listed twice for query %.40q (first on line %d)", eval.ErrDuplicate, p.Doc, p.Query, first)}
		}
		seen[p] = line
		pairs = append(pairs, p)
		grades = append(grades, int(g))
	}
	if err := sc.Err(); err != nil {
		return nil, nil, &eval.ParseError{File: name, Line: line + 1, Err: err}
	}
	return pairs, grades, nil
}

// isSpace reports whether r separates fields: ASCII white space, as in every TREC reader.
func isSpace(r rune) bool { return r < 128 && scan.IsSpace(byte(r)) }

// ReadFile reads the pool file at path (Read).
func ReadFile(path string) ([]Pair, []int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return read(f, path)
}

// pending returns the pairs of a pool that judged does not grade yet (no grade, or a negative
// one), in the pool's order: what a judging tool shows next, and where it resumes.
func pending(pairs []Pair, judged eval.Qrels) []Pair {
	var out []Pair
	for _, p := range pairs {
		if !isJudged(judged, p.Query, p.Doc) {
			out = append(out, p)
		}
	}
	return out
}
