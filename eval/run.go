package eval

import (
	"bufio"
	"errors"
	"fmt"
	"github.com/ranklab/ranklab/internal/scan"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// ScoredDoc is one line of a run: a doc ID and the score the system gave it.
type ScoredDoc struct {
	Doc   string
	Score float64
}

// Run is a TREC run. Queries maps a query ID to its docs in file order (not yet ranked: see
// Rank). Tag is the run tag of the first line (the sixth field).
type Run struct {
	Tag     string
	Queries map[string][]ScoredDoc
}

// ReadRun reads a TREC run: one retrieved doc a line, at least 6 whitespace-separated fields
//
//	query-id Q0 doc-id rank score tag [anything...]
//
// The second and fourth fields are ignored (ranking order comes from the score; see Rank);
// fields after the sixth are ignored. score is parsed as a float64 and must be finite. name is
// used in errors, which are *ParseError values ("name:line: msg") for fewer than 6 fields, a
// score that is not a finite number, a doc listed twice for one query, an empty line or an
// empty file. Lines of one query need not be adjacent.
func ReadRun(r io.Reader, name string) (Run, error) {
	run := Run{Queries: map[string][]ScoredDoc{}}
	sc := lineScanner(r)
	line := 0
	seen := map[string]map[string]int{} // query -> doc -> line
	var f [][]byte
	for sc.Scan() {
		line++
		f, _ = scan.Fields(scan.TrimCR(sc.Bytes()), f[:0], 0)
		if len(f) == 0 {
			return Run{}, parseErr(name, line, ErrEmptyLine, "")
		}
		if len(f) < 6 {
			return Run{}, parseErr(name, line, ErrFieldCount, "got %d, want at least 6 (query-id Q0 doc-id rank score tag)", len(f))
		}
		score, err := parseScore(f[4])
		if err != nil {
			return Run{}, parseErr(name, line, ErrScore, "%q", f[4])
		}
		qid, doc := string(f[0]), string(f[2])
		docs, ok := seen[qid]
		if !ok {
			docs = map[string]int{}
			seen[qid] = docs
		}
		if prev, dup := docs[doc]; dup {
			return Run{}, parseErr(name, line, ErrDuplicate, "%q listed twice for query %q (first on line %d)", doc, qid, prev)
		}
		docs[doc] = line
		if line == 1 {
			run.Tag = string(f[5])
		}
		run.Queries[qid] = append(run.Queries[qid], ScoredDoc{Doc: doc, Score: score})
	}
	if err := sc.Err(); err != nil {
		return Run{}, &ParseError{File: name, Line: line + 1, Err: err}
	}
	if line == 0 {
		return Run{}, parseErr(name, 0, ErrEmpty, "")
	}
	return run, nil
}

// ReadRunFile reads a TREC run file, gunzipping it when it starts with gzip's magic bytes.
func ReadRunFile(path string) (Run, error) {
	r, closeFn, err := openInput(path)
	if err != nil {
		return Run{}, err
	}
	defer closeFn()
	return ReadRun(r, path)
}

// WriteRun writes run in TREC format, queries in byte order of their ID, each query's docs in
// ranking order (Rank) with ranks from 1:
//
//	query-id Q0 doc-id rank score tag
//
// Scores are written in the shortest form that reads back to the same float64. It refuses a run
// without a tag, IDs or a tag containing whitespace, and scores that are not finite, since the
// file would not read back to the same run.
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
		if q == "" || strings.ContainsFunc(q, isSpace) {
			return fmt.Errorf("write run: query ID %q must be one non-empty word", q)
		}
		for i, d := range Rank(run.Queries[q]) {
			if d.Doc == "" || strings.ContainsFunc(d.Doc, isSpace) {
				return fmt.Errorf("write run: query %q: doc ID %q must be one non-empty word", q, d.Doc)
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

// errNotFinite is returned by parseScore for a number that is infinite or NaN.
var errNotFinite = errors.New("not finite")

// parseScore parses a run score as float64 (as strtod does: "1", "1.0", "1e0" and "0.10e1" are
// equal) and refuses NaN and infinities.
func parseScore(b []byte) (float64, error) {
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return 0, err
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, errNotFinite
	}
	return v, nil
}

// isSpace reports whether r separates fields in TREC files.
func isSpace(r rune) bool { return r < 128 && scan.IsSpace(byte(r)) }
