package charts

import (
	"cmp"
	"fmt"
	"html"
	"math"
	"slices"
	"strconv"

	"github.com/ranklab/ranklab/agree"
)

// Validation returns the validation report of an automatic judge (agree.Validate: A the people,
// B the judge, named nameA and nameB) as fragments: the verdict line with its source, the κ
// table with the base rates, the confusion matrix, the runs' means under both judges (a bar
// chart, the adversarial run last), the swaps, the adversarial check and the queries with the
// least agreement (worst first, at most 15). Every ID and name is escaped.
func Validation(v agree.Validation, nameA, nameB string) []string {
	sr := v.Systems
	f := func(x float64) string {
		if math.IsNaN(x) {
			return "undefined"
		}
		return strconv.FormatFloat(x, 'f', 3, 64)
	}
	verdict := fmt.Sprintf(`<div data-validation-verdict="%s" style="font-size:15px;line-height:1.5">`+
		`<b>Verdict: %s.</b> Kendall's τ between the rankings of %d runs by %s under %s and under %s is %s `+
		`(τ_AP %s; among the top %d runs under %s, τ %s).<br><small>%s.</small><br>`+
		`The verdict is on the ranking of the runs only: %d runs (one pair swapped moves τ by %s) on %d queries; `+
		`the labels' binary κ is %s [%s, %s]; the adversarial run is %s (below).</div>`,
		html.EscapeString(v.Verdict), html.EscapeString(v.Verdict), len(sr.Runs), html.EscapeString(sr.Measure.String()),
		html.EscapeString(nameA), html.EscapeString(nameB), f(sr.Tau), f(sr.TauAP), v.TopRuns, html.EscapeString(nameA),
		f(v.TopTau), html.EscapeString(v.Source),
		len(sr.Runs), f(4/float64(max(1, len(sr.Runs)*(len(sr.Runs)-1)))), len(sr.Queries), f(v.Binary.Value), f(v.Binary.Low), f(v.Binary.High),
		map[bool]string{true: "<b>lifted</b>", false: "not lifted"}[v.Lifted])

	var kappaRows [][]string
	for _, k := range []struct {
		name string
		k    agree.Kappa
	}{{fmt.Sprintf("binary (grade ≥ %d)", v.Threshold), v.Binary}, {"unweighted", v.Unweighted}, {"linear", v.Linear}, {"quadratic", v.Quadratic}} {
		kappaRows = append(kappaRows, []string{k.name, f(k.k.Value), f(k.k.Low), f(k.k.High)})
	}
	kappa := Table(fmt.Sprintf("Cohen's κ on %d pairs both judged (%.0f%% bootstrap intervals over queries)", len(v.Pairs), 100*v.Level),
		[]string{"κ", "value", "low", "high"}, kappaRows,
		fmt.Sprintf("base rate (grade ≥ %d): %s %.1f%%, %s %.1f%% of the pairs", v.Threshold, nameA, 100*v.BaseRateA, nameB, 100*v.BaseRateB),
		fmt.Sprintf("same grade on %.1f%% of the pairs", 100*v.Observed))

	header := []string{nameA + " \\ " + nameB}
	for _, l := range v.Labels {
		header = append(header, strconv.Itoa(l))
	}
	var conf [][]string
	for i, row := range v.Confusion {
		r := []string{strconv.Itoa(v.Labels[i])}
		for _, c := range row {
			r = append(r, strconv.Itoa(c))
		}
		conf = append(conf, r)
	}
	confusion := Table("Confusion matrix (rows "+nameA+", columns "+nameB+")", header, conf)

	cats := append(slices.Clone(sr.Runs), v.Reranked)
	means := Bars(Plot{Title: sr.Measure.String() + " of each run under both judges", Subtitle: "the last run is the adversarial one: " + v.Reranked,
		X: "run", Y: sr.Measure.String(), Categories: cats},
		Series{Name: nameA, Values: append(slices.Clone(sr.MeanA), v.MeanA)},
		Series{Name: nameB, Values: append(slices.Clone(sr.MeanB), v.MeanB)})

	var swapRows [][]string
	star := func(b bool) string {
		if b {
			return " *"
		}
		return ""
	}
	for _, s := range sr.Swaps() {
		swapRows = append(swapRows, []string{s.RunX + " vs " + s.RunY,
			fmt.Sprintf("%+.4f", s.DiffA), fmt.Sprintf("%.3g%s", s.PA, star(s.SigA)),
			fmt.Sprintf("%+.4f", s.DiffB), fmt.Sprintf("%.3g%s", s.PB, star(s.SigB))})
	}
	swaps := Table(fmt.Sprintf("%d of %d pairs of runs swap", len(swapRows), len(sr.Pairs)),
		[]string{"pair", "difference under " + nameA, "p", "difference under " + nameB, "p"}, swapRows,
		fmt.Sprintf("paired t-test, Holm-adjusted over the pairs; * p < %g: a swap marked under either judge changes a conclusion", sr.Alpha))

	lifted := "no: the judge does not put a system built on itself above its place under " + nameA
	if v.Lifted {
		lifted = "yes: the judge puts a system built on itself above its place under " + nameA
	}
	adv := Table("Adversarial check (Clarke & Dietz 2024): a run reranked by the judge itself",
		[]string{"run", "mean under " + nameA, "place under " + nameA, "mean under " + nameB, "place under " + nameB},
		[][]string{{v.Reranked, f(v.MeanA), fmt.Sprintf("%d of %d", v.RankA, len(cats)), f(v.MeanB), fmt.Sprintf("%d of %d", v.RankB, len(cats))}},
		"lifted: "+lifted)

	worst := slices.Clone(v.PerQuery)
	slices.SortStableFunc(worst, func(x, y agree.QueryAgreement) int { return cmp.Compare(x.BinaryAgreed, y.BinaryAgreed) })
	var qrows [][]string
	for _, q := range worst[:min(15, len(worst))] {
		qrows = append(qrows, []string{q.Query, strconv.Itoa(q.Pairs), fmt.Sprintf("%.0f%%", 100*q.BinaryAgreed),
			fmt.Sprintf("%.0f%%", 100*q.Same), strconv.Itoa(q.RelevantA), strconv.Itoa(q.RelevantB)})
	}
	perQuery := Table(fmt.Sprintf("The %d queries (of %d) where the judges agree least", len(qrows), len(v.PerQuery)),
		[]string{"query", "pairs", "relevant or not: same", "same grade", "relevant under " + nameA, "relevant under " + nameB}, qrows)
	return []string{verdict, kappa, confusion, means, swaps, adv, perQuery}
}
