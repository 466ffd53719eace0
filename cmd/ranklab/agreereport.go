package main

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"text/tabwriter"

	"github.com/ranklab/ranklab/agree"
	"github.com/ranklab/ranklab/charts"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/atomicfile"
)

// agreeRuns reads the runs of agree, each tagged with its file's name.
func agreeRuns(files []string) ([]eval.Run, error) {
	runs := make([]eval.Run, 0, len(files))
	for _, f := range files {
		r, err := readRunArg(f)
		if err != nil {
			return nil, err
		}
		r.Tag = filepath.Base(f)
		runs = append(runs, r)
	}
	return runs, nil
}

// agreeReport is ranklab agree --report: agree.Validate in text, and as a page with --html.
func agreeReport(files []string, qa, qb eval.Qrels, opt agree.Options, rerank string, depth int, htmlOut string,
	stdout, stderr io.Writer, fail func(int, string, ...any) int) int {
	runs, err := agreeRuns(files[2:])
	if err != nil {
		return fail(1, "%v", err)
	}
	if rerank == "" {
		rerank = runs[0].Tag
	}
	v, err := agree.Validate(qa, qb, runs, rerank, depth, opt)
	if err != nil {
		return fail(1, "%v", err)
	}
	warnCoverage(stderr, v.OnlyA, v.OnlyB)
	if err := writeValidationText(stdout, files[0], files[1], v); err != nil {
		return fail(1, "%v", err)
	}
	if htmlOut != "" {
		a, b := filepath.Base(files[0]), filepath.Base(files[1])
		page := charts.Page("Can "+b+" stand in for "+a+"?", charts.Validation(v, a, b)...)
		if err := atomicfile.WriteFile(htmlOut, []byte(page)); err != nil {
			return fail(1, "%v", err)
		}
	}
	return 0
}

func writeValidationText(w io.Writer, nameA, nameB string, v agree.Validation) error {
	sr := v.Systems
	fmt.Fprintf(w, "Validation of B = %s against A = %s\n\n", nameB, nameA)
	fmt.Fprintf(w, "Verdict: %s. Kendall's τ-b %s between the rankings of %d runs by %s (τ_AP %s; among the top %d under A, τ %s).\n",
		v.Verdict, agreeNum(sr.Tau), len(sr.Runs), sr.Measure, agreeNum(sr.TauAP), v.TopRuns, agreeNum(v.TopTau))
	fmt.Fprintf(w, "  (%s)\n", v.Source)
	// The verdict reads τ alone: say how coarse it is here and what the labels and the adversarial
	// check say, so that the first lines cannot be read as "this judge may stand in".
	liftedNow := "not lifted"
	if v.Lifted {
		liftedNow = "LIFTED"
	}
	fmt.Fprintf(w, "  The verdict is on the ranking of the runs only: %d runs (one pair swapped moves τ by %s) on %d queries; "+
		"the labels' binary κ is %s [%s, %s]; the adversarial run is %s (below).\n\n",
		len(sr.Runs), agreeNum(tauStep(len(sr.Runs))), len(sr.Queries), agreeNum(v.Binary.Value), agreeNum(v.Binary.Low), agreeNum(v.Binary.High), liftedNow)
	fmt.Fprintf(w, "Labels: %d pairs both judged; same grade on %.1f%%; base rate (grade >= %d): A %.1f%%, B %.1f%%\n",
		len(v.Pairs), 100*v.Observed, v.Threshold, 100*v.BaseRateA, 100*v.BaseRateB)
	writeConfusion(w, v.Labels, v.Confusion)
	fmt.Fprintf(w, "Cohen's κ (%g%% percentile bootstrap interval over queries: pairs cluster in queries)\n", 100*v.Level)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, k := range []struct {
		name string
		k    agree.Kappa
	}{{fmt.Sprintf("binary (grade >= %d)", v.Threshold), v.Binary}, {"unweighted", v.Unweighted}, {"linear", v.Linear}, {"quadratic", v.Quadratic}} {
		fmt.Fprintf(tw, "  %s\t%s\t[%s, %s]\n", k.name, agreeNum(k.k.Value), agreeNum(k.k.Low), agreeNum(k.k.High))
	}
	tw.Flush()
	worst := slices.Clone(v.PerQuery)
	slices.SortStableFunc(worst, func(x, y agree.QueryAgreement) int { return cmp.Compare(x.BinaryAgreed, y.BinaryAgreed) })
	fmt.Fprintf(w, "Queries where the judges agree least on relevant / not (of %d):\n", len(v.PerQuery))
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  query\tpairs\tsame call\tsame grade\trelevant A\trelevant B")
	for _, q := range worst[:min(5, len(worst))] {
		fmt.Fprintf(tw, "  %s\t%d\t%.0f%%\t%.0f%%\t%d\t%d\n", q.Query, q.Pairs, 100*q.BinaryAgreed, 100*q.Same, q.RelevantA, q.RelevantB)
	}
	tw.Flush()

	fmt.Fprintf(w, "\nSystems: %s on the %d queries both judged\n", sr.Measure, len(sr.Queries))
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  run\tunder A\tunder B")
	for i, r := range sr.Runs {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", r, agreeNum(sr.MeanA[i]), agreeNum(sr.MeanB[i]))
	}
	tw.Flush()
	swaps := sr.Swaps()
	writeSwaps(w, sr, swaps)
	lifted := "no"
	if v.Lifted {
		lifted = "YES: B puts a system built on itself above its place under A"
	}
	fmt.Fprintf(w, "\nAdversarial check (Clarke & Dietz 2024): %s, reranked by B's grades\n", v.Reranked)
	fmt.Fprintf(w, "  under A %s (place %d of %d), under B %s (place %d of %d); lifted: %s\n",
		agreeNum(v.MeanA), v.RankA, len(sr.Runs)+1, agreeNum(v.MeanB), v.RankB, len(sr.Runs)+1, lifted)
	return nil
}

// tauStep is how much one discordant pair of n runs moves Kendall's τ (no ties): 2/C(n,2).
func tauStep(n int) float64 {
	if n < 2 {
		return math.NaN()
	}
	return 4 / float64(n*(n-1))
}
