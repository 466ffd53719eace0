package eval

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/ranklab/ranklab/internal/scan"
)

// Qrels maps query ID -> doc ID -> integer grade (see Grades in the package doc).
type Qrels map[string]map[string]int

// ReadQrels reads qrels (see the package doc): BEIR TSV when the first line starts with
// "query-id" and a tab (the header "query-id\tcorpus-id\tscore", then one judgment a line with
// those 3 tab-separated fields, ASCII spaces around a field dropped, never a Unicode space such
// as U+00A0), TREC qrels "query-id iteration doc-id grade" otherwise. name is used in the
// *ParseError values: a wrong field count, a bad grade, a doc judged twice for one query, an
// empty line or file, a bad BEIR header (ErrHeader).
func ReadQrels(r io.Reader, name string) (Qrels, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	head, _ := br.Peek(len(scan.BOM) + len("query-id\t"))
	head = bytes.TrimPrefix(head, scan.BOM)
	if bytes.HasPrefix(head, []byte("query-id\t")) {
		return readBEIRQrels(br, name)
	}
	return readTRECQrels(br, name)
}

// readTRECQrels reads TREC qrels "query-id iteration doc-id grade".
func readTRECQrels(r io.Reader, name string) (Qrels, error) {
	q := Qrels{}
	var qid string
	var docs map[string]int
	err := readRecords(r, name, 4, "4 (query-id iteration doc-id grade)", "no judgment", func(f [][]byte, line int) error {
		g, ok := scan.Grade(f[3])
		if !ok {
			return parseErr(name, line, ErrGrade, "%s", quoteField(f[3]))
		}
		if docs == nil || string(f[0]) != qid {
			qid = string(f[0])
			docs = inner(q, qid)
		}
		if _, dup := docs[string(f[2])]; dup {
			return parseErr(name, line, ErrDuplicate, "%s judged twice for query %s", quoteField(f[2]), quoteString(qid))
		}
		docs[string(f[2])] = g
		return nil
	})
	if err != nil {
		return nil, err
	}
	return q, nil
}

// readBEIRQrels reads BEIR qrels: the header "query-id\tcorpus-id\tscore", then one judgment
// a line with those 3 tab-separated fields. ASCII spaces around a field are dropped, never a
// Unicode space such as U+00A0 (as in TREC qrels). Errors as readTRECQrels, plus ErrHeader.
func readBEIRQrels(r io.Reader, name string) (Qrels, error) {
	q := Qrels{}
	lines := scan.NewLines(r)
	for lines.Next() {
		line := lines.Line()
		b := lines.Bytes()
		if line == 1 {
			if !isBEIRHeader(b) {
				return nil, parseErr(name, line, ErrHeader, "want %q, got %s", "query-id\tcorpus-id\tscore", quoteField(b))
			}
			continue
		}
		if scan.TrimSpace(string(b)) == "" {
			return nil, parseErr(name, line, ErrEmptyLine, "")
		}
		f := strings.Split(string(b), "\t")
		if len(f) != 3 {
			return nil, parseErr(name, line, ErrFieldCount, "got %d tab-separated, want 3 (query-id corpus-id score)", len(f))
		}
		for i := range f {
			f[i] = scan.TrimSpace(f[i])
		}
		if f[0] == "" || f[1] == "" {
			return nil, parseErr(name, line, ErrFieldCount, "empty query-id or corpus-id")
		}
		g, ok := scan.Grade([]byte(f[2]))
		if !ok {
			return nil, parseErr(name, line, ErrGrade, "%s", quoteString(f[2]))
		}
		if err := q.add(f[0], f[1], g); err != nil {
			return nil, parseErr(name, line, ErrDuplicate, "%s", err)
		}
	}
	if err := lines.Err(); err != nil {
		return nil, readErr(name, lines.Line(), err)
	}
	switch lines.Line() {
	case 0:
		return nil, parseErr(name, 0, ErrEmpty, "")
	case 1:
		return nil, parseErr(name, 0, ErrEmpty, "header only, no judgments")
	}
	return q, nil
}

// ReadQrelsFile reads a qrels file (ReadQrels: BEIR TSV or TREC qrels).
func ReadQrelsFile(path string) (Qrels, error) { return readFile(path, ReadQrels) }

// isBEIRHeader reports whether b is BEIR's qrels header.
func isBEIRHeader(b []byte) bool {
	f := strings.Split(string(b), "\t")
	return len(f) == 3 && scan.TrimSpace(f[0]) == "query-id" && scan.TrimSpace(f[1]) == "corpus-id" && scan.TrimSpace(f[2]) == "score"
}

// add records a judgment, refusing a doc judged twice for one query.
func (q Qrels) add(qid, doc string, g int) error {
	docs := inner(q, qid)
	if _, dup := docs[doc]; dup {
		return fmt.Errorf("%s judged twice for query %s", quoteString(doc), quoteString(qid))
	}
	docs[doc] = g
	return nil
}
