package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ranklab/ranklab/charts"
	"github.com/ranklab/ranklab/compare"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/stats"
)

func init() {
	commands["compare"] = command{summary: "compare runs on one qrels with paired significance tests", run: runCompare}
}

const compareUsage = `usage: ranklab compare QRELS RUN_A RUN_B [RUN...] [-m MEASURE]... [-test t|perm|both] [-seed N] [-f text|json|csv|md|latex|html]

Compares every run with the first (the baseline) on the same queries: per-measure means,
per-query differences (run - baseline), wins/ties/losses, Cohen's d_z, the paired t-test, the
paired randomization test, the percentile bootstrap interval of the mean difference, and Holm and
Bonferroni adjustments over all (runs - 1) x measures comparisons. Runs are named by their paths.

The paired queries are the qrels queries that at least one run ranks (with -c: every qrels
query). A run without a ranking for one of them scores 0 on it (trec_eval -c) and the report says
so; queries only in a run are ignored and named.

Flags may stand before, between or after the files; -flag and --flag, "-f x" and "-f=x" are
the same.

  -m MEASURE        a measure, repeatable (ir_measures or trec_eval names; default nDCG@10 AP P@10)
  -test T           t, perm or both (default both)
  -seed N           seed of the randomization test and the bootstrap (default 42)
  -permutations N   randomization draws (default 10000)
  -resamples N      bootstrap resamples (default 10000)
  -level X          confidence level of the intervals (default 0.95)
  -alpha X          significance level of the marks, after Holm (default 0.05)
  -c                pair over every qrels query
  -l N              relevance level for binary measures (trec_eval -l, default 1)
  -M N              keep the first N ranked docs of each query (trec_eval -M)
  -f FORMAT         text (default), json, csv, md, latex or html
  -h                this help
`

var defaultCompareMeasures = []string{"nDCG@10", "AP", "P@10"}

type compareArgs struct {
	files    []string
	measures []string
	opt      compare.Options
	format   string
	help     bool
}

// parseCompareArgs reads the flags (in any position among the files) with package flag.
func parseCompareArgs(args []string) (compareArgs, error) {
	a := compareArgs{format: "text"}
	fs := flag.NewFlagSet("ranklab compare", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are returned; -h prints compareUsage
	fs.Var((*measureList)(&a.measures), "m", "measure (repeatable)")
	fs.Func("test", "t, perm or both", func(v string) (err error) { a.opt.Tests, err = compare.ParseTests(v); return err })
	fs.Uint64Var(&a.opt.Seed, "seed", stats.DefaultSeed, "seed")
	fs.IntVar(&a.opt.Permutations, "permutations", stats.DefaultPermutations, "randomization draws")
	fs.IntVar(&a.opt.Resamples, "resamples", stats.DefaultResamples, "bootstrap resamples")
	fs.Float64Var(&a.opt.Level, "level", stats.DefaultLevel, "confidence level")
	fs.Float64Var(&a.opt.Alpha, "alpha", 0.05, "significance level")
	fs.BoolVar(&a.opt.Eval.AllQueries, "c", false, "pair over every qrels query")
	fs.IntVar(&a.opt.Eval.RelLevel, "l", 0, "relevance level")
	fs.IntVar(&a.opt.Eval.Depth, "M", 0, "depth")
	fs.Func("f", "format", func(v string) error {
		switch v {
		case "text", "json", "csv", "md", "latex", "html":
			a.format = v
			return nil
		}
		return fmt.Errorf("unknown format %q (want text, json, csv, md, latex or html)", v)
	})
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				a.help = true
				return a, nil
			}
			return a, err
		}
		if fs.NArg() == 0 {
			break
		}
		a.files = append(a.files, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	switch o := a.opt; {
	case o.Seed == 0:
		return a, errors.New("flag -seed: 0 is not a seed (want an integer ≥ 1)")
	case o.Permutations < 1 || o.Resamples < 1:
		return a, errors.New("flags -permutations and -resamples: want an integer ≥ 1")
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
	return a, nil
}

func runCompare(args []string, stdout, stderr io.Writer) int {
	a, err := parseCompareArgs(args)
	if a.help {
		fmt.Fprint(stdout, compareUsage)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "ranklab compare: %v\n%s  (ranklab compare -h for the flags)\n", err, strings.SplitN(compareUsage, "\n", 2)[0])
		return 2
	}
	measures, err := eval.ParseMeasures(a.measures...)
	if err != nil {
		fmt.Fprintf(stderr, "ranklab compare: %v\n", err)
		return 2
	}
	qrels, err := eval.ReadQrelsFile(a.files[0])
	if err != nil {
		fmt.Fprintf(stderr, "ranklab compare: %v\n", err)
		return 1
	}
	var runs []compare.NamedRun
	for _, path := range a.files[1:] {
		run, err := eval.ReadRunFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "ranklab compare: %v\n", err)
			return 1
		}
		runs = append(runs, compare.NamedRun{Name: path, Run: run})
	}
	r, err := compare.Runs(qrels, runs, measures, a.opt)
	if err != nil {
		fmt.Fprintf(stderr, "ranklab compare: %v\n", err)
		return 1
	}
	var out string
	switch a.format {
	case "json":
		out = r.JSON()
	case "csv":
		out = r.CSV()
	case "md":
		out = r.Markdown()
	case "latex":
		out = r.LaTeX()
	case "html":
		out = charts.CompareTable(r)
	default:
		out = r.Text()
	}
	if _, err := io.WriteString(stdout, out); err != nil {
		fmt.Fprintf(stderr, "ranklab compare: %v\n", err)
		return 1
	}
	for _, n := range r.Notes {
		if a.format != "text" {
			fmt.Fprintf(stderr, "ranklab compare: note: %s\n", n)
		}
	}
	return 0
}
