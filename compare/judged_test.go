package compare

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/eval"
)

// TestJudgedNeverTested: Judged@k says how deep the judgments reach, not how good a run is, so
// a comparison on it is never called significant and stays out of Holm's family (issue 34:
// compare starred Judged@10 as if it were a quality measure).
func TestJudgedNeverTested(t *testing.T) {
	qrels := eval.Qrels{}
	base, other := eval.Run{Tag: "base", Queries: map[string][]eval.ScoredDoc{}}, eval.Run{Tag: "other", Queries: map[string][]eval.ScoredDoc{}}
	for i := range 20 {
		q := fmt.Sprintf("q%02d", i)
		qrels[q] = map[string]int{"rel": 1, "judged": 0}
		// base: an unjudged document, then the relevant one; other: the judged pair only.
		base.Queries[q] = []eval.ScoredDoc{{Doc: "new", Score: 2}, {Doc: "rel", Score: 1}}
		other.Queries[q] = []eval.ScoredDoc{{Doc: "rel", Score: 2}, {Doc: "judged", Score: 1}}
	}
	ms := []eval.Measure{eval.P(1), eval.Judged(2)}
	r, err := Options{Permutations: 999, Resamples: 999}.Runs(qrels, ms, base, other)
	if err != nil {
		t.Fatal(err)
	}
	j, err := r.Comparison("other", eval.Judged(2))
	if err != nil {
		t.Fatal(err)
	}
	if j.Diff != 0.5 || j.SignificantT(0.05) || j.SignificantPerm(0.05) || j.Refused == "" || !math.IsNaN(j.PTHolm) {
		t.Errorf("Judged@2: Diff %v, PTHolm %v, Refused %q: want shown, never tested", j.Diff, j.PTHolm, j.Refused)
	}
	p, err := r.Comparison("other", eval.P(1))
	if err != nil {
		t.Fatal(err)
	}
	// Alone in the family, P@1's Holm p is its own p.
	if !p.SignificantT(0.05) || p.PTHolm != p.PT || r.Family != 1 {
		t.Errorf("P@1: PT %v, PTHolm %v, family %d: want significant, adjusted over 1", p.PT, p.PTHolm, r.Family)
	}
	if !strings.Contains(r.Text(), "over the 1 comparison (runs × measures)") {
		t.Errorf("summary: %s", r.Summary())
	}
	if joint := Joint(r, r); joint[0].Family != 2 {
		t.Errorf("Joint family %d, want 2 (the Judged@2 comparisons left out)", joint[0].Family)
	}
}
