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
	if !r.OK() || len(find(r, CodeComment)) != 2 || len(find(r, CodeParse)) != 0 {
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
	parse := find(r, CodeParse)
	if r.OK() || len(parse) != 1 || parse[0].Line != 1 || !strings.Contains(parse[0].Message, "carriage return") {
		t.Errorf("bare CR: OK %v, parse findings %+v", r.OK(), parse)
	}
	if _, err := eval.ReadRunFile(rps[0]); err == nil || !strings.Contains(err.Error(), ":1: ") {
		t.Errorf("eval on bare CR line ends: %v, want an error at line 1", err)
	}
}
