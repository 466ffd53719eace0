package check

import (
	"slices"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/eval"
)

func hasFinding(fs []Finding, sev Severity, code string) bool {
	for _, f := range fs {
		if f.Severity == sev && f.Code == code {
			return true
		}
	}
	return false
}

// runSeeds are inputs of every kind the reader meets: well formed, broken in each checked way.
// cleanFor checks the findings of a lenient read of file (lines lines long): each names the file
// and a line in it (or the line after, or 0). It reports whether the file is clean for eval's
// readers (no parse, duplicate or empty-file error) and whether eval's readers can be compared
// with the lenient one at all (not when it holds "#" lines, blank lines or a byte-order mark,
// on which they differ).
func cleanFor(t *testing.T, findings []Finding, lines int, file string) (clean, comparable bool) {
	t.Helper()
	for _, fd := range findings {
		if fd.Line < 0 || fd.Line > lines+1 || fd.File != file {
			t.Fatalf("finding out of the file: %+v (%d lines)", fd, lines)
		}
	}
	clean = !hasFinding(findings, Error, codeParse) && !hasFinding(findings, Error, codeDuplicate) &&
		!hasFinding(findings, Error, codeEmpty)
	comparable = !hasFinding(findings, Warning, codeComment) && !hasFinding(findings, Warning, codeBlank) &&
		!hasFinding(findings, Warning, codeBOM)
	return clean, comparable
}

var runSeeds = []string{
	"q1 Q0 d1 1 2.5 t\nq1 Q0 d2 2 1 t\n",
	"\xef\xbb\xbfq1 Q0 d1 1 2.5 t\n",
	"q1 Q0 d1 1 2.5 t\n\nq1 Q0 d2 2 1 t\n",
	"# comment\nq1 Q0 d1 1 2.5 t\n",
	"q1 Q0 d1 1 2.5 t\nq1 Q0 d1 2 1 t\n",
	"q1 Q0 d1 1 nan t\nq1 Q0 d2 x 1e309 t\n",
	"q1 Q0 d\x01 1 1 t\nq\u00a01 Q0 d# 1 1 t extra fields\n",
	"q1 Q0 d1 1 1 t\r\nq2 Q0 d\"x 1 -0.5e2 t\r\n",
	"q1 Q0 d1\n",
	"",
}

// FuzzReadRun checks that the lenient reader never panics, keeps each doc of a query once, and
// agrees with eval.ReadRun: a run without errors or comment lines reads the same with eval.
func FuzzReadRun(f *testing.F) {
	for _, s := range runSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rf := readRun(strings.NewReader(s), "run")
		for q, docs := range rf.queries {
			seen := map[string]bool{}
			for _, d := range docs {
				if seen[d.doc] {
					t.Fatalf("query %q keeps doc %q twice", q, d.doc)
				}
				seen[d.doc] = true
			}
		}
		clean, comparable := cleanFor(t, rf.findings, rf.lines, "run")
		if !comparable {
			return
		}
		run, err := eval.ReadRun(strings.NewReader(s), "run")
		if clean != (err == nil) {
			t.Fatalf("check says clean=%v, eval says %v\n%q", clean, err, s)
		}
		if err != nil {
			return
		}
		if len(run.Queries) != len(rf.queries) {
			t.Fatalf("eval has %d queries, check %d", len(run.Queries), len(rf.queries))
		}
		for q, docs := range run.Queries {
			got := rf.queries[q]
			if len(got) != len(docs) {
				t.Fatalf("query %q: eval %d docs, check %d", q, len(docs), len(got))
			}
			for i := range docs {
				if docs[i].Doc != got[i].doc || docs[i].Score != got[i].score {
					t.Fatalf("query %q doc %d: eval %+v, check %+v", q, i, docs[i], got[i])
				}
			}
		}
	})
}

var qrelsSeeds = []string{
	"q1 0 d1 1\nq1 0 d2 0\n",
	"query-id\tcorpus-id\tscore\nq1\td1\t1\n",
	"query-id\tcorpus\tscore\nq1\td1\t1\n",
	"q1 0 d1 1\nq1 0 d1 2\n",
	"q1 0 d1 x\nq1 d1 1\n",
	"\xef\xbb\xbfq1 0 d1 1\n",
	"q1 0 d1 -1\n\n",
	"query-id\tcorpus-id\tscore\n",
	"q\x7f 0 d1 1\n",
}

// FuzzReadQrels checks the qrels reader the same way against eval.ReadQrels (BEIR TSV or TREC
// qrels).
func FuzzReadQrels(f *testing.F) {
	for _, s := range qrelsSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		qf := readQrels(strings.NewReader(s), "qrels")
		clean, comparable := cleanFor(t, qf.findings, qf.lines, "qrels")
		if !comparable {
			return
		}
		q, err := eval.ReadQrels(strings.NewReader(s), "qrels")
		if clean != (err == nil) {
			t.Fatalf("check says clean=%v, eval says %v\n%q", clean, err, s)
		}
		if err != nil {
			return
		}
		if len(q) != len(qf.judged) {
			t.Fatalf("eval %d queries, check %d", len(q), len(qf.judged))
		}
		for qid, docs := range q {
			for d, g := range docs {
				if qf.judged[qid][d] != g {
					t.Fatalf("%s/%s: eval %d, check %d", qid, d, g, qf.judged[qid][d])
				}
			}
		}
	})
}

func TestNormalize(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		why      []string
	}{
		{"01", "1", []string{"leading zeros"}},
		{"Q1", "q1", []string{"case"}},
		{"1\u00a0", "1", []string{"spaces or invisible characters"}},
		{"000", "0", []string{"leading zeros"}},
		{"0", "0", nil},
		{"d01", "d01", nil},
	} {
		got, why := normalize(tc.in)
		if got != tc.want || !slices.Equal(why, tc.why) {
			t.Errorf("normalize(%q) = %q %v, want %q %v", tc.in, got, why, tc.want, tc.why)
		}
	}
}
