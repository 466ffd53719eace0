package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

func TestAgreeCommand(t *testing.T) {
	dir := sharedtest.WriteTree(t, map[string]string{
		"a.qrels": "q1 0 a 1\nq1 0 b 1\nq1 0 c 0\nq1 0 d 0\nq2 0 e 2\nq2 0 f 0\n",
		"b.qrels": "q1 0 a 1\nq1 0 b 0\nq1 0 c 0\nq1 0 d 0\nq2 0 e 2\nq3 0 g 1\n",
		// x ranks a first (relevant to q1 under A and B), y ranks b first (relevant under A only).
		"x.run": "q1 Q0 a 1 2 x\nq1 Q0 b 2 1 x\n",
		"y.run": "q1 Q0 b 1 2 y\nq1 Q0 c 2 1 y\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	out, errOut, rc := runCmd("agree", p("a.qrels"), p("b.qrels"))
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, errOut)
	}
	// Binary: O = [[2 0] [1 2]], p_o = 4/5, p_e = 12/25: κ = 8/13 = 0.6154. Grades: p_o = 4/5,
	// rows (2 2 1), cols (3 1 1): p_e = 9/25, κ = 11/16 = 0.6875.
	for _, want := range []string{"5 pairs judged by both (1 by A only, 1 by B only)", "binary (grade >= 1)  0.6154", "unweighted           0.6875", "      1  1  1  0"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// P@1 on q1, q2 (q2 ranked by neither: 0): x 1/2 under both; y 1/2 under A, 0 under B. The one
	// pair of runs is tied under A only: P + Q = 0, so τ-b = 0/√(1·0) is undefined (null).
	out, errOut, rc = runCmd("agree", "-m", "P@1", "-f", "json", p("a.qrels"), p("b.qrels"), p("x.run"), p("y.run"))
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, errOut)
	}
	// A and B each judged a pair the other did not (q2 f, q3 g): with runs, the ranking mixes
	// coverage with disagreement, and agree says so.
	if !strings.Contains(errOut, "1 pair judged by A only and 1 by B only") {
		t.Errorf("stderr %q: want the coverage warning", errOut)
	}
	if _, errOut, _ := runCmd("agree", p("a.qrels"), p("b.qrels")); strings.Contains(errOut, "judged by A only") {
		t.Errorf("no runs: %q, want no coverage warning", errOut)
	}
	if !strings.Contains(out, `"role": "run 2"`) {
		t.Errorf("json without the stamp of its inputs:\n%s", out)
	}
	if out, _, _ := runCmd("agree", "-f", "json", "--no-stamp", p("a.qrels"), p("b.qrels")); strings.Contains(out, "provenance") {
		t.Error("--no-stamp: stamped")
	}
	var js struct {
		Kappa struct {
			Binary struct{ Value float64 }
		}
		Systems struct {
			MeanA []float64 `json:"mean_a"`
			MeanB []float64 `json:"mean_b"`
			TauB  *float64  `json:"tau_b"`
		}
	}
	if err := json.Unmarshal([]byte(out), &js); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if js.Kappa.Binary.Value != 8.0/13 || js.Systems.MeanA[0] != 0.5 || js.Systems.MeanA[1] != 0.5 || js.Systems.MeanB[1] != 0 || js.Systems.TauB != nil {
		t.Errorf("json: %+v\n%s", js, out)
	}
	for _, bad := range [][]string{{"agree", p("a.qrels")}, {"agree", p("a.qrels"), p("b.qrels"), p("x.run")}, {"agree", "-l", "0", p("a.qrels"), p("b.qrels")}, {"agree", "--labels", "0,x", p("a.qrels"), p("b.qrels")}} {
		if _, _, rc := runCmd(bad...); rc != 2 {
			t.Errorf("%v: rc %d, want 2", bad[1:], rc)
		}
	}
}

// TestAgreeOneMeasureMessage is part of defect 16 of issue 33: -m with a set of measures said
// "want one measure (<nil>)".
func TestAgreeOneMeasureMessage(t *testing.T) {
	for _, m := range []string{"all_trec", "ndcg_cut", "P.5,10"} {
		_, errOut, rc := runCmd("agree", "-m", m, "a.qrels", "b.qrels")
		if rc != 2 || strings.Contains(errOut, "<nil>") || !strings.Contains(errOut, "one measure") {
			t.Errorf("-m %s: rc %d, %q; want a usage error that says agree ranks by one measure", m, rc, errOut)
		}
	}
	if _, errOut, rc := runCmd("agree", "-m", "nosuch@3", "a.qrels", "b.qrels"); rc != 2 || !strings.Contains(errOut, "nosuch") {
		t.Errorf("-m nosuch@3: rc %d, %q", rc, errOut)
	}
}

// TestAgreeWarnsOnlyRelevant: a qrels file that lists only relevant documents (Cranfield's own)
// judged no pair not relevant; agree on it gives binary κ 0 without a word unless it says so.
func TestAgreeWarnsOnlyRelevant(t *testing.T) {
	dir := sharedtest.WriteTree(t, map[string]string{
		"official.qrels": "q1 0 a 1\nq1 0 b 3\nq2 0 e 2\n",
		"judge.qrels":    "q1 0 a 1\nq1 0 b 0\nq2 0 e 2\nq2 0 f 0\n",
		"people.qrels":   "q1 0 a 1\nq1 0 b 0\nq2 0 e 0\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	out, errOut, rc := runCmd("agree", p("official.qrels"), p("judge.qrels"))
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, errOut)
	}
	// A calls all 3 common pairs relevant, B 2 of them: p_o = p_e = 2/3, κ = 0.
	if !strings.Contains(out, "binary (grade >= 1)  0.0000") {
		t.Errorf("binary κ not 0:\n%s", out)
	}
	if !strings.Contains(errOut, "official.qrels grades every pair it lists 1 or more") || strings.Contains(errOut, "judge.qrels grades") {
		t.Errorf("stderr %q: want a warning naming official.qrels only", errOut)
	}
	// With -l 2, official.qrels grades a pair below the level: no warning.
	if _, errOut, _ := runCmd("agree", "-l", "2", p("official.qrels"), p("judge.qrels")); strings.Contains(errOut, "warning") {
		t.Errorf("-l 2: %q, want no warning", errOut)
	}
	if _, errOut, _ := runCmd("agree", p("people.qrels"), p("judge.qrels")); strings.Contains(errOut, "warning") {
		t.Errorf("judges that both grade 0: %q, want no warning", errOut)
	}
}
