package check

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ranklab/ranklab/internal/scan"
)

// runDoc is one run line as the preflight keeps it.
type runDoc struct {
	doc    string
	score  float64
	rank   int
	rankOK bool
	line   int
}

// runFile is a run read leniently: every line that parses, in file order, and what was wrong.
type runFile struct {
	path     string
	queries  map[string][]runDoc // query → docs in file order (duplicates left out)
	order    []string            // queries in order of first appearance
	lines    int
	findings []Finding
}

// qrelsFile is a qrels file read leniently.
type qrelsFile struct {
	path     string
	judged   map[string]map[string]int // query → doc → grade (duplicates left out)
	lines    int
	beir     bool
	findings []Finding
}

// reader walks the lines of one file and collects findings; ids remembers the IDs already
// reported for a character problem, so each odd ID is named once.
type reader struct {
	path     string
	findings []Finding
	ids      map[string]bool
}

func (r *reader) add(sev Severity, code string, line int, query, format string, args ...any) {
	r.findings = append(r.findings, Finding{Severity: sev, Code: code, File: r.path, Line: line, Query: query, Message: fmt.Sprintf(format, args...)})
}

// lines calls fn with each line and its number, read by scan.Lines as package eval reads them
// (one trailing \r dropped, a bare CR or a line over 64 MiB an error); the first line loses a
// byte order mark, which is reported. It reports an empty input.
func (r *reader) lines(in io.Reader, fn func(b []byte, n int)) int {
	lines := scan.NewLines(in)
	n := 0
	for lines.Next() {
		n = lines.Line()
		b := lines.Bytes()
		if n == 1 && lines.BOM() {
			// A warning, not an error: ranklab drops the mark (package scan), so its numbers are
			// the plain file's; only the peers would read another first ID.
			r.add(Warning, codeBOM, 1, "", "the file starts with a UTF-8 byte order mark: ranklab drops it, but trec_eval, pytrec_eval and ir_measures read it as part of the first ID (%q)", "\ufeff"+firstField(b))
		}
		fn(b, n)
	}
	if err := lines.Err(); err != nil {
		r.add(Error, codeParse, n+1, "", "%v", scan.ReadError(err))
	}
	if n == 0 {
		r.add(Error, codeEmpty, 0, "", "the file is empty")
	}
	return n
}

func firstField(b []byte) string {
	f, _ := scan.Fields(b, nil, 1)
	if len(f) == 0 {
		return ""
	}
	return string(f[0])
}

// blankOrComment reports blank lines and "#" comment lines (first non-blank character '#', as
// package eval reads them), which tools read differently.
func (r *reader) blankOrComment(b []byte, n int) bool {
	f, _ := scan.Fields(b, nil, 1)
	if len(f) == 0 {
		r.add(Warning, codeBlank, n, "", "blank line: trec_eval 10.0 skips blank run lines, other readers may fail on it or count it")
		return true
	}
	if f[0][0] == '#' {
		r.add(Warning, codeComment, n, "", "comment line: trec_eval 10.0 skips it; trec_eval 9.0.8 and the readers of ir_measures and ranx (line.split()) take it as data or fail on it")
		return true
	}
	return false
}

// checkID reports the characters in an ID that make tools or files disagree: control
// characters, invalid UTF-8, invisible or Unicode space characters (errors: the ID is not what
// it looks like), and "#" or quotes (warnings: comment and quoting rules of CSV readers).
// firstTime checks the query and doc IDs of line n and reports whether doc d is new for query
// q; a doc seen before (first holds the line of each query and doc) is an error whose message
// says it was listed (verb) twice and what tools then do (effect).
func (r *reader) firstTime(first map[[2]string]int, q, d string, n int, verb, effect string) bool {
	r.checkID("query", q, n, q)
	r.checkID("doc", d, n, q)
	if prev, dup := first[[2]string{q, d}]; dup {
		r.add(Error, codeDuplicate, n, q, "doc %q %s twice for query %q (first on line %d): %s", d, verb, q, prev, effect)
		return false
	}
	first[[2]string{q, d}] = n
	return true
}

func (r *reader) checkID(kind, id string, n int, query string) {
	key := kind + "\x00" + id
	if r.ids[key] {
		return
	}
	report := func(sev Severity, code, why string) {
		r.ids[key] = true
		r.add(sev, code, n, query, "%s ID %q %s", kind, id, why)
	}
	if why, _ := scan.IDProblem(id); why != "" { // the one rule of internal/scan
		report(Error, codeIDChars, why)
		return
	}
	switch {
	case strings.ContainsRune(id, '#'):
		report(Warning, codeIDChars, "holds \"#\": readers that take \"#\" as a comment (pandas comment=\"#\", trec_eval 10.0 at the start of a line) cut it")
	case strings.ContainsAny(id, "\"'"):
		report(Warning, codeIDChars, "holds a quote: CSV and pandas readers may strip or join it")
	}
}

// readRun reads a TREC run leniently: "query-id Q0 doc-id rank score tag", at least 6 fields.
// Every line that parses is kept (in file order); every problem is a finding with its line.
func readRun(in io.Reader, path string) runFile {
	r := &reader{path: path, ids: map[string]bool{}}
	rf := runFile{path: path, queries: map[string][]runDoc{}}
	first := map[[2]string]int{}
	var f [][]byte
	data := 0 // lines that are neither blank nor comments
	rf.lines = r.lines(in, func(b []byte, n int) {
		if r.blankOrComment(b, n) {
			return
		}
		data++
		f, _ = scan.Fields(b, f[:0], 0)
		if len(f) < 6 {
			r.add(Error, codeParse, n, "", "%d fields, want at least 6 (query-id Q0 doc-id rank score tag)", len(f))
			return
		}
		q, d := string(f[0]), string(f[2])
		score, ok := scan.Float(f[4]) // eval's run readers' grammar
		if !ok {
			r.add(Error, codeParse, n, q, "score %q is not a finite number", f[4])
			return
		}
		if !r.firstTime(first, q, d, n, "listed", "trec_eval refuses the run, dict-based tools keep one score silently") {
			return
		}
		rank, rerr := strconv.Atoi(string(f[3]))
		if _, ok := rf.queries[q]; !ok {
			rf.order = append(rf.order, q)
		}
		rf.queries[q] = append(rf.queries[q], runDoc{doc: d, score: score, rank: rank, rankOK: rerr == nil, line: n})
	})
	if rf.lines > 0 && data == 0 {
		r.add(Error, codeEmpty, 0, "", "no data line (only blank or comment lines): eval refuses the file as empty")
	}
	rf.findings = r.findings
	return rf
}

// readQrels reads TREC qrels ("query-id iteration doc-id grade", exactly 4 fields) or BEIR
// qrels (a "query-id<TAB>corpus-id<TAB>score" header, then 3 tab-separated fields) leniently.
func readQrels(in io.Reader, path string) qrelsFile {
	r := &reader{path: path, ids: map[string]bool{}}
	qf := qrelsFile{path: path, judged: map[string]map[string]int{}}
	first := map[[2]string]int{}
	var f [][]byte
	data := 0 // lines that are neither the header, blank nor comments
	qf.lines = r.lines(in, func(b []byte, n int) {
		if n == 1 && bytes.HasPrefix(b, []byte("query-id\t")) {
			qf.beir = true
			h := strings.Split(string(b), "\t")
			if len(h) != 3 || scan.TrimSpace(h[1]) != "corpus-id" || scan.TrimSpace(h[2]) != "score" {
				r.add(Error, codeParse, n, "", "BEIR header %q, want \"query-id<TAB>corpus-id<TAB>score\"", b)
			}
			return
		}
		if r.blankOrComment(b, n) {
			return
		}
		data++
		var q, d, g string
		if qf.beir {
			parts := strings.Split(string(b), "\t")
			if len(parts) != 3 {
				r.add(Error, codeParse, n, "", "%d tab-separated fields, want 3 (query-id corpus-id score)", len(parts))
				return
			}
			q, d, g = scan.TrimSpace(parts[0]), scan.TrimSpace(parts[1]), scan.TrimSpace(parts[2])
			if q == "" || d == "" {
				r.add(Error, codeParse, n, q, "empty query-id or corpus-id")
				return
			}
		} else {
			f, _ = scan.Fields(b, f[:0], 0)
			if len(f) != 4 {
				r.add(Error, codeParse, n, "", "%d fields, want 4 (query-id iteration doc-id grade)", len(f))
				return
			}
			q, d, g = string(f[0]), string(f[2]), string(f[3])
		}
		grade, ok := scan.Grade([]byte(g)) // eval's qrels readers' rule
		if !ok {
			r.add(Error, codeParse, n, q, "grade %q is not an integer", g)
			return
		}
		if !r.firstTime(first, q, d, n, "judged", "tools keep the first, the last or refuse") {
			return
		}
		if qf.judged[q] == nil {
			qf.judged[q] = map[string]int{}
		}
		qf.judged[q][d] = grade
	})
	switch {
	case qf.beir && qf.lines == 1:
		r.add(Error, codeEmpty, 0, "", "BEIR header only, no judgments")
	case qf.lines > 0 && data == 0 && !qf.beir:
		r.add(Error, codeEmpty, 0, "", "no judgment (only blank or comment lines): eval refuses the file as empty")
	}
	qf.findings = r.findings
	return qf
}
