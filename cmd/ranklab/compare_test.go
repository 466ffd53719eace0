package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

const cmpData = "../../compare/testdata"

func TestCompareCommandFormats(t *testing.T) {
	files := []string{cmpData + "/qrels", cmpData + "/run.a", cmpData + "/run.b"}
	tests := []struct {
		format string
		want   []string
	}{
		{"text", []string{"a (baseline)", "3/0/1", "scored 0: q3", "ignored: q9", "p(perm) Holm"}},
		{"md", []string{"| run |", "(baseline)", "3/0/1"}},
		{"latex", []string{`\toprule`, `\bottomrule`, `a (baseline)`}},
		{"csv", []string{"run,is_baseline,measure", ",P@2,4,"}},
		{"html", []string{"<table", "a (baseline)</td>", "scored 0: q3"}},
	}
	for _, tc := range tests {
		t.Run(tc.format, func(t *testing.T) {
			out, errOut, rc := runCmd(append([]string{"compare"}, append(files, "-m", "P@2", "-m", "RR", "-f", tc.format)...)...)
			if rc != 0 {
				t.Fatalf("rc %d: %s", rc, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if tc.format != "text" && !strings.Contains(errOut, "note: run") {
				t.Errorf("notes not on stderr: %q", errOut)
			}
		})
	}
}

func TestCompareCommandJSONAndSeed(t *testing.T) {
	args := []string{cmpData + "/qrels", cmpData + "/run.a", cmpData + "/run.b", "-m=P@2", "--test", "perm", "--seed", "7", "--permutations", "999", "-f", "json"}
	out, errOut, rc := runCmd(append([]string{"compare"}, args...)...)
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, errOut)
	}
	var r struct {
		Tests        string `json:"tests"`
		Seed         uint64 `json:"seed"`
		Permutations int    `json:"permutations"`
		Comparisons  []struct {
			PT    *float64 `json:"p_t"`
			PPerm *float64 `json:"p_perm"`
			Diffs []float64
		} `json:"comparisons"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Tests != "perm" || r.Seed != 7 || r.Permutations != 999 || len(r.Comparisons) != 1 {
		t.Fatalf("%+v", r)
	}
	c := r.Comparisons[0]
	// P@2 differences (see compare/testdata/README.md): b - a = (1/2, 1/2, -1/2, 1/2).
	want := []float64{0.5, 0.5, -0.5, 0.5}
	for k := range want {
		if c.Diffs[k] != want[k] {
			t.Errorf("diffs %v, want %v", c.Diffs, want)
		}
	}
	if c.PT != nil || c.PPerm == nil {
		t.Errorf("p_t %v p_perm %v with --test perm", c.PT, c.PPerm)
	}
	again, _, _ := runCmd(append([]string{"compare"}, args...)...)
	if again != out {
		t.Error("same seed, different output")
	}
}

func TestCompareCommandErrors(t *testing.T) {
	dir := t.TempDir()
	other := sharedtest.WriteFile(t, dir, "other.run", "x1 Q0 d1 1 1 t\n")
	bad := sharedtest.WriteFile(t, dir, "bad.run", "q1 Q0 d1 1 1 t\nq1 Q0 d2\n")
	q, a := cmpData+"/qrels", cmpData+"/run.a"
	tests := []struct {
		name string
		args []string
		rc   int
		want string
	}{
		{"one run", []string{q, a}, 2, "need QRELS and at least two runs, got 2 file(s)"},
		{"bad test", []string{q, a, a, "--test", "z"}, 2, `unknown test "z"`},
		{"bad format", []string{q, a, a, "-f", "xml"}, 2, `unknown format "xml"`},
		{"bad seed", []string{q, a, a, "--seed", "x"}, 2, `invalid value "x" for flag -seed`},
		{"zero seed", []string{q, a, a, "-seed=0"}, 2, `flag -seed: 0 is not a seed`},
		{"level", []string{q, a, a, "-level", "1.5"}, 2, `-level 1.5 and -alpha 0.05: want numbers in (0, 1)`},
		{"unknown flag", []string{q, a, a, "-x"}, 2, `flag provided but not defined: -x`},
		{"too many resamples", []string{q, a, a, "--resamples", "10000001"}, 2, "-resamples: 10000001 is more than 10000000"},
		{"bad measure", []string{q, a, a, "-m", "nope@3"}, 2, "nope"},
		{"missing file", []string{q, a, filepath.Join(dir, "missing")}, 1, "missing"},
		{"malformed run", []string{q, a, bad}, 1, "bad.run:2"},
		{"no shared queries", []string{q, other, other}, 1, "no run ranks any of the 4 qrels queries"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, rc := runCmd(append([]string{"compare"}, tc.args...)...)
			if rc != tc.rc || !strings.Contains(errOut, tc.want) {
				t.Errorf("rc %d (want %d), stderr %q lacks %q", rc, tc.rc, errOut, tc.want)
			}
		})
	}
	if out, _, rc := runCmd("compare", "-h"); rc != 0 || !strings.Contains(out, "usage: ranklab compare") {
		t.Errorf("help: rc %d", rc)
	}
}
