package eval

import (
	"bufio"
	"bytes"
	"fmt"
	"github.com/ranklab/ranklab/internal/scan"
	"io"
	"math"
	"strconv"
	"strings"
)

// Qrels maps query ID -> doc ID -> integer grade. A grade >= the relevance level (default 1)
// is relevant; a grade below it is judged non-relevant; a negative grade means "judged, never
// relevant, zero gain, not counted in R" (trec_eval's "in pool, unjudged").
type Qrels map[string]map[string]int

// ReadQrels reads TREC qrels: one judgment a line, exactly 4 whitespace-separated fields
//
//	query-id iteration doc-id grade
//
// The iteration field is ignored; grade is an integer. name is used in errors, which are
// *ParseError values ("name:line: msg") for a wrong field count, a grade that is not an
// integer, a doc judged twice for one query, an empty line or an empty file.
func ReadQrels(r io.Reader, name string) (Qrels, error) {
	q := Qrels{}
	sc := lineScanner(r)
	line := 0
	var f [][]byte
	var qid string
	var docs map[string]int
	for sc.Scan() {
		line++
		f, _ = scan.Fields(scan.TrimCR(sc.Bytes()), f[:0], 0)
		if len(f) == 0 {
			return nil, parseErr(name, line, ErrEmptyLine, "")
		}
		if len(f) != 4 {
			return nil, parseErr(name, line, ErrFieldCount, "got %d, want 4 (query-id iteration doc-id grade)", len(f))
		}
		g, err := parseGradeBytes(f[3])
		if err != nil {
			return nil, parseErr(name, line, ErrGrade, "%q", f[3])
		}
		if docs == nil || string(f[0]) != qid {
			qid = string(f[0])
			if docs = q[qid]; docs == nil {
				docs = map[string]int{}
				q[qid] = docs
			}
		}
		if _, dup := docs[string(f[2])]; dup {
			return nil, parseErr(name, line, ErrDuplicate, "%q judged twice for query %q", f[2], qid)
		}
		docs[string(f[2])] = g
	}
	if err := sc.Err(); err != nil {
		return nil, &ParseError{File: name, Line: line + 1, Err: err}
	}
	if line == 0 {
		return nil, parseErr(name, 0, ErrEmpty, "")
	}
	return q, nil
}

// parseGradeBytes parses an integer grade from b; plain decimal digits are read without
// allocating, anything else goes through parseGrade.
func parseGradeBytes(b []byte) (int, error) {
	neg := len(b) > 0 && b[0] == '-'
	digits := b
	if neg {
		digits = b[1:]
	}
	if len(digits) == 0 || len(digits) > 9 {
		return parseGrade(string(b))
	}
	v := 0
	for _, c := range digits {
		if c < '0' || c > '9' {
			return parseGrade(string(b))
		}
		v = v*10 + int(c-'0')
	}
	if neg {
		v = -v
	}
	return v, nil
}

// ReadBEIRQrels reads BEIR qrels: a tab-separated file whose first line is the header
//
//	query-id	corpus-id	score
//
// followed by one judgment a line with exactly those 3 fields (score is an integer grade).
// Errors are as for ReadQrels, plus a missing or different header.
func ReadBEIRQrels(r io.Reader, name string) (Qrels, error) {
	q := Qrels{}
	sc := lineScanner(r)
	line := 0
	for sc.Scan() {
		line++
		b := scan.TrimCR(sc.Bytes())
		if line == 1 {
			if !isBEIRHeader(b) {
				return nil, parseErr(name, line, ErrHeader, "want %q, got %q", "query-id\tcorpus-id\tscore", b)
			}
			continue
		}
		if len(bytes.TrimSpace(b)) == 0 {
			return nil, parseErr(name, line, ErrEmptyLine, "")
		}
		f := strings.Split(string(b), "\t")
		if len(f) != 3 {
			return nil, parseErr(name, line, ErrFieldCount, "got %d tab-separated, want 3 (query-id corpus-id score)", len(f))
		}
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		if f[0] == "" || f[1] == "" {
			return nil, parseErr(name, line, ErrFieldCount, "empty query-id or corpus-id")
		}
		g, err := parseGrade(f[2])
		if err != nil {
			return nil, parseErr(name, line, ErrGrade, "%q", f[2])
		}
		if err := q.add(f[0], f[1], g); err != nil {
			return nil, parseErr(name, line, ErrDuplicate, "%s", err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &ParseError{File: name, Line: line + 1, Err: err}
	}
	if line == 0 {
		return nil, parseErr(name, 0, ErrEmpty, "")
	}
	if line == 1 {
		return nil, parseErr(name, 0, ErrEmpty, "header only, no judgments")
	}
	return q, nil
}

// ReadQrelsFile reads a qrels file, gunzipping it when it starts with gzip's magic bytes. A file
// whose first line starts with "query-id" followed by a tab is BEIR TSV, any other TREC qrels.
func ReadQrelsFile(path string) (Qrels, error) {
	r, closeFn, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	br := bufio.NewReaderSize(r, 1<<16)
	head, _ := br.Peek(len("query-id\t"))
	if string(head) == "query-id\t" {
		return ReadBEIRQrels(br, path)
	}
	return ReadQrels(br, path)
}

// isBEIRHeader reports whether b is BEIR's qrels header.
func isBEIRHeader(b []byte) bool {
	f := strings.Split(string(b), "\t")
	return len(f) == 3 && strings.TrimSpace(f[0]) == "query-id" && strings.TrimSpace(f[1]) == "corpus-id" && strings.TrimSpace(f[2]) == "score"
}

// parseGrade parses an integer grade; Unjudged and values beyond 32 bits are refused.
func parseGrade(s string) (int, error) {
	g, err := strconv.ParseInt(s, 10, 32)
	if err != nil || g == math.MinInt32 {
		return 0, fmt.Errorf("bad grade %q", s)
	}
	return int(g), nil
}

// add records a judgment, refusing a doc judged twice for one query.
func (q Qrels) add(qid, doc string, g int) error {
	docs := q[qid]
	if docs == nil {
		docs = map[string]int{}
		q[qid] = docs
	}
	if _, dup := docs[doc]; dup {
		return fmt.Errorf("%q judged twice for query %q", doc, qid)
	}
	docs[doc] = g
	return nil
}
