package eval

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestBEIRQrelsKeepUnicodeSpaces is defect 3 of issue 23: BEIR TSV qrels drop only the ASCII
// spaces around a field, as TREC qrels split only on ASCII spaces, so a doc ID ending in U+00A0
// is the same ID in both formats (trec_eval keeps it too) and the values agree.
func TestBEIRQrelsKeepUnicodeSpaces(t *testing.T) {
	beir, err := ReadBEIRQrels(strings.NewReader("query-id\tcorpus-id\tscore\nq\td1\u00a0\t1\nq\t d2 \t1\n"), "b")
	if err != nil {
		t.Fatal(err)
	}
	trec, err := ReadQrels(strings.NewReader("q 0 d1\u00a0 1\nq 0 d2 1\n"), "t")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(beir, trec) {
		t.Errorf("BEIR %v, TREC %v: want the same judgments", beir, trec)
	}
	run := Run{Queries: map[string][]ScoredDoc{"q": {{Doc: "d1\u00a0", Score: 2}, {Doc: "d1", Score: 1}, {Doc: "d2", Score: 0}}}}
	ap := AP()
	rb, _ := Evaluate(beir, run, ap)
	rt, _ := Evaluate(trec, run, ap)
	// AP = (1/1 + 2/3) / 2: d1\u00a0 at rank 1, d2 at rank 3.
	if want := (1.0 + 2.0/3) / 2; math.Abs(rb.Mean(ap)-want) > 1e-15 || rt.Mean(ap) != rb.Mean(ap) {
		t.Errorf("AP from BEIR %v, from TREC %v; want %v", rb.Mean(ap), rt.Mean(ap), want)
	}
}
