package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -test tukey compares every pair of three runs; the third run is written here: it puts the
// relevant document first on every query, so it leads on RR.
func TestCompareCommandTukey(t *testing.T) {
	third := filepath.Join(t.TempDir(), "run.c")
	data := "q1 Q0 d1 1 3 c\nq2 Q0 d4 1 3 c\nq3 Q0 d5 1 3 c\nq4 Q0 d6 1 3 c\n"
	if err := os.WriteFile(third, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	files := []string{cmpData + "/qrels", cmpData + "/run.a", cmpData + "/run.b", third}
	out, errOut, rc := runCmd(append([]string{"compare", "-m", "RR", "-test", "tukey", "-permutations", "500"}, files...)...)
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, errOut)
	}
	for _, w := range []string{"RR over 4 queries, 3 runs, 3 pairs", "Tukey HSD (blocked by query", "randomised Tukey (500 permutations, seed 42)", "c − ", "HSD letters"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	out, errOut, rc = runCmd(append([]string{"compare", "-m", "RR", "-test", "tukey", "-standardize", "-f", "html"}, files...)...)
	if rc != 0 || !strings.Contains(out, "<table") || !strings.Contains(out, "standardised scores") {
		t.Errorf("-standardize -f html: rc %d %s\n%s", rc, errOut, out)
	}
	for _, bad := range [][]string{{"-test", "tukey", "-f", "csv"}, {"-standardize"}} {
		_, errOut, rc := runCmd(append(append([]string{"compare", "-m", "RR"}, bad...), files...)...)
		if rc != 2 {
			t.Errorf("%v: rc %d (%s), want 2", bad, rc, errOut)
		}
	}
}
