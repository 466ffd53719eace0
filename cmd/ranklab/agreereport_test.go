package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

func TestAgreeReport(t *testing.T) {
	dir := sharedtest.WriteTree(t, map[string]string{
		"human.qrels": "q1 0 a 2\nq1 0 b 0\nq1 0 c 1\nq2 0 d 0\nq2 0 e 3\n",
		"auto.qrels":  "q1 0 a 2\nq1 0 b 3\nq1 0 c 0\nq2 0 d 0\nq2 0 e 3\n",
		"good":        "q1 Q0 a 1 3 g\nq1 Q0 c 2 2 g\nq1 Q0 b 3 1 g\nq2 Q0 e 1 2 g\nq2 Q0 d 2 1 g\n",
		"mid":         "q1 Q0 c 1 3 m\nq1 Q0 a 2 2 m\nq1 Q0 b 3 1 m\nq2 Q0 d 1 2 m\nq2 Q0 e 2 1 m\n",
	})
	f := func(n string) string { return filepath.Join(dir, n) }
	page := f("report.html")
	out, errOut, rc := runCmd("agree", "--report", "--html", page, "--rerank", "mid", "-m", "P@1", "--resamples", "100",
		f("human.qrels"), f("auto.qrels"), f("good"), f("mid"))
	if rc != 0 {
		t.Fatalf("exit %d: %s", rc, errOut)
	}
	for _, want := range []string{"Verdict: ", "bootstrap interval over queries", "base rate (grade >= 1): A 60.0%, B 60.0%",
		"Adversarial check (Clarke & Dietz 2024): mid+judge-rerank", "lifted: YES",
		// 2 runs: one pair, whose swap moves τ by 2/C(2,2) = 2 (from 1 to −1); 2 queries.
		"The verdict is on the ranking of the runs only: 2 runs (one pair swapped moves τ by 2.0000) on 2 queries",
		"the adversarial run is LIFTED (below)"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if b, err := os.ReadFile(page); err != nil || !strings.Contains(string(b), "Can auto.qrels stand in for human.qrels?") {
		t.Errorf("page: %v", err)
	}
	if _, errOut, rc := runCmd("agree", "--report", f("human.qrels"), f("auto.qrels"), f("good")); rc != 2 || !strings.Contains(errOut, "at least 2") {
		t.Errorf("one run: exit %d, %s", rc, errOut)
	}
}
