package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

// TestPPICommand: 8 queries, each with one relevant doc under the judge; people judged q1..q4.
// The run puts d1 first everywhere: P@1 under the judge is 1 on q1..q6, 0 on q7, q8 (mean 0.75,
// var 0.1875); under people 1 on q1, q2 and 0 on q3, q4 (mean 0.5, var 0.25).
func TestPPICommand(t *testing.T) {
	var human, auto, run strings.Builder
	for i := 1; i <= 8; i++ {
		q := fmt.Sprintf("q%d", i)
		rel := "d1"
		if i >= 7 {
			rel = "d2"
		}
		fmt.Fprintf(&auto, "%s 0 %s 1\n", q, rel)
		if i <= 4 {
			g := 0
			if i <= 2 {
				g = 1
			}
			fmt.Fprintf(&human, "%s 0 d1 %d\n", q, g)
		}
		fmt.Fprintf(&run, "%s Q0 d1 1 2 r\n%s Q0 d2 2 1 r\n", q, q)
	}
	dir := sharedtest.WriteTree(t, map[string]string{"human": human.String(), "auto": auto.String(), "run": run.String()})
	f := func(n string) string { return filepath.Join(dir, n) }
	out, errOut, rc := runCmd("ppi", "-m", "P@1", f("human"), f("auto"), f("run"))
	if rc != 0 {
		t.Fatalf("exit %d: %s", rc, errOut)
	}
	z := 1.959963984540054
	naive := fmt.Sprintf("0.7500  [%.4f, %.4f]", 0.75-z*math.Sqrt(0.1875/8), 0.75+z*math.Sqrt(0.1875/8))
	humanOnly := fmt.Sprintf("0.5000      [%.4f, %.4f]", 0.5-z*math.Sqrt(0.25/4), 0.5+z*math.Sqrt(0.25/4))
	for _, want := range []string{"4 queries judged by people", "the other 4 by the automatic judge alone", naive, humanOnly} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if _, errOut, rc := runCmd("ppi", "--simulate", "100", "--sample", "3", f("human"), f("auto"), f("run")); rc != 1 || !strings.Contains(errOut, "judges 4 of the 8 queries") {
		t.Errorf("simulate with a partial truth: exit %d, %s", rc, errOut)
	}
	out, errOut, rc = runCmd("ppi", "--simulate", "200", "--sample", "4", "-m", "P@1", f("auto"), f("auto"), f("run"))
	// The judge is the truth here: every interval covers, and the naive one has no bias.
	if rc != 0 || !strings.Contains(out, "Coverage of 95% intervals of the mean P@1 over 200 draws") || !strings.Contains(out, "mean over runs") {
		t.Errorf("simulate: exit %d, %s\n%s", rc, errOut, out)
	}
}
