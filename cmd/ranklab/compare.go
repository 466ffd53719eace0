package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ranklab/ranklab/internal/measurename"
	"github.com/ranklab/ranklab/internal/numflag"

	"github.com/ranklab/ranklab/charts"
	"github.com/ranklab/ranklab/check"
	"github.com/ranklab/ranklab/compare"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/scan"
	"github.com/ranklab/ranklab/provenance"
	"github.com/ranklab/ranklab/stats"
)

func init() {
	commands["compare"] = command{summary: "compare runs on one qrels with paired significance tests", run: runCompare}
}

const compareUsage = `usage: ranklab compare QRELS RUN_A RUN_B [RUN...] [-m MEASURE]... [-test t|perm|both|tukey] [-seed N] [-f text|json|csv|md|latex|html]

Compares every run with the first (the baseline) on the same queries: per-measure means,
per-query differences (run - baseline), wins/ties/losses, Cohen's d_z, the paired t-test, the
paired randomization test, the percentile bootstrap interval of the mean difference, and Holm and
Bonferroni adjustments over all (runs - 1) x measures comparisons. Runs are named by their tags
(the run file's last column) when those tell them apart, else by their paths. Judged@k is shown,
never tested: it is how much of the top k is judged, not a quality measure. When the qrels come
from a pool (they judge some document not relevant), a note says where a measure at k scores
deeper than a run was judged (Judged@k below 0.9) and which run was not pooled.

The paired queries are the qrels queries that at least one run ranks (with -c: every qrels
query). A run without a ranking for one of them scores 0 on it (trec_eval -c) and the report says
so; queries only in a run are ignored and named.

Flags may stand before, between or after the files; -flag and --flag, "-f x" and "-f=x" are
the same.

  -m MEASURE        a measure, repeatable (ir_measures or trec_eval names; default nDCG@10 AP P@10)
  -test T           t, perm or both (default both); tukey compares every pair of runs instead
                    of each run with the first: Tukey's HSD (queries as blocks) and the
                    randomised Tukey test, both adjusted for all pairs, with letters (-f text or html)
  -standardize      with -test tukey: test per-query standardised scores (Webber et al. 2008)
  -seed N           seed of the randomization test and the bootstrap (default 42)
  -permutations N   randomization draws (default 10000)
  -resamples N      bootstrap resamples, 1 to 10000000 (default 10000; each keeps a mean in memory)
  -level X          confidence level of the intervals (default 0.95)
  -alpha X          significance level of the marks, after Holm (default 0.05)
  -c                pair over every qrels query
  -l N              relevance level for binary measures (trec_eval -l, default 1)
  -M N              keep the first N ranked docs of each query (trec_eval -M)
  -f FORMAT         text (default), json, csv, md, latex or html
  --stamp           also stamp the text output (json, csv, md, latex and html carry a
                    provenance stamp by default: version, conventions, flags, SHA-256 of inputs)
  --no-stamp        no provenance stamp
  -h                this help
`

// maxResamples bounds -resamples: 10,000,000 resamples take 80 MB of means.
const maxResamples = 10_000_000

var defaultCompareMeasures = []string{"nDCG@10", "AP", "P@10"}

type compareArgs struct {
	files          []string
	measures       []string
	opt            compare.Options
	format         string
	help           bool
	stamp, noStamp bool
	tukey          bool // -test tukey: every pair (compare.AllPairs)
	standardize    bool
}

// parseCompareArgs reads the flags (in any position among the files) with package flag.
func parseCompareArgs(args []string) (compareArgs, error) {
	a := compareArgs{format: "text"}
	fs := flag.NewFlagSet("ranklab compare", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are returned; -h prints compareUsage
	fs.Var((*stringList)(&a.measures), "m", "measure (repeatable)")
	fs.Func("test", "t, perm, both or tukey", func(v string) (err error) {
		if a.tukey = v == "tukey"; a.tukey {
			return nil
		}
		a.opt.Tests, err = parseName("test", v, compare.TTest, compare.Randomization, compare.Tests(0))
		return err
	})
	fs.BoolVar(&a.standardize, "standardize", false, "standardised scores (with -test tukey)")
	numflag.Uint64Var(fs, &a.opt.Seed, "seed", stats.DefaultSeed, "seed")
	numflag.IntVar(fs, &a.opt.Permutations, "permutations", stats.DefaultPermutations, "randomization draws")
	numflag.IntVar(fs, &a.opt.Resamples, "resamples", stats.DefaultResamples, "bootstrap resamples")
	numflag.Float64Var(fs, &a.opt.Level, "level", stats.DefaultLevel, "confidence level")
	numflag.Float64Var(fs, &a.opt.Alpha, "alpha", 0.05, "significance level")
	fs.BoolVar(&a.opt.Eval.AllQueries, "c", false, "pair over every qrels query")
	numflag.IntVar(fs, &a.opt.Eval.RelLevel, "l", 0, "relevance level")
	numflag.IntVar(fs, &a.opt.Eval.Depth, "M", 0, "depth")
	fs.BoolVar(&a.stamp, "stamp", false, "stamp every format with the provenance")
	fs.BoolVar(&a.noStamp, "no-stamp", false, "no provenance stamp")
	fs.Func("f", "format", func(v string) error {
		switch v {
		case "text", "json", "csv", "md", "latex", "html":
			a.format = v
			return nil
		}
		return fmt.Errorf("unknown format %q (want text, json, csv, md, latex or html)", v)
	})
	var err error
	if a.files, err = parseInterleaved(fs, args); err != nil {
		a.help = errors.Is(err, flag.ErrHelp)
		if a.help {
			err = nil
		}
		return a, err
	}
	switch o := a.opt; {
	case o.Seed == 0:
		return a, errors.New("flag -seed: 0 is not a seed (want an integer ≥ 1)")
	case o.Permutations < 1 || o.Resamples < 1:
		return a, errors.New("flags -permutations and -resamples: want an integer ≥ 1")
	case o.Resamples > maxResamples:
		return a, fmt.Errorf("flag -resamples: %d is more than %d (the bootstrap keeps one mean a resample in memory)", o.Resamples, maxResamples)
	case !(o.Level > 0 && o.Level < 1) || !(o.Alpha > 0 && o.Alpha < 1):
		return a, fmt.Errorf("flags -level %v and -alpha %v: want numbers in (0, 1)", o.Level, o.Alpha)
	case o.Eval.RelLevel < 0 || o.Eval.Depth < 0:
		return a, errors.New("flags -l and -M: want an integer ≥ 0")
	}
	if len(a.files) < 3 {
		return a, fmt.Errorf("need QRELS and at least two runs, got %d file(s)", len(a.files))
	}
	if len(a.measures) == 0 {
		a.measures = defaultCompareMeasures
	}
	if a.tukey && a.format != "text" && a.format != "html" {
		return a, fmt.Errorf("flag -test tukey prints text or html, not %s", a.format)
	}
	if a.standardize && !a.tukey {
		return a, errors.New("flag -standardize needs -test tukey")
	}
	return a, nil
}

func runCompare(args []string, stdout, stderr io.Writer) int {
	a, err := parseCompareArgs(args)
	if a.help {
		fmt.Fprint(stdout, compareUsage)
		return 0
	}
	fail := failer(stderr, "ranklab compare")
	if err != nil {
		return fail(2, "%v\n%s  (ranklab compare -h for the flags)", err, synopsis(compareUsage))
	}
	measures, err := eval.ParseMeasures(a.measures...)
	if err != nil {
		return fail(2, "%v", err)
	}
	// The evaluation and the preflight read every file: a pipe is kept, so neither reading
	// consumes what the other needs.
	defer scan.Keep(a.files...)()
	qrels, err := eval.ReadQrelsFile(a.files[0])
	if err != nil {
		return fail(1, "%v", err)
	}
	var runs []eval.Run
	for _, path := range a.files[1:] {
		run, err := eval.ReadRunFile(path)
		if err != nil {
			return fail(1, "%v", err)
		}
		runs = append(runs, run)
	}
	nameRuns(runs, a.files[1:])
	if a.tukey {
		return runTukey(stdout, stderr, fail, qrels, runs, measures, a)
	}
	r, err := a.opt.Runs(qrels, measures, runs...)
	if err != nil {
		return fail(1, "%v", err)
	}
	refuseFailedRuns(&r, a.files[0], a.files[1:], a.opt.Eval.RelLevel, stderr)
	if ks := judgedCutoffs(measures); len(ks) > 0 && pooledQrels(qrels, a.opt.Eval.RelLevel) {
		for _, run := range runs {
			res, err := a.opt.Eval.Evaluate(qrels, run, judgedMeasures(ks)...)
			if err == nil {
				r.Notes = append(r.Notes, judgedWarnings(res, run.Tag, a.files[0], ks)...)
			}
		}
	}
	out := charts.CompareTable(r) // html
	if a.format != "html" {
		if out, err = r.Format(a.format); err != nil {
			return fail(2, "%v", err)
		}
	}
	data := []byte(out)
	if wantStamp(a.format, a.stamp, a.noStamp) {
		st, err := provenance.New("ranklab compare", args, compareConventions(a.opt, measures), inputFiles(a.files[0], a.files[1:])...)
		if err == nil {
			data, err = st.Append(a.format, data)
		}
		if err != nil {
			return fail(1, "%v", err)
		}
	}
	if _, err := stdout.Write(data); err != nil {
		return fail(1, "%v", err)
	}
	for _, n := range r.Notes {
		if a.format != "text" {
			fmt.Fprintf(stderr, "ranklab compare: note: %s\n", n)
		}
	}
	return 0
}

// nameRuns names each run (its Tag) by the tag its file carries when every run has one and no
// two share it, else by its path; the same file given twice is told apart by "#2", "#3".
func nameRuns(runs []eval.Run, paths []string) {
	tags := map[string]int{}
	for _, r := range runs {
		tags[r.Tag]++
	}
	byTag := tags[""] == 0
	for _, n := range tags {
		byTag = byTag && n == 1
	}
	seen := map[string]int{}
	for i := range runs {
		if byTag {
			continue
		}
		runs[i].Tag = paths[i]
		if seen[paths[i]]++; seen[paths[i]] > 1 {
			runs[i].Tag = fmt.Sprintf("%s #%d", paths[i], seen[paths[i]])
		}
	}
}

// refuseFailedRuns runs the preflight (package check) on the compared files and refuses every
// run that fails it (check.Report.RefuseIn): an empty run, one sharing no query or no judged doc
// with the qrels, near-matching query IDs, an ID with a control character, ... is not a result, so no
// difference involving it is called significant. A preflight that cannot run is reported and
// refuses nothing.
func refuseFailedRuns(r *compare.Report, qrelsPath string, runPaths []string, relLevel int, stderr io.Writer) {
	pre, err := check.Files(qrelsPath, runPaths, check.Options{RelLevel: relLevel})
	if err != nil {
		fmt.Fprintf(stderr, "ranklab compare: preflight not run: %v\n", err)
		return
	}
	pre.RefuseIn(r)
}

// compareConventions lists the rules of a comparison for its stamp: the evaluation's, the
// paired query set, the tests and their seeds.
func compareConventions(o compare.Options, measures []eval.Measure) []string {
	eo := o.Eval
	eo.AllQueries = true // compare scores missing rankings as -c does
	out := evalConventions(eo, measures)
	seed := o.Seed
	if seed == 0 {
		seed = stats.DefaultSeed
	}
	out = append(out, fmt.Sprintf("paired query set: the qrels queries some run ranks (every qrels query with -c); tests %s, seed %d, permutations %d, resamples %d, level %v, alpha %v (0 = default), Holm over runs x measures",
		o.Tests, seed, o.Permutations, o.Resamples, o.Level, o.Alpha))
	out = append(out, "runs that fail ranklab check are never called significant")
	return out
}

// runTukey prints, per measure, every pair of runs compared by compare.AllPairs (-test tukey),
// with the judged-depth notes of the paired tests (judgedWarnings) under each measure at k;
// Judged@k is the pool's depth, not a quality measure, and is not tested. -f html sends the
// notes to stderr, as compare's other formats do.
func runTukey(stdout, stderr io.Writer, fail func(int, string, ...any) int, qrels eval.Qrels, runs []eval.Run, measures []eval.Measure, a compareArgs) int {
	opt := compare.AllPairsOptions{Permutations: a.opt.Permutations, Seed: a.opt.Seed, Level: a.opt.Level, Alpha: a.opt.Alpha,
		Standardize: a.standardize, Eval: a.opt.Eval}
	ks := judgedCutoffs(measures)
	var depth []eval.Result // each run's Judged@1 and Judged@k, when the qrels come from a pool
	if len(ks) > 0 && pooledQrels(qrels, a.opt.Eval.RelLevel) {
		for _, run := range runs {
			res, err := a.opt.Eval.Evaluate(qrels, run, judgedMeasures(ks)...)
			if err != nil {
				return fail(1, "%v", err)
			}
			depth = append(depth, res)
		}
	}
	var out strings.Builder
	var skipped []string
	for _, m := range measures {
		if m.Name == measurename.Judged {
			skipped = append(skipped, m.String())
			continue
		}
		r, err := compare.AllPairs(qrels, m, opt, runs...)
		if err != nil {
			return fail(1, "%v", err)
		}
		if slices.Contains(ks, m.Cutoff) {
			for i, res := range depth {
				r.Notes = append(r.Notes, judgedWarnings(res, runs[i].Tag, a.files[0], []int{m.Cutoff})...)
			}
		}
		if a.format == "html" {
			out.WriteString(charts.PairsTables(r))
			for _, n := range r.Notes {
				fmt.Fprintf(stderr, "ranklab compare: note: %s\n", n)
			}
			continue
		}
		if out.Len() > 0 {
			out.WriteString("\n")
		}
		out.WriteString(r.Text())
	}
	for _, m := range skipped {
		n := fmt.Sprintf("%s is the judged share of the top k (how deep the pool reaches), not a quality measure: not tested", m)
		if a.format == "html" {
			fmt.Fprintf(stderr, "ranklab compare: note: %s\n", n)
		} else {
			out.WriteString("note: " + n + "\n")
		}
	}
	if _, err := io.WriteString(stdout, out.String()); err != nil {
		return fail(1, "%v", err)
	}
	return 0
}
