package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"text/tabwriter"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/numflag"
	"github.com/ranklab/ranklab/ppi"
)

func init() {
	commands["ppi"] = command{summary: "a run's mean from automatic labels on every query and human ones on a few, with a prediction-powered interval", run: runPPI}
}

const ppiUsage = `usage: ranklab ppi [-m nDCG@10] [--level 0.95] HUMAN_QRELS AUTO_QRELS RUN...
       ranklab ppi --simulate 1000 --sample 30 [--seed N] [-m ...] [--level ...] HUMAN_QRELS AUTO_QRELS RUN...

The mean of a measure (-m) for each run from automatic judgments on every query (AUTO_QRELS: the
queries it judges are the collection) and human judgments on a random sample of them
(HUMAN_QRELS: the queries it judges, which must be a random sample), with three intervals:

  PPI++       prediction-powered (Angelopoulos et al. 2023, power-tuned): valid whatever the
              automatic judge's bias, never much wider than the human-only one;
  naive       the automatic judge's values alone, as if it were people: biased;
  human only  the human sample alone (classical).

"for the same width" is how many human queries the human-only interval would need to be as
narrow as PPI++'s: n·(human-only width / PPI++ width)². Formulas: the ppi package doc.

--simulate N takes HUMAN_QRELS as the complete truth on every query instead, and draws N human
samples of --sample queries (the collection re-drawn with replacement each time, the queries
being a sample of a population): the share of draws whose interval holds the true mean
(coverage, against --level) and each interval's mean width, per run; the labels saved are the
human queries saved for PPI++'s width times the human pairs per query.
`

func runPPI(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ranklab ppi", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, ppiUsage); fs.PrintDefaults() }
	measure := fs.String("m", "nDCG@10", "the measure")
	level := numflag.NewFloat64(fs, "level", 0.95, "the intervals' level")
	simulate := numflag.NewInt(fs, "simulate", 0, "draws of a coverage simulation (0: none)")
	sample := numflag.NewInt(fs, "sample", 30, "with --simulate: human-judged queries per draw")
	seed := numflag.NewUint64(fs, "seed", 1, "with --simulate: the draws' seed")
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return flagStatus(err, 2)
	}
	fail := failer(stderr, "ranklab ppi")
	switch {
	case len(files) < 3:
		return fail(2, "need HUMAN_QRELS, AUTO_QRELS and at least one RUN\n%s", synopsis(ppiUsage))
	case !(*level > 0 && *level < 1):
		return fail(2, "--level %v: want a level in (0, 1)", *level)
	case *simulate < 0:
		return fail(2, "--simulate %d: want 0 or more draws", *simulate)
	}
	ms, err := eval.ParseMeasures(*measure)
	if err != nil || len(ms) != 1 {
		return fail(2, "-m %q: want one measure", *measure)
	}
	m := ms[0]
	human, err := eval.ReadQrelsFile(files[0])
	if err != nil {
		return fail(1, "%v", err)
	}
	auto, err := eval.ReadQrelsFile(files[1])
	if err != nil {
		return fail(1, "%v", err)
	}
	runs, err := agreeRuns(files[2:])
	if err != nil {
		return fail(1, "%v", err)
	}
	all := sortedJudged(auto)
	humanQ := sortedJudged(human)
	inAll := map[string]bool{}
	for _, q := range all {
		inAll[q] = true
	}
	for _, q := range humanQ {
		if !inAll[q] {
			return fail(1, "%s judges query %q, which %s does not: the human sample must be part of the collection", files[0], q, files[1])
		}
	}
	if *simulate > 0 {
		if *sample < 2 || *sample >= len(all) {
			return fail(2, "--sample %d: want 2 to %d queries (fewer than the collection's %d)", *sample, len(all)-1, len(all))
		}
		if len(humanQ) != len(all) {
			return fail(1, "--simulate takes %s as the truth on every query, but it judges %d of the %d queries of %s", files[0], len(humanQ), len(all), files[1])
		}
		return ppiSimulate(stdout, fail, human, auto, runs, m, all, *sample, *simulate, *level, *seed)
	}
	if len(humanQ) < 2 || len(humanQ) >= len(all) {
		return fail(1, "%s judges %d of the %d queries: PPI needs at least 2 human queries and some without", files[0], len(humanQ), len(all))
	}
	inHuman := map[string]bool{}
	for _, q := range humanQ {
		inHuman[q] = true
	}
	var rest []string
	for _, q := range all {
		if !inHuman[q] {
			rest = append(rest, q)
		}
	}
	fmt.Fprintf(stdout, "%s: %d queries judged by people (%s), the other %d by the automatic judge alone (%s); %g%% intervals\n",
		m, len(humanQ), files[0], len(rest), files[1], 100**level)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "run\tPPI++\t\tλ\tnaive\t\thuman only\t\tfor the same width")
	for _, r := range runs {
		y, err := perQueryValues(human, r, m, humanQ)
		if err != nil {
			return fail(1, "%v", err)
		}
		yhat, err := perQueryValues(auto, r, m, humanQ)
		if err != nil {
			return fail(1, "%v", err)
		}
		unl, err := perQueryValues(auto, r, m, rest)
		if err != nil {
			return fail(1, "%v", err)
		}
		autoAll, err := perQueryValues(auto, r, m, all)
		if err != nil {
			return fail(1, "%v", err)
		}
		p, nv, h := ppi.Mean(y, yhat, unl, *level), ppi.CLT(autoAll, *level), ppi.CLT(y, *level)
		same := "-"
		if w := p.High - p.Low; w > 0 {
			ratio := (h.High - h.Low) / w
			same = fmt.Sprintf("%.0f human queries", float64(len(y))*ratio*ratio)
		}
		fmt.Fprintf(tw, "%s\t%.4f\t%s\t%.2f\t%.4f\t%s\t%.4f\t%s\t%s\n", r.Tag, p.Mean, ivText(p), p.Lambda, nv.Mean, ivText(nv), h.Mean, ivText(h), same)
	}
	if err := tw.Flush(); err != nil {
		return fail(1, "%v", err)
	}
	return 0
}

func ivText(iv ppi.Interval) string { return fmt.Sprintf("[%.4f, %.4f]", iv.Low, iv.High) }

func ppiSimulate(w io.Writer, fail func(int, string, ...any) int, human, auto eval.Qrels, runs []eval.Run, m eval.Measure,
	all []string, n, draws int, level float64, seed uint64) int {
	pairs := 0
	for _, q := range all {
		for _, g := range human[q] {
			if g >= 0 {
				pairs++
			}
		}
	}
	perQuery := float64(pairs) / float64(len(all))
	fmt.Fprintf(w, "Coverage of %g%% intervals of the mean %s over %d draws: %d human-judged queries a draw, collections of %d queries\n",
		100*level, m, draws, n, len(all))
	fmt.Fprintf(w, "(human judgments: %.1f pairs a query; \"saved\": human queries, and pairs, that the human-only interval needs beyond %d for PPI++'s width)\n", perQuery, n)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "run\ttruth\tPPI++\tPPI (λ=1)\tnaive\thuman only\twidth PPI++\twidth naive\twidth human\tsaved queries\tsaved labels\t")
	var sum [4]float64
	for k, r := range runs {
		truth, err := perQueryValues(human, r, m, all)
		if err != nil {
			return fail(1, "%v", err)
		}
		pred, err := perQueryValues(auto, r, m, all)
		if err != nil {
			return fail(1, "%v", err)
		}
		s := ppi.Simulate(truth, pred, n, draws, level, seed+uint64(k))
		saved := s.EquivalentQueries - float64(n)
		fmt.Fprintf(tw, "%s\t%.4f\t%.3f\t%.3f\t%.3f\t%.3f\t%.4f\t%.4f\t%.4f\t%.0f\t%.0f\t\n", r.Tag, s.Truth, s.PPI.Covered, s.Classic.Covered,
			s.Naive.Covered, s.HumanOnly.Covered, s.PPI.Width, s.Naive.Width, s.HumanOnly.Width, saved, saved*perQuery)
		sum[0] += s.PPI.Covered
		sum[1] += s.Classic.Covered
		sum[2] += s.Naive.Covered
		sum[3] += s.HumanOnly.Covered
	}
	k := float64(len(runs))
	fmt.Fprintf(tw, "mean over runs\t\t%.3f\t%.3f\t%.3f\t%.3f\t\t\t\t\t\t\n", sum[0]/k, sum[1]/k, sum[2]/k, sum[3]/k)
	if err := tw.Flush(); err != nil {
		return fail(1, "%v", err)
	}
	return 0
}

// sortedJudged returns the queries with a grade >= 0, sorted.
func sortedJudged(q eval.Qrels) []string {
	var out []string
	for qid, docs := range q {
		for _, g := range docs {
			if g >= 0 {
				out = append(out, qid)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// perQueryValues evaluates run on qrels (every qrels query, as trec_eval -c) and returns m's
// value on each of queries, in order (0 for a query the run does not answer).
func perQueryValues(qrels eval.Qrels, run eval.Run, m eval.Measure, queries []string) ([]float64, error) {
	res, err := eval.Options{AllQueries: true}.Evaluate(qrels, run, m)
	if err != nil {
		return nil, err
	}
	by := res.PerQuery(m)
	out := make([]float64, len(queries))
	for i, q := range queries {
		v, ok := by[q]
		if ok && math.IsNaN(v) {
			return nil, fmt.Errorf("%s: %s is undefined on query %s", run.Tag, m, q)
		}
		out[i] = v
	}
	return out, nil
}
