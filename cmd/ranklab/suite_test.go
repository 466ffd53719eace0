package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

// TestTrecEvalSuite runs every command of trec_eval 10.0's own test suite
// (../shared/anchors/trec_eval_suite/CMDS, its Makefile's quicktest) with `ranklab eval` in place
// of ./trec_eval and compares the output with the expected file byte for byte. It reports how
// many files and lines are identical.
func TestTrecEvalSuite(t *testing.T) {
	dir := sharedtest.Path(t, "anchors", "trec_eval_suite")
	cmds, err := os.ReadFile(filepath.Join(dir, "CMDS"))
	if err != nil {
		t.Fatal(err)
	}
	files, sameFiles, lines, sameLines := 0, 0, 0, 0
	for i, line := range strings.Split(strings.TrimSpace(string(cmds)), "\n") {
		cmd, expected, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("CMDS line %d has no tab: %q", i+1, line)
		}
		args := strings.Fields(cmd)
		if args[0] != "./trec_eval" {
			t.Fatalf("CMDS line %d does not run ./trec_eval: %q", i+1, line)
		}
		args = args[1:]
		for j, a := range args {
			if strings.HasPrefix(a, "test/") {
				args[j] = filepath.Join(dir, strings.TrimPrefix(a, "test/"))
			}
		}
		want, err := os.ReadFile(filepath.Join(dir, strings.TrimPrefix(expected, "test/")))
		if err != nil {
			t.Fatal(err)
		}
		t.Run(strings.TrimPrefix(expected, "test/")+"#"+strings.Join(strings.Fields(cmd)[1:], "_"), func(t *testing.T) {
			var out, errOut bytes.Buffer
			if rc := runEval(args, &out, &errOut); rc != 0 {
				t.Errorf("rc=%d: %s", rc, errOut.String())
			}
			gl, wl := strings.Split(out.String(), "\n"), strings.Split(string(want), "\n")
			same := 0
			for k := range min(len(gl), len(wl)) {
				if gl[k] == wl[k] && wl[k] != "" {
					same++
				}
			}
			n := strings.Count(string(want), "\n")
			files++
			lines += n
			sameLines += min(same, n)
			if out.String() == string(want) {
				sameFiles++
				return
			}
			t.Errorf("differs from %s:\n%s", expected, sharedtest.LineDiff(out.String(), string(want)))
		})
	}
	t.Logf("trec_eval 10.0 suite: %d of %d files and %d of %d lines identical", sameFiles, files, sameLines, lines)
	if sameFiles != files {
		t.Errorf("%d of %d files differ", files-sameFiles, files)
	}
}
