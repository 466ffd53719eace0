package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/sharedtest"
)

// anchorsDir returns ../shared/anchors/trec_eval next to the module root, or skips.
func anchorsDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "anchors", "trec_eval")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("../shared/anchors/trec_eval is absent")
	}
	return dir
}

// TestEvalTrecEvalCommands runs each trec_eval command line of the anchor cases unchanged
// through ranklab eval and compares the output with trec_eval's.
func TestEvalTrecEvalCommands(t *testing.T) {
	root := anchorsDir(t)
	cmdsFiles, _ := filepath.Glob(filepath.Join(root, "*", "CMDS"))
	if len(cmdsFiles) == 0 {
		t.Fatal("no CMDS files")
	}
	for _, cmds := range cmdsFiles {
		dir := filepath.Dir(cmds)
		data, err := os.ReadFile(cmds)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			cmd, comment, _ := strings.Cut(line, "#")
			cf := strings.Fields(comment)
			tag := strings.TrimSuffix(strings.TrimPrefix(cf[1], "out."), ".*")
			args := strings.Fields(cmd)[1:]
			n := len(args)
			args[n-2], args[n-1] = filepath.Join(dir, args[n-2]), filepath.Join(dir, args[n-1])
			t.Run(filepath.Base(dir)+"/"+tag, func(t *testing.T) {
				var out, errOut bytes.Buffer
				rc := runEval(args, &out, &errOut)
				switch {
				case strings.HasPrefix(filepath.Base(dir), "12_"):
					if rc != 2 || !strings.Contains(errOut.String(), `run:2: duplicate doc: "a"`) || out.Len() != 0 {
						t.Errorf("rc=%d stderr %q, want 2 and the duplicate doc with its line", rc, errOut.String())
					}
					return
				case cf[2] != "rc=0": // 11 without -c: trec_eval 10.0 exits 4, so does ranklab, naming the queries
					if rc != 4 || !strings.Contains(errOut.String(), "has no ranking in the run: q1") || !strings.Contains(errOut.String(), "-c") ||
						!strings.Contains(errOut.String(), "--trec-eval-9") || out.Len() != 0 {
						t.Errorf("rc=%d stdout %q stderr %q, want 4 and a message naming q1, -c and --trec-eval-9", rc, out.String(), errOut.String())
					}
				default:
					if rc != 0 {
						t.Fatalf("rc=%d: %s", rc, errOut.String())
					}
					compareFile(t, out.String(), filepath.Join(dir, "out."+tag+".v10.txt"))
				}
				// trec_eval 9.0.8's output with --trec-eval-9, for every case.
				out.Reset()
				errOut.Reset()
				if rc := runEval(append([]string{"--trec-eval-9"}, args...), &out, &errOut); rc != 0 {
					t.Fatalf("--trec-eval-9: rc=%d: %s", rc, errOut.String())
				}
				compareFile(t, out.String(), filepath.Join(dir, "out."+tag+".v9.txt"))
			})
		}
	}
}

// compareFile compares got with the file want.
func compareFile(t *testing.T, got, want string) {
	t.Helper()
	w, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(w) {
		t.Errorf("output differs from %s:\n%s\nwant\n%s", filepath.Base(want), got, w)
	}
}

func TestParseEvalArgs(t *testing.T) {
	official := []string{"official"}
	tests := []struct {
		args     []string
		perQuery bool
		opt      eval.Options
		measures []string
		digits   int
		format   string
	}{
		{[]string{"q", "r"}, false, eval.Options{}, official, 0, "trec"},
		{[]string{"-q", "-c", "-l", "2", "-M", "100", "-m", "P.5", "q", "r"}, true, eval.Options{RelLevel: 2, Depth: 100, AllQueries: true}, []string{"P.5"}, 0, "trec"},
		{[]string{"-l2", "-M100", "-mP.5", "-mndcg_cut.10", "q", "r"}, false, eval.Options{RelLevel: 2, Depth: 100}, []string{"P.5", "ndcg_cut.10"}, 0, "trec"},
		{[]string{"-qc", "-ml2", "q", "r"}, true, eval.Options{AllQueries: true}, []string{"l2"}, 0, "trec"},
		{[]string{"-digits", "10", "-f", "json", "q", "r"}, false, eval.Options{}, official, 10, "json"},
		{[]string{"--digits=6", "-fcsv", "-m", "nDCG(dcg=exp-log2)@10", "q", "r"}, false, eval.Options{}, []string{"nDCG(dcg=exp-log2)@10"}, 6, "csv"},
		{[]string{"q", "-q", "r"}, true, eval.Options{}, official, 0, "trec"},
		{[]string{"-JqN", "1000", "--trec-eval-9", "-a", "q", "r"}, true, eval.Options{JudgedOnly: true, NumDocs: 1000, TrecEval9: true}, []string{"all_trec"}, 0, "trec"},
		{[]string{"--complete_rel_info_wanted", "--level_for_rel=3", "--meas", "map", "--", "q", "r"}, false, eval.Options{AllQueries: true, RelLevel: 3}, []string{"map"}, 0, "trec"},
		{[]string{"-o", "-T", "trec_results", "-D", "0", "q", "r"}, false, eval.Options{}, official, 0, "trec"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			a, err := parseEvalArgs(tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if a.perQuery != tc.perQuery || a.opt != tc.opt || !slices.Equal(a.measureArgs, tc.measures) || a.digits != tc.digits || a.format != tc.format || a.qrels != "q" || a.run != "r" {
				t.Errorf("got %+v", a)
			}
		})
	}
	for _, bad := range [][]string{{"q"}, {"q", "r", "x"}, {"-x", "q", "r"}, {"-l", "q", "r"}, {"-l0", "q", "r"}, {"-lx", "q", "r"},
		{"-M0", "q", "r"}, {"-M-5", "q", "r"}, {"-f", "xml", "q", "r"}, {"-digits", "-1", "q", "r"}, {"q", "r", "-m"}, {"-R", "xml", "q", "r"},
		{"-T", "xml", "q", "r"}, {"--nosuch", "q", "r"}, {"-", "-"}, {"-D", "x", "q", "r"}} {
		if a, err := parseEvalArgs(bad); err == nil {
			t.Errorf("parseEvalArgs(%q) = %+v, want an error", bad, a)
		}
	}
}

func TestEvalHelpAndErrors(t *testing.T) {
	out, _, rc := runCmd("eval", "-h")
	if rc != 0 {
		t.Errorf("-h: rc=%d", rc)
	}
	for _, flag := range []string{"-q", "-c", "-n", "-l N", "-M N", "-J", "-N N", "-R FORMAT", "-T FORMAT", "-Z FILE", "-D N[.qid]", "-o", "-a", "-v", "--trec-eval-9", "-m MEASURE", "-digits N", "-f FORMAT", "-h"} {
		if !strings.Contains(out, "\n  "+flag) {
			t.Errorf("-h does not document %s", flag)
		}
	}
	// The measures trec_eval lacks come from eval's family table (Judged@k among them).
	irOnly := eval.IROnlyNames()
	if !slices.Contains(irOnly, "Judged@k") || !strings.Contains(out, "\n  ir_measures "+strings.Join(irOnly, " ")+" (no trec_eval name)\n") {
		t.Errorf("-h does not list the ir_measures-only measures %v:\n%s", irOnly, out)
	}
	dir := t.TempDir()
	qrels := sharedtest.WriteFile(t, dir, "qrels", "q1 0 a 1\nq1 0 b x\n")
	run := sharedtest.WriteFile(t, dir, "run", "q1 Q0 a 1 1 t\n")
	if out, errOut, rc := runCmd("eval", qrels, run); rc != 2 || !strings.Contains(errOut, qrels+":2: grade is not an integer") || out != "" {
		t.Errorf("rc=%d stdout %q stderr %q", rc, out, errOut)
	}
}

func TestEvalFormats(t *testing.T) {
	dir := t.TempDir()
	qrels := sharedtest.WriteFile(t, dir, "qrels", "q1 0 a 1\nq2 0 b 2\n")
	run := sharedtest.WriteFile(t, dir, "run", "q1 Q0 a 1 1 t\nq1 Q0 c 2 0.5 t\nq2 Q0 c 1 3 t\nq2 Q0 b 2 2 t\n")
	out, errOut, rc := runCmd("eval", "-q", "-f", "csv", "--no-stamp", "-m", "RR", "-m", "num_ret", qrels, run)
	if rc != 0 {
		t.Fatal(errOut)
	}
	// Columns in trec_eval's order (num_ret before recip_rank), as -m gives them.
	want := "query,NumRet,RR\nq1,2,1\nq2,2,0.5\nall,4,0.75\n"
	if out != want {
		t.Errorf("csv:\n%s\nwant\n%s", out, want)
	}
	if out, errOut, rc = runCmd("eval", "-f", "json", "-m", "RR", qrels, run); rc != 0 {
		t.Fatal(errOut)
	}
	if !strings.Contains(out, `"means": [`+"\n    0.75\n  ]") {
		t.Errorf("json:\n%s", out)
	}
}

// TestEvalWarnings: warnings name IDs with their control characters escaped, and a repeated -m
// of one measure warns about the list trec_eval ignores.
func TestEvalWarnings(t *testing.T) {
	dir := t.TempDir()
	qrels := sharedtest.WriteFile(t, dir, "qrels", "q1 0 a 1\n")
	run := sharedtest.WriteFile(t, dir, "run", "q1 Q0 a 1 1 t\nq\x1b[31mred Q0 a 1 1 t\nq\x07bell Q0 a 1 1 t\n")
	out, msg, rc := runCmd("eval", "-m", "P.5", "-m", "P.10", "-m", "map.5", qrels, run)
	if rc != 0 {
		t.Fatalf("rc=%d: %s", rc, msg)
	}
	if strings.ContainsAny(msg, "\x1b\x07") || !strings.Contains(msg, `"q\x1b[31mred"`) || !strings.Contains(msg, `"q\abell"`) {
		t.Errorf("warning does not escape control characters: %q", msg)
	}
	if !strings.Contains(msg, "-m P.10 ignored") || !strings.Contains(msg, "(P.5)") || !strings.Contains(msg, "map takes no parameters") {
		t.Errorf("no warning about the ignored -m lists: %q", msg)
	}
	if want := "P_5                   \tall\t0.2000\n"; !strings.Contains(out, want) || strings.Contains(out, "P_10") {
		t.Errorf("output %q, want P_5 only (trec_eval keeps the first list)", out)
	}
}

func FuzzParseEvalArgs(f *testing.F) {
	for _, s := range []string{"-q -c -l2 -mP.5 q r", "--measure=map -- -q r", "-Z z -R prefs q r", "-qcnJ -N 5 -M 3 q r", "-digits 3 -f csv q r", "--Rel q r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := parseEvalArgs(strings.Fields(s))
		if err == nil && !a.help && !a.version && (a.qrels == "" && a.run == "") {
			t.Fatalf("%q: no error and no files", s)
		}
		if err == nil && !a.help && !a.version {
			eval.TrecMeasures(a.measureArgs, a.opt.TrecEval9)
		}
	})
}

// TestEvalIgnoreIdenticalIDs: --ignore-identical-ids drops q1's own doc, so its relevant d2 moves
// from rank 3 to rank 2 (recip_rank 1/3 → 1/2); the stamp of the json output says so.
func TestEvalIgnoreIdenticalIDs(t *testing.T) {
	dir := sharedtest.WriteTree(t, map[string]string{
		"qrels": "q1 0 d2 1\n",
		"run":   "q1 Q0 q1 1 10 r\nq1 Q0 d3 2 9 r\nq1 Q0 d2 3 8 r\n",
	})
	q, r := filepath.Join(dir, "qrels"), filepath.Join(dir, "run")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "recip_rank            \tall\t0.3333\n"},
		{[]string{"--ignore-identical-ids"}, "recip_rank            \tall\t0.5000\n"},
	} {
		out, errOut, rc := runCmd(append(append([]string{"eval", "-m", "recip_rank"}, tc.args...), q, r)...)
		if rc != 0 || out != tc.want {
			t.Errorf("%v: rc %d %s: %q, want %q", tc.args, rc, errOut, out, tc.want)
		}
	}
	out, _, _ := runCmd("eval", "-f", "json", "--ignore-identical-ids", "-m", "recip_rank", q, r)
	if !strings.Contains(out, "ignore_identical_ids") {
		t.Errorf("json stamp does not name the option:\n%s", out)
	}
}
