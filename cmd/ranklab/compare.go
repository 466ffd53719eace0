package main

import (
	"fmt"
	"github.com/ranklab/ranklab/eval"
	"io"
	"strconv"
	"strings"

	"github.com/ranklab/ranklab/check"
	"github.com/ranklab/ranklab/compare"
	"github.com/ranklab/ranklab/provenance"
	"github.com/ranklab/ranklab/stats"
)

func init() {
	commands["compare"] = command{summary: "compare runs on one qrels with paired significance tests", run: runCompare}
}

const compareUsage = `usage: ranklab compare QRELS RUN_A RUN_B [RUN...] [-m MEASURE]... [--test t|perm|both] [--seed N] [-f text|json|csv|md|latex|html]

Compares every run with the first (the baseline) on the same queries: per-measure means,
per-query differences (run - baseline), wins/ties/losses, Cohen's d_z, the paired t-test, the
paired randomization test, the percentile bootstrap interval of the mean difference, and Holm and
Bonferroni adjustments over all (runs - 1) x measures comparisons. Runs are named by their paths.

The paired queries are the qrels queries that at least one run ranks (with -c: every qrels
query). A run without a ranking for one of them scores 0 on it (trec_eval -c) and the report says
so; queries only in a run are ignored and named.

  -m MEASURE        a measure, repeatable (ir_measures or trec_eval names; default nDCG@10 AP P@10)
  --test T          t, perm or both (default both)
  --seed N          seed of the randomization test and the bootstrap (default 42)
  --permutations N  randomization draws (default 10000)
  --resamples N     bootstrap resamples (default 10000)
  --level X         confidence level of the intervals (default 0.95)
  --alpha X         significance level of the marks, after Holm (default 0.05)
  -c                pair over every qrels query
  -l N              relevance level for binary measures (trec_eval -l, default 1)
  -M N              keep the first N ranked docs of each query (trec_eval -M)
  -f FORMAT         text (default), json, csv, md, latex or html
  --stamp           also stamp the text output (json, csv, md, latex and html carry a
                    provenance stamp by default: version, conventions, flags, SHA-256 of inputs)
  --no-stamp        no provenance stamp
  -h                this help
`

var defaultCompareMeasures = []string{"nDCG@10", "AP", "P@10"}

type compareArgs struct {
	files          []string
	measures       []string
	opt            compare.Options
	format         string
	help           bool
	stamp, noStamp bool
}

func parseCompareArgs(args []string) (compareArgs, error) {
	a := compareArgs{format: "text"}
	a.opt.Seed = stats.DefaultSeed
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "-" || !strings.HasPrefix(arg, "-") {
			a.files = append(a.files, arg)
			continue
		}
		if arg == "--" {
			a.files = append(a.files, args[i+1:]...)
			break
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if !hasVal && len(name) > 1 && strings.Count(arg, "-") == 1 && strings.ContainsRune("mflM", rune(name[0])) && !strings.HasPrefix(arg, "--") {
			name, val, hasVal = name[:1], name[1:], true // -mP@5, -l2
		}
		value := func() (string, error) {
			if hasVal {
				return val, nil
			}
			if i+1 >= len(args) {
				return "", fmt.Errorf("flag %s needs a value", arg)
			}
			i++
			return args[i], nil
		}
		intValue := func(min int) (int, error) {
			v, err := value()
			if err != nil {
				return 0, err
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < min {
				return 0, fmt.Errorf("flag %s: %q is not an integer ≥ %d", arg, v, min)
			}
			return n, nil
		}
		floatValue := func() (float64, error) {
			v, err := value()
			if err != nil {
				return 0, err
			}
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || !(x > 0 && x < 1) {
				return 0, fmt.Errorf("flag %s: %q is not a number in (0, 1)", arg, v)
			}
			return x, nil
		}
		var err error
		switch name {
		case "h", "help":
			a.help = true
		case "stamp":
			a.stamp = true
		case "no-stamp":
			a.noStamp = true
		case "m", "measure":
			var v string
			if v, err = value(); err == nil {
				a.measures = append(a.measures, v)
			}
		case "test":
			var v string
			if v, err = value(); err == nil {
				a.opt.Tests, err = compare.ParseTests(v)
			}
		case "seed":
			var v string
			if v, err = value(); err == nil {
				if a.opt.Seed, err = strconv.ParseUint(v, 10, 64); err != nil || a.opt.Seed == 0 {
					err = fmt.Errorf("flag --seed: %q is not an integer ≥ 1", v)
				}
			}
		case "permutations":
			a.opt.Permutations, err = intValue(1)
		case "resamples":
			a.opt.Resamples, err = intValue(1)
		case "level":
			a.opt.Level, err = floatValue()
		case "alpha":
			a.opt.Alpha, err = floatValue()
		case "c":
			a.opt.Eval.AllQueries = true
		case "l":
			a.opt.Eval.RelLevel, err = intValue(0)
		case "M":
			a.opt.Eval.Depth, err = intValue(0)
		case "f", "format":
			var v string
			if v, err = value(); err == nil {
				switch v {
				case "text", "json", "csv", "md", "latex", "html":
					a.format = v
				default:
					err = fmt.Errorf("flag -f: unknown format %q (want text, json, csv, md, latex or html)", v)
				}
			}
		default:
			err = fmt.Errorf("unknown flag %s", arg)
		}
		if err != nil {
			return a, err
		}
	}
	if a.help {
		return a, nil
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
	refuseFailedRuns(&r, a.files[0], a.files[1:], a.opt.Eval.RelLevel, stderr)
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
		out = r.HTML() + "\n"
	default:
		out = r.Text()
	}
	data := []byte(out)
	if wantStamp(a.format, a.stamp, a.noStamp) {
		in := []provenance.File{{Role: "qrels", Path: a.files[0]}}
		for i, p := range a.files[1:] {
			in = append(in, provenance.File{Role: fmt.Sprintf("run %d", i+1), Path: p})
		}
		st, err := provenance.New("ranklab compare", args, compareConventions(a.opt, measures), in...)
		if err == nil {
			data, err = stampOutput(a.format, data, st)
		}
		if err != nil {
			fmt.Fprintf(stderr, "ranklab compare: %v\n", err)
			return 1
		}
	}
	if _, err := stdout.Write(data); err != nil {
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

// refuseFailedRuns runs the preflight (package check) on the compared files and refuses every
// run that fails it (check.Report.RefuseIn): an empty run, one sharing no query or no judged doc
// with the qrels, near-matching query IDs, a byte order mark, ... is not a result, so no
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
	out := provenance.EvalConventions(eo, measures)
	seed := o.Seed
	if seed == 0 {
		seed = stats.DefaultSeed
	}
	out = append(out, fmt.Sprintf("paired query set: the qrels queries some run ranks (every qrels query with -c); tests %s, seed %d, permutations %d, resamples %d, level %v, alpha %v (0 = default), Holm over runs x measures",
		o.Tests, seed, o.Permutations, o.Resamples, o.Level, o.Alpha))
	out = append(out, "runs that fail ranklab check are never called significant")
	return out
}
