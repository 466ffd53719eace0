package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/ranklab/ranklab/internal/numflag"
	"github.com/ranklab/ranklab/internal/words"

	"github.com/ranklab/ranklab/agree"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/provenance"
)

func init() {
	commands["agree"] = command{summary: "judge agreement: Cohen's κ on the pairs both judged, and how the ranking of runs changes", run: runAgree}
}

const agreeUsage = `usage: ranklab agree [-l N] [--labels 0,1,2,3] [--resamples 2000] [--seed N] [-m MEASURE] [--alpha 0.05] [-f text|json] [--no-stamp] QRELS_A QRELS_B [RUN...]
       ranklab agree --report [--html FILE] [--rerank RUN] [--rerank-depth 20] HUMAN_QRELS AUTO_QRELS RUN RUN...

Compares two judges' qrels (a human and an LLM, two annotators) on the pairs both judged (grade
>= 0 in both; a negative grade is "pooled, not judged"):

  the confusion matrix (rows A, columns B), the share of equal grades,
  Cohen's κ binary (grade >= -l) and over the grades, unweighted, linear and quadratic,
  each with a 95% percentile bootstrap interval over the pairs (--resamples, --seed).

With two or more runs, each run is evaluated with -m (default nDCG@10) under A and under B on
the queries both judged, and the two rankings of the runs are compared: Kendall's τ-b, τ_AP
(A as the reference; swaps near the top cost more), and every pair of runs whose order flips,
with Holm-adjusted paired t-test p-values under A and under B (a swap significant under
either judge changes a reported conclusion). Formulas: the agree package doc.

--report validates an automatic judge (B) against people (A), in text and, with --html, as a
standalone page: κ binary and weighted with bootstrap intervals over queries (pairs cluster in
queries), the confusion matrix, each judge's base rate, the queries where they agree least;
τ, τ_AP and τ among the top third of the runs, the swaps with their significance under each
judge, a verdict (Voorhees: τ >= 0.9 equivalent, < 0.8 noticeable); and the adversarial check of
Clarke & Dietz: --rerank's run (a RUN file's name; default the first) with its top --rerank-depth
documents reordered by B's grades, and whether B lifts it above its place under A.
`

func runAgree(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ranklab agree", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, agreeUsage); fs.PrintDefaults() }
	threshold := numflag.NewInt(fs, "l", 1, "binary κ: grade >= `N` is relevant")
	labels := fs.String("labels", "", "κ's categories, comma-separated (default: the grades given), e.g. 0,1,2,3")
	resamples := numflag.NewInt(fs, "resamples", 2000, "bootstrap resamples of the κ intervals")
	seed := numflag.NewUint64(fs, "seed", 0, "bootstrap seed")
	measure := fs.String("m", "nDCG@10", "measure that ranks the runs")
	alpha := numflag.NewFloat64(fs, "alpha", 0.05, "significance level of the swaps, after Holm")
	format := fs.String("f", "text", "output: text or json")
	noStamp := fs.Bool("no-stamp", false, "leave the provenance stamp out of -f json")
	report := fs.Bool("report", false, "validate B (an automatic judge) against A (people): see above")
	htmlOut := fs.String("html", "", "with --report: also write the report as a standalone HTML page `FILE`")
	rerank := fs.String("rerank", "", "with --report: the RUN (file name) to rerank by B's grades (default: the first)")
	rerankDepth := numflag.NewInt(fs, "rerank-depth", 20, "with --report: documents of each query the adversarial run reorders")
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return flagStatus(err, 2)
	}
	fail := failer(stderr, "ranklab agree")
	opt := agree.Options{Threshold: *threshold, Resamples: *resamples, Seed: *seed, Alpha: *alpha}
	switch {
	case len(files) < 2:
		return fail(2, "need QRELS_A and QRELS_B\n%s", synopsis(agreeUsage))
	case len(files) == 3:
		return fail(2, "one run cannot be ranked: give none or at least 2")
	case *threshold < 1:
		return fail(2, "-l %d: want 1 or more", *threshold)
	case *resamples < 1:
		return fail(2, "--resamples %d: want 1 or more", *resamples)
	case !(*alpha > 0 && *alpha < 1):
		return fail(2, "--alpha %v: want a level in (0, 1)", *alpha)
	case *format != "text" && *format != "json":
		return fail(2, "-f %q: want text or json", *format)
	case *report && (len(files) < 4 || *format != "text"):
		return fail(2, "--report needs HUMAN_QRELS, AUTO_QRELS and at least 2 runs, and prints text (with --html FILE for the page)")
	case !*report && (*htmlOut != "" || *rerank != ""):
		return fail(2, "--html and --rerank go with --report")
	case *rerankDepth < 1:
		return fail(2, "--rerank-depth %d: want 1 or more", *rerankDepth)
	}
	if *labels != "" {
		for _, f := range strings.Split(*labels, ",") {
			g, err := numflag.Int(strings.TrimSpace(f))
			if err != nil {
				return fail(2, "--labels: %v", err)
			}
			opt.Labels = append(opt.Labels, g)
		}
	}
	ms, err := eval.ParseMeasures(*measure)
	switch {
	case err != nil:
		return fail(2, "-m %q: %v", *measure, err)
	case len(ms) != 1:
		return fail(2, "-m %q names %d measures: agree ranks the runs by one measure (e.g. -m nDCG@10, -m P@5)", *measure, len(ms))
	}
	opt.Measure = ms[0]
	qa, err := eval.ReadQrelsFile(files[0])
	if err != nil {
		return fail(1, "%v", err)
	}
	qb, err := eval.ReadQrelsFile(files[1])
	if err != nil {
		return fail(1, "%v", err)
	}
	for i, q := range []eval.Qrels{qa, qb} {
		if len(q) > 0 && !pooledQrels(q, *threshold) { // judgments, and none below the level
			fmt.Fprintf(stderr, "ranklab agree: warning: %s grades every pair it lists %d or more: it lists only relevant documents "+
				"(as Cranfield's and many TREC qrels do), so it judged no pair not relevant and binary κ is 0 or undefined; "+
				"give it a 0 for each pair the other judge graded that it does not list (notebook 21 does this)\n", files[i], *threshold)
		}
	}
	if *report {
		return agreeReport(files, qa, qb, opt, *rerank, *rerankDepth, *htmlOut, stdout, stderr, fail)
	}
	ag, err := agree.Judges(qa, qb, opt)
	if err != nil {
		return fail(1, "%v", err)
	}
	var sr *agree.SystemRanking
	if len(files) > 2 {
		warnCoverage(stderr, ag.OnlyA, ag.OnlyB)
		runs, err := agreeRuns(files[2:])
		if err != nil {
			return fail(1, "%v", err)
		}
		s, err := agree.Systems(qa, qb, runs, opt)
		if err != nil {
			return fail(1, "%v", err)
		}
		sr = &s
	}
	if *format == "json" {
		var b bytes.Buffer
		if err = writeJSON(&b, agreeJSON(ag, sr)); err == nil && !*noStamp {
			conv := []string{fmt.Sprintf("pairs both judged (grade >= 0); binary κ at grade >= %d; κ intervals: %g%% percentile bootstrap over pairs, %d resamples, seed %d",
				ag.Threshold, 100*ag.Level, opt.Resamples, opt.Seed)}
			if sr != nil {
				conv = append(conv, fmt.Sprintf("runs ranked by %s on the queries both judged (trec_eval -c); swaps: paired t-test, Holm over the pairs of runs, alpha %g", opt.Measure, opt.Alpha))
			}
			err = stampJSON(&b, "ranklab agree", args, conv, agreeInputs(files))
		}
		if err == nil {
			_, err = stdout.Write(b.Bytes())
		}
	} else {
		err = writeAgreeText(stdout, files[0], files[1], ag, sr)
	}
	if err != nil {
		return fail(1, "%v", err)
	}
	return 0
}

// agreeInputs are the inputs of agree's stamp: qrels A, qrels B, then the runs.
func agreeInputs(files []string) []provenance.File {
	in := []provenance.File{{Role: "qrels A", Path: files[0]}, {Role: "qrels B", Path: files[1]}}
	for i, f := range files[2:] {
		in = append(in, provenance.File{Role: fmt.Sprintf("run %d", i+1), Path: f})
	}
	return in
}

// stampJSON appends the provenance stamp of command to the JSON object in b.
func stampJSON(b *bytes.Buffer, command string, args, conventions []string, files []provenance.File) error {
	st, err := provenance.New(command, args, conventions, files...)
	if err != nil {
		return err
	}
	out, err := st.Append("json", b.Bytes())
	if err != nil {
		return err
	}
	b.Reset()
	b.Write(out)
	return nil
}

// num prints a value with 4 decimals, NaN as "undefined".
func agreeNum(v float64) string {
	if math.IsNaN(v) {
		return "undefined"
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}

// writeConfusion prints a confusion matrix: A's grades down, B's across, counts right-aligned.
func writeConfusion(w io.Writer, labels []int, confusion [][]int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "A \\ B\t")
	for _, l := range labels {
		fmt.Fprintf(tw, "%d\t", l)
	}
	fmt.Fprintln(tw)
	for i, row := range confusion {
		fmt.Fprintf(tw, "%d\t", labels[i])
		for _, c := range row {
			fmt.Fprintf(tw, "%d\t", c)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

func writeAgreeText(w io.Writer, nameA, nameB string, ag agree.Agreement, sr *agree.SystemRanking) error {
	fmt.Fprintf(w, "A = %s, B = %s\n", nameA, nameB)
	fmt.Fprintf(w, "%d pairs judged by both (%d by A only, %d by B only); same grade on %.1f%%\n\n",
		len(ag.Pairs), ag.OnlyA, ag.OnlyB, 100*ag.Observed)
	writeConfusion(w, ag.Labels, ag.Confusion)
	fmt.Fprintf(w, "\nCohen's κ (%g%% percentile bootstrap interval over pairs)\n", 100*ag.Level)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, k := range []struct {
		name string
		k    agree.Kappa
	}{{fmt.Sprintf("binary (grade >= %d)", ag.Threshold), ag.Binary}, {"unweighted", ag.Unweighted}, {"linear", ag.Linear}, {"quadratic", ag.Quadratic}} {
		fmt.Fprintf(tw, "  %s\t%s\t[%s, %s]", k.name, agreeNum(k.k.Value), agreeNum(k.k.Low), agreeNum(k.k.High))
		if k.k.Undefined > 0 {
			fmt.Fprintf(tw, "\t(%d resamples undefined, left out)", k.k.Undefined)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	if sr == nil {
		return nil
	}
	fmt.Fprintf(w, "\nRuns ranked by %s under A on the %d queries both judged, with their rank under B\n", sr.Measure, len(sr.Queries))
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  rank A\trun\tunder A\tunder B\trank B")
	byA, byB := rankOrder(sr.Runs, sr.MeanA), rankOrder(sr.Runs, sr.MeanB)
	rankB := make([]int, len(sr.Runs))
	for pos, i := range byB {
		rankB[i] = pos + 1
	}
	for pos, i := range byA {
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\t%d\n", pos+1, sr.Runs[i], agreeNum(sr.MeanA[i]), agreeNum(sr.MeanB[i]), rankB[i])
	}
	tw.Flush()
	fmt.Fprintf(w, "Kendall's τ-b %s, τ_AP %s (A as reference)\n", agreeNum(sr.Tau), agreeNum(sr.TauAP))
	swaps := sr.Swaps()
	if len(swaps) == 0 {
		fmt.Fprintln(w, "No pair of runs swaps.")
		return nil
	}
	return writeSwaps(w, *sr, swaps)
}

// rankOrder returns the indices of runs by mean, highest first (ties, and NaN last, by name).
func rankOrder(runs []string, means []float64) []int {
	idx := make([]int, len(runs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		x, y := means[a], means[b]
		switch {
		case math.IsNaN(x) != math.IsNaN(y):
			if math.IsNaN(x) {
				return 1
			}
			return -1
		case x > y:
			return -1
		case x < y:
			return 1
		}
		return strings.Compare(runs[a], runs[b])
	})
	return idx
}

// agreeJSON is the JSON form: NaN as null.
func agreeJSON(ag agree.Agreement, sr *agree.SystemRanking) any {
	f := func(v float64) any {
		if math.IsNaN(v) {
			return nil
		}
		return v
	}
	kappa := func(k agree.Kappa) any {
		return map[string]any{"value": f(k.Value), "low": f(k.Low), "high": f(k.High), "undefined_resamples": k.Undefined}
	}
	out := map[string]any{
		"pairs": len(ag.Pairs), "only_a": ag.OnlyA, "only_b": ag.OnlyB, "observed": ag.Observed,
		"labels": ag.Labels, "confusion": ag.Confusion, "threshold": ag.Threshold, "level": ag.Level,
		"kappa": map[string]any{"binary": kappa(ag.Binary), "unweighted": kappa(ag.Unweighted), "linear": kappa(ag.Linear), "quadratic": kappa(ag.Quadratic)},
	}
	if sr != nil {
		var pairs []any
		for _, s := range sr.Pairs {
			pairs = append(pairs, map[string]any{"x": s.RunX, "y": s.RunY, "diff_a": s.DiffA, "diff_b": s.DiffB,
				"p_a": s.PA, "p_b": s.PB, "significant_a": s.SigA, "significant_b": s.SigB, "swapped": s.Swapped})
		}
		out["systems"] = map[string]any{"measure": sr.Measure.String(), "queries": len(sr.Queries), "runs": sr.Runs,
			"mean_a": sr.MeanA, "mean_b": sr.MeanB, "tau_b": f(sr.Tau), "tau_ap": f(sr.TauAP), "alpha": sr.Alpha, "pairs": pairs}
	}
	return out
}

// writeSwaps writes the pairs of runs that swap between the judges, with each one's
// difference and Holm-adjusted p under A and under B (agree and agree --report).
func writeSwaps(w io.Writer, sr agree.SystemRanking, swaps []agree.Swap) error {
	fmt.Fprintf(w, "%d of %d pairs of runs swap (Holm-adjusted paired t-test p under A, under B; * < %g):\n", len(swaps), len(sr.Pairs), sr.Alpha)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	star := func(sig bool) string {
		if sig {
			return "*"
		}
		return ""
	}
	for _, s := range swaps {
		fmt.Fprintf(tw, "  %s vs %s\tA %+.4f p %.3g%s\tB %+.4f p %.3g%s\n", s.RunX, s.RunY, s.DiffA, s.PA, star(s.SigA), s.DiffB, s.PB, star(s.SigB))
	}
	return tw.Flush()
}

// warnCoverage says, when runs are ranked under each judge, that the judges did not judge the same
// pairs: each run is scored under each judge's own judgments, so a pair only one judged counts as
// judged under that judge and as not relevant under the other, and a swap may come from that
// coverage rather than from disagreement (the own-collection journey: 50 pairs against 70).
func warnCoverage(stderr io.Writer, onlyA, onlyB int) {
	if onlyA == 0 && onlyB == 0 {
		return
	}
	fmt.Fprintf(stderr, "ranklab agree: warning: %d %s judged by A only and %d by B only: the runs are scored under each judge's own "+
		"judgments, where a pair the other did not judge counts as not relevant, so a swap may come from what each judged, not from "+
		"disagreement; for the ranking, give both judges the same pairs\n", onlyA, words.Plural(onlyA, "pair", "pairs"), onlyB)
}
