package check

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

// files writes qrels and runs into a temporary folder and returns their paths.
func files(t *testing.T, qrels string, runs ...string) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	qp := sharedtest.WriteFile(t, dir, "qrels", qrels)
	var rps []string
	for i, r := range runs {
		p := sharedtest.WriteFile(t, dir, "run"+string(rune('a'+i)), r)
		rps = append(rps, p)
	}
	return qp, rps
}

// find returns the findings of one code.
func find(r Report, code string) []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Code == code {
			out = append(out, f)
		}
	}
	return out
}

const goodQrels = "1 0 a 1\n1 0 b 0\n2 0 c 2\n2 0 d 0\n3 0 e 1\n"

func TestChecks(t *testing.T) {
	for _, tc := range []struct {
		name     string
		qrels    string
		run      string
		code     string
		severity Severity
		line     int
		message  string // a part of the message
	}{
		{"bom", goodQrels, "\xef\xbb\xbf1 Q0 a 1 2 t\n2 Q0 c 1 1 t\n", codeBOM, Warning, 1, `first ID ("\ufeff1")`},
		{"duplicate", goodQrels, "1 Q0 a 1 2 t\n1 Q0 b 2 1 t\n1 Q0 a 3 0.5 t\n", codeDuplicate, Error, 3, `doc "a" listed twice for query "1" (first on line 1)`},
		{"rank order", goodQrels, "1 Q0 a 1 1 t\n1 Q0 b 2 2 t\n", codeRankOrder, Warning, 2, `rank 2 scores 2, above rank 1's 1`},
		{"rank not integer", goodQrels, "1 Q0 a x 1 t\n", codeRankOrder, Warning, 1, `not an integer`},
		{"control character", goodQrels, "1 Q0 a\x01 1 1 t\n", codeIDChars, Error, 1, `control character U+0001`},
		{"invisible", goodQrels, "1 Q0 a\u200b 1 1 t\n", codeIDChars, Error, 1, `invisible or space character U+200B: it looks like "a"`},
		{"hash", goodQrels, "1 Q0 D1#2 1 1 t\n", codeIDChars, Warning, 1, `holds "#"`},
		{"quote", goodQrels, "1 Q0 'a' 1 1 t\n", codeIDChars, Warning, 1, `holds a quote`},
		{"leading zero", goodQrels, "01 Q0 a 1 1 t\n2 Q0 c 1 1 t\n", codeNearMatch, Error, 1, `run query "01" is not in the qrels but nearly matches qrels query "1" (leading zeros)`},
		{"case", "Q1 0 a 1\n", "q1 Q0 a 1 1 t\n", codeNearMatch, Error, 1, `(case)`},
		{"one side", goodQrels, "1 Q0 a 1 1 t\n9 Q0 a 1 1 t\n", codeOneSide, Warning, 0, `2 queries of the qrels have no ranking in the run ("2", "3")`},
		{"no shared query", goodQrels, "7 Q0 a 1 1 t\n", codeNoOverlap, Error, 0, `shares no query with the qrels`},
		{"no judged doc", goodQrels, "1 Q0 A 1 1 t\n", codeNoOverlap, Error, 0, `run doc "A" nearly matches judged doc "a" of query "1"`},
		{"no relevant", goodQrels + "4 0 f 0\n", "1 Q0 a 1 1 t\n", codeNoRelevant, Warning, 0, `query "4" has no relevant doc`},
		{"blank line", goodQrels, "1 Q0 a 1 1 t\n\n1 Q0 b 2 0.5 t\n", codeBlank, Warning, 2, `blank line`},
		{"comment line", goodQrels, "# run\n1 Q0 a 1 1 t\n", codeComment, Warning, 1, `comment line`},
		{"parse", goodQrels, "1 Q0 a 1 high t\n1 Q0 b 1\n", codeParse, Error, 1, `score "high" is not a finite number`},
		{"ties", goodQrels, "1 Q0 a 1 1 t\n1 Q0 b 2 1 t\n2 Q0 c 1 1 t\n", codeTies, Warning, 0, `1 query is tie-sensitive ("1")`},
		{"grades", goodQrels, "1 Q0 a 1 1 t\n", codeGrades, Info, 0, `3 queries, grades 0: 2, 1: 2, 2: 1; binary measures count grade >= 1 as relevant (-l 1); nDCG uses grades 1..2`},
		{"unjudged", goodQrels, "1 Q0 a 1 3 t\n1 Q0 x 2 2 t\n1 Q0 y 3 1 t\n", codeUnjudged, Warning, 0, `66.7% of the top 10 docs are unjudged (2 of 3`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			qp, rps := files(t, tc.qrels, tc.run)
			r, err := Files(qp, rps, Options{})
			if err != nil {
				t.Fatal(err)
			}
			fs := find(r, tc.code)
			for _, f := range fs {
				if f.Severity == tc.severity && f.Line == tc.line && strings.Contains(f.Message, tc.message) {
					if tc.severity == Error && r.OK() {
						t.Errorf("OK() with an error finding")
					}
					return
				}
			}
			t.Errorf("no %s %s finding on line %d containing %q; findings:\n%s", tc.severity, tc.code, tc.line, tc.message, r.Text())
		})
	}
}

func TestCleanRunAndGzip(t *testing.T) {
	qp, rps := files(t, goodQrels, "1 Q0 a 1 2 t\n1 Q0 b 2 1 t\n2 Q0 c 1 1 t\n3 Q0 e 1 1 t\n")
	gz := rps[0] + ".gz"
	data, _ := os.ReadFile(rps[0])
	if err := os.WriteFile(gz, sharedtest.Gzip(data), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Files(qp, []string{rps[0], gz}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.OK() || r.count(Warning) != 0 {
		t.Fatalf("a clean run has findings:\n%s", r.Text())
	}
	if r.Runs[0] != (runSummary{Path: rps[0], Queries: 3, Shared: 3, TopK: 4, TieSensitive: 0}) || r.Runs[1].Queries != 3 {
		t.Errorf("summaries %+v", r.Runs)
	}
	var back map[string]any
	if err := json.Unmarshal(r.JSON(), &back); err != nil || back["errors"] != 0.0 {
		t.Errorf("JSON: %v %v", err, back["errors"])
	}
}

func TestRunOK(t *testing.T) {
	qp, rps := files(t, goodQrels, "1 Q0 a 1 1 t\n", "7 Q0 a 1 1 t\n")
	r, err := Files(qp, rps, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.runOK(0) || r.runOK(1) {
		t.Errorf("RunOK = %v, %v; want true, false\n%s", r.runOK(0), r.runOK(1), r.Text())
	}
}
