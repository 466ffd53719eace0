package charts

import (
	"fmt"
	"strconv"
)

// BudgetCurve is one configuration of a chunk-size × budget sweep: a measure's mean at each
// budget, optionally with an interval, and the storage the configuration costs.
type BudgetCurve struct {
	Name      string    // legend label, e.g. "chunk 128"
	Values    []float64 // the measure's mean at each budget
	Low, High []float64 // an interval per budget (e.g. a bootstrap interval of the mean); nil for none
	Indexed   int       // tokens the configuration indexes (its storage footprint)
}

// QualityAtBudget draws measure against the context budget with Bars, one bar per curve in each
// budget's group (x: the budgets in tokens; each curve's intervals as error bars), and beside it,
// with Bars, the storage footprint of each curve's configuration (millions of tokens indexed,
// labelled with the duplication where it differs from the corpus, and a reference line at the
// corpus's tokens). The two charts come as one HTML fragment, side by side
// where the page is wide enough. Curves whose values or intervals do not match the budgets give
// Lines' visible error box.
func QualityAtBudget(title, measure string, budgets []int, corpus int, curves []BudgetCurve) string {
	cats := make([]string, len(budgets))
	for i, b := range budgets {
		cats[i] = strconv.Itoa(b)
	}
	names := make([]string, len(curves))
	indexed := make([]float64, len(curves))
	labels := make([]string, len(curves))
	series := make([]Series, len(curves))
	for i, c := range curves {
		names[i] = c.Name
		series[i] = Series{Name: c.Name, Values: c.Values, Low: c.Low, High: c.High}
		indexed[i] = float64(c.Indexed) / 1e6
		if corpus > 0 && c.Indexed != corpus {
			labels[i] = fmt.Sprintf("%+.0f%%", 100*float64(c.Indexed-corpus)/float64(corpus))
		}
	}
	quality := Bars(Plot{Title: title, Subtitle: measure + " of what a context of B tokens holds, by chunking",
		X: "context budget B (cl100k tokens)", Y: measure, Categories: cats, YMax: 1, Height: 420}, series...)
	var refs []Ref
	if corpus > 0 {
		refs = []Ref{{Y: float64(corpus) / 1e6, Label: fmt.Sprintf("corpus %.2fM", float64(corpus)/1e6)}}
	}
	footprint := Bars(Plot{Title: "Storage footprint", Subtitle: "million tokens indexed; label: tokens duplicated by overlap",
		X: "chunking", Y: "million tokens", Categories: names, Refs: refs, Height: 420},
		Series{Name: "tokens indexed", Values: indexed, Labels: labels})
	return `<div class="ranklab-row" style="display:flex;flex-wrap:wrap;gap:8px;max-width:1400px">` + "\n" +
		`<div style="flex:3 1 560px;min-width:0">` + quality + "</div>\n" +
		`<div style="flex:2 1 340px;min-width:0">` + footprint + "</div>\n</div>\n"
}
