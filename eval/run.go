package eval

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ranklab/ranklab/internal/scan"
)

// ScoredDoc is one line of a run: a doc ID and the score the system gave it.
type ScoredDoc struct {
	Doc   string
	Score float64
}

// Run is a TREC run. Queries maps a query ID to its docs in file order (not yet ranked: see
// Rank). Tag is the run's tag, the sixth field of its last line (trec_eval's runid; a file
// normally has one tag on every line); it names the run in a comparison (package compare).
type Run struct {
	Tag     string
	Queries map[string][]ScoredDoc
}

// ReadRun reads a TREC run "query-id Q0 doc-id rank score tag [anything...]" (see the package
// doc): ranking comes from the score (see Rank). name is used in the *ParseError values: fewer
// than 6 fields, a bad score, a doc listed twice for one query, no data line (ErrEmpty).
func ReadRun(r io.Reader, name string) (Run, error) {
	run := Run{Queries: map[string][]ScoredDoc{}}
	lineNos := map[string][]int{} // the line of each doc, for duplicates
	lines := scan.NewLines(r)
	data := 0
	var f [][]byte
	var qid string
	// stop returns the first error in file order: a duplicate before the line of err, or err.
	stop := func(err error) (Run, error) {
		if dup := firstDuplicate(name, run, lineNos); dup != nil {
			return Run{}, dup
		}
		return Run{}, err
	}
	for lines.Next() {
		line := lines.Line()
		f, _ = scan.Fields(lines.Bytes(), f[:0], 0)
		if len(f) == 0 || f[0][0] == '#' {
			continue
		}
		if len(f) < 6 {
			return stop(parseErr(name, line, ErrFieldCount, "got %d, want at least 6 (query-id Q0 doc-id rank score tag)", len(f)))
		}
		score, ok := scan.Float(f[4])
		if !ok {
			return stop(parseErr(name, line, ErrScore, "%s", quoteField(f[4])))
		}
		if data == 0 || string(f[0]) != qid {
			qid = string(f[0])
		}
		data++
		if string(f[5]) != run.Tag {
			run.Tag = string(f[5])
		}
		run.Queries[qid] = append(run.Queries[qid], ScoredDoc{Doc: string(f[2]), Score: score})
		lineNos[qid] = append(lineNos[qid], line)
	}
	if err := lines.Err(); err != nil {
		return stop(readErr(name, lines.Line(), err))
	}
	if dup := firstDuplicate(name, run, lineNos); dup != nil {
		return Run{}, dup
	}
	if data == 0 {
		return Run{}, parseErr(name, 0, ErrEmpty, "no data line")
	}
	return run, nil
}

// firstDuplicate returns the error of the first line (in file order) that lists a doc already
// listed for its query, or nil. It looks at one query at a time, so its memory is that of the
// largest query.
func firstDuplicate(name string, run Run, lineNos map[string][]int) error {
	var err error
	at := 0
	for q, docs := range run.Queries {
		seen := make(map[string]int, len(docs))
		for i, d := range docs {
			if prev, dup := seen[d.Doc]; dup {
				if line := lineNos[q][i]; err == nil || line < at {
					at = line
					err = parseErr(name, line, ErrDuplicate, "%s listed twice for query %s (first on line %d)", quoteString(d.Doc), quoteString(q), lineNos[q][prev])
				}
				break
			}
			seen[d.Doc] = i
		}
	}
	return err
}

// ReadRunFile reads a TREC run file ("-" for standard input), gunzipping it when it starts with
// gzip's magic bytes.
func ReadRunFile(path string) (Run, error) { return readFile(path, ReadRun) }

// WriteRun writes run in TREC format, queries in byte order, docs ranked (Rank), scores in the
// shortest form that reads back the same. It refuses what would not read back to the same run:
// no tag, a tag with whitespace, an ID a TREC file cannot carry (scan.IDProblem: empty, white
// space or control characters, a leading U+FEFF), scores not finite.
func WriteRun(w io.Writer, run Run) error {
	if run.Tag == "" || strings.ContainsFunc(run.Tag, isSpace) {
		return fmt.Errorf("write run: tag %q must be one non-empty word", run.Tag)
	}
	bw := bufio.NewWriter(w)
	qids := make([]string, 0, len(run.Queries))
	for q := range run.Queries {
		qids = append(qids, q)
	}
	slices.Sort(qids)
	buf := make([]byte, 0, 128)
	for _, q := range qids {
		if err := scan.IDError("query", q); err != nil {
			return fmt.Errorf("write run: %w", err)
		}
		for i, d := range Rank(run.Queries[q]) {
			if err := scan.IDError("doc", d.Doc); err != nil {
				return fmt.Errorf("write run: query %q: %w", q, err)
			}
			if math.IsNaN(d.Score) || math.IsInf(d.Score, 0) {
				return fmt.Errorf("write run: query %q doc %q: score %v is not finite", q, d.Doc, d.Score)
			}
			buf = append(buf[:0], q...)
			buf = append(buf, " Q0 "...)
			buf = append(buf, d.Doc...)
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(i+1), 10)
			buf = append(buf, ' ')
			buf = strconv.AppendFloat(buf, d.Score, 'g', -1, 64)
			buf = append(buf, ' ')
			buf = append(buf, run.Tag...)
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// isSpace reports whether r separates fields in TREC files.
func isSpace(r rune) bool { return r < 128 && scan.IsSpace(byte(r)) }
