package compare

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/eval"
)

// TestRefuse: a run better on every one of 12 queries is significant by both tests, until it is
// refused; then no format marks it, and the note says why.
func TestRefuse(t *testing.T) {
	var base, better Scores
	base.Name, better.Name = "base", "better"
	base.Measures, better.Measures = []Measure{eval.NDCG(10)}, []Measure{eval.NDCG(10)}
	for q := 0; q < 12; q++ {
		id := string(rune('a' + q))
		base.Queries = append(base.Queries, id)
		better.Queries = append(better.Queries, id)
		v := float64(q) / 20
		base.Values = append(base.Values, []float64{v})
		better.Values = append(better.Values, []float64{v + 0.3 + float64(q%3)/100})
	}
	r, err := Options{}.FromScores(base, better)
	if err != nil {
		t.Fatal(err)
	}
	c := must(r.Comparison("better", eval.NDCG(10)))
	if !c.SignificantT(0.05) || !c.SignificantPerm(0.05) {
		t.Fatalf("the set-up should be significant: p %v, %v", c.PTHolm, c.PPermHolm)
	}
	formats := func() map[string]string {
		return map[string]string{"text": r.Text(), "md": r.markdownText(), "csv": r.csvText(), "latex": r.latexText()}
	}
	before := formats()
	r.Refuse(1, "it shares no query with the qrels")
	c = must(r.Comparison("better", eval.NDCG(10)))
	if c.SignificantT(0.05) || c.SignificantPerm(0.05) {
		t.Error("a refused comparison is still significant")
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), `run "better" is not a result (it shares no query with the qrels)`) {
		t.Errorf("notes %q", r.Notes)
	}
	var js struct {
		Comparisons []struct {
			SignificantT bool   `json:"significant_t"`
			Refused      string `json:"refused"`
		} `json:"comparisons"`
	}
	if err := json.Unmarshal([]byte(r.jsonText()), &js); err != nil || js.Comparisons[0].SignificantT || js.Comparisons[0].Refused == "" {
		t.Errorf("JSON %+v, %v", js, err)
	}
	for name, out := range formats() {
		// every format loses its marks ("†" or \dag beside the numbers; legends keep theirs), and
		// CSV, which has no marks, says why in its refused column
		mark := "†"
		switch name {
		case "latex":
			mark = `\dag`
		case "csv":
			mark = "shares no query"
			if !strings.Contains(out, mark) {
				t.Errorf("csv has no refused column:\n%s", out)
			}
			continue
		}
		if strings.Count(out, mark) >= strings.Count(before[name], mark) {
			t.Errorf("%s still marks the refused run:\n%s", name, out)
		}
	}
}
