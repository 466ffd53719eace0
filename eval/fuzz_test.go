package eval

import (
	"strings"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

// checkErrorNamesFile fails unless err is nil or a message starting with the file name.
func checkErrorNamesFile(t *testing.T, err error) {
	t.Helper()
	if err != nil && !strings.HasPrefix(err.Error(), "f:") {
		t.Errorf("error %q does not name the file", err)
	}
	if err != nil && len(err.Error()) > 600 {
		t.Errorf("error of %d bytes", len(err.Error()))
	}
}

func FuzzReadPrefs(f *testing.F) {
	for _, s := range []string{"q1 jg1 s1 d1 2\nq1 jg1 s1 d2 0\n", "q 0 a 1\n", "# c\nq j s d 1.5\n", "q j s d x\n", "", "\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		p, err := parsePrefs(strings.NewReader(in), "f")
		checkErrorNamesFile(t, err)
		_, err = parseQrelsPrefs(strings.NewReader(in), "f")
		checkErrorNamesFile(t, err)
		if err == nil && len(p) > 0 {
			// Every judgment read evaluates without a panic against a run of its own docs.
			run := Run{Queries: map[string][]ScoredDoc{}}
			for q, prefs := range p {
				seen := map[string]bool{}
				for i, pr := range prefs {
					if !seen[pr.Doc] {
						seen[pr.Doc] = true
						run.Queries[q] = append(run.Queries[q], ScoredDoc{Doc: pr.Doc, Score: float64(i % 3)})
					}
				}
			}
			ms, _ := ParseMeasures("all_prefs")
			Options{}.evaluatePrefs(p, run, ms...)
		}
	})
}

func FuzzReadQrelsJG(f *testing.F) {
	for _, s := range []string{"q1 1 d1 2\nq1 2 d1 0\n", "q 0 a 1\nq 0 a 1\n", "# c\n", "q j d x\n", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		_, err := parseQrelsJG(strings.NewReader(in), "f")
		checkErrorNamesFile(t, err)
	})
}

func FuzzReadZScores(f *testing.F) {
	for _, s := range []string{"q1 map 0.5 0.1\n", "q P_5 1 0\nq P_5 1 0\n", "q m x 1\n", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		_, err := parseZScores(strings.NewReader(in), "f")
		checkErrorNamesFile(t, err)
	})
}

// FuzzEvaluateRunFile checks the streaming path against ReadRun + Evaluate on any input: the
// same values, or the same error.
func FuzzEvaluateRunFile(f *testing.F) {
	for _, s := range []string{"q1 Q0 a 1 2 t\nq1 Q0 b 2 2 t\nq2 Q0 a 1 1 t\n", "q1 Q0 a 1 2 t\nq2 Q0 b 1 1 t\nq1 Q0 c 1 1 t\n",
		"# c\n\nq1 Q0 a 1 1e3 t x\r\n", "q1 Q0 a 1 2 t\nq1 Q0 a 1 2 t\n", "\xef\xbb\xbfq1 Q0 d 1 -0.5 t"} {
		f.Add(s)
	}
	qrels := Qrels{"q1": {"a": 1, "b": 0, "c": 2, "d": -1}, "q2": {"a": 3, "e": 1}}
	measures, _ := ParseMeasures("all_trec", "Judged@2", "nDCG(dcg=exp-log2)@3")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, in string) {
		p := sharedtest.WriteFile(t, dir, "run", in)
		sameAsReadRun(t, Options{AllQueries: true}, qrels, p, measures)
	})
}

func FuzzParseTrecMeasure(f *testing.F) {
	for _, s := range []string{"P.5,10", "iprec_at_recall..1,.2", "utility.2,-1,0,0", "ndcg.1=3,2=9", "rbp.p=0.5", "ndcg_cut.23.4", "P_5", "11pt_avg..25", "set_F.0.5,9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		ms, err := parseTrecMeasure(in)
		if err != nil {
			return
		}
		for _, m := range ms {
			back, err := ParseMeasure(m.String())
			if err != nil || back != m {
				t.Fatalf("%q gives %+v whose String %q parses to %+v, %v", in, m, m.String(), back, err)
			}
			if _, ok := m.TrecName(); !ok {
				t.Fatalf("%q gives %+v without a trec_eval name", in, m)
			}
		}
	})
}
