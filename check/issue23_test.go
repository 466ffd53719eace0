package check

import (
	"strings"
	"testing"

	"github.com/ranklab/ranklab/eval"
)

// TestCheckReadsAsEval is defect 8 of issue 23: check and eval read lines by the same rules. An
// indented "# note" line is a comment for both (check warns, eval and trec_eval skip it); a bare
// CR line end is an error for both, never one silent long line.
func TestCheckReadsAsEval(t *testing.T) {
	const run = "1 Q0 a 1 2 t\n   # note\n\t#x y z\n2 Q0 c 1 1 t\n3 Q0 e 1 1 t\n"
	qp, rps := files(t, goodQrels, run)
	r, err := Files(qp, rps, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.OK() || len(find(r, codeComment)) != 2 || len(find(r, codeParse)) != 0 {
		t.Errorf("indented comments: OK %v, findings %+v", r.OK(), r.Findings)
	}
	if _, err := eval.ReadRunFile(rps[0]); err != nil {
		t.Errorf("eval refuses what check accepts: %v", err)
	}
	qp, rps = files(t, goodQrels, strings.ReplaceAll(run, "\n", "\r"))
	r, err = Files(qp, rps, Options{})
	if err != nil {
		t.Fatal(err)
	}
	parse := find(r, codeParse)
	if r.OK() || len(parse) != 1 || parse[0].Line != 1 || !strings.Contains(parse[0].Message, "carriage return") {
		t.Errorf("bare CR: OK %v, parse findings %+v", r.OK(), parse)
	}
	if _, err := eval.ReadRunFile(rps[0]); err == nil || !strings.Contains(err.Error(), ":1: ") {
		t.Errorf("eval on bare CR line ends: %v, want an error at line 1", err)
	}
}

// FuzzCheckVsEval checks check against eval on any input, comment, blank and BOM lines
// included: what eval reads, check never calls a parse error (the indented "# note" crasher of
// issue 23, defect 8), and what eval refuses, check reports as an error.
func FuzzCheckVsEval(f *testing.F) {
	for _, s := range append(append([]string{"q1 Q0 a 1 1 t\n   # note\n", "\t#x\nq Q0 a 1 1 t\r\n", "q Q0 a 1 1 t\rq Q0 b 2 1 t\n"}, runSeeds...), qrelsSeeds...) {
		f.Add(s)
	}
	parseErrors := func(fs []Finding) []Finding {
		var out []Finding
		for _, fd := range fs {
			if fd.Severity == Error && (fd.Code == codeParse || fd.Code == codeEmpty || fd.Code == codeDuplicate) {
				out = append(out, fd)
			}
		}
		return out
	}
	f.Fuzz(func(t *testing.T, s string) {
		rf := readRun(strings.NewReader(s), "run")
		_, err := eval.ReadRun(strings.NewReader(s), "run")
		if bad := parseErrors(rf.findings); err == nil && len(bad) > 0 {
			t.Fatalf("eval reads the run, check says %+v\n%q", bad, s)
		} else if err != nil && len(bad) == 0 {
			t.Fatalf("eval refuses the run (%v), check finds no parse error\n%q", err, s)
		}
		qf := readQrels(strings.NewReader(s), "qrels")
		_, qerr := eval.ReadQrels(strings.NewReader(s), "qrels") // BEIR TSV or TREC, as check reads it
		if bad := parseErrors(qf.findings); qerr == nil && len(bad) > 0 {
			t.Fatalf("eval reads the qrels, check says %+v\n%q", bad, s)
		}
	})
}
