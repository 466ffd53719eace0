package main

import (
	"flag"
	"fmt"
	"html"
	"io"
	"path/filepath"
	"strings"

	"github.com/ranklab/ranklab/internal/numflag"

	"github.com/ranklab/ranklab/internal/atomicfile"

	"github.com/ranklab/ranklab/charts"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/provenance"
)

func init() {
	commands["render"] = command{summary: "write a standalone offline HTML page of the lab or of an evaluated run", run: runRender}
}

const renderUsage = `usage:
  ranklab render lab [--link K=V&...] [--k N] [--rerank N] [--rerank_quality N] [--grade N]
                     [--total N] [--corpus N] [--chunk N] [--overlap N] [--seed N] [--n N]
                     --out FILE.html
  ranklab render eval [-c] [-l N] [-M N] [-m MEASURE]... QRELS RUN --out FILE.html

The page embeds ECharts 5.4.3 once and needs no network. It ends with a provenance stamp
(ranklab's version, the conventions, the flags and the SHA-256 of each input); --no-stamp
leaves it out.`

// runRender dispatches "render lab" and "render eval".
func runRender(args []string, stdout, stderr io.Writer) int {
	return runAction("ranklab render", "page", renderUsage, []action{{"lab", renderLab}, {"eval", renderEval}}, args, stdout, stderr)
}

// renderLab writes the whole lab (both panels) for one state.
func renderLab(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ranklab render lab", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, renderUsage); fs.PrintDefaults() }
	stateFlags := addLabStateFlags(fs)
	out := fs.String("out", "", "output `FILE.html` (required)")
	noStamp := fs.Bool("no-stamp", false, "leave the provenance stamp out of the page")
	if code, ok := parseArgs(fs, args); !ok {
		return code
	}
	fail := failer(stderr, "ranklab render lab")
	if *out == "" {
		return fail(2, "--out FILE.html is required")
	}
	s, err := stateFlags.state(fs)
	if err != nil {
		return fail(2, "%v", err)
	}
	o, err := s.Outcome()
	if err != nil {
		return fail(2, "%v", err)
	}
	frags := charts.LabPanels(o)
	if !*noStamp {
		st, err := provenance.New("ranklab render lab", args, []string{"lab state " + s.Link()})
		if err != nil {
			return fail(1, "%v", err)
		}
		frags = append(frags, st.HTML())
	}
	return renderWrite(*out, charts.Page(fmt.Sprintf("ranklab lab — seed %d, %d candidates", s.Seed, s.Size), frags...), "ranklab render lab", stdout, stderr)
}

// renderWrite writes the page and reports its size.
func renderWrite(path, page, who string, stdout, stderr io.Writer) int {
	if err := atomicfile.WriteFile(path, []byte(page)); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", who, err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: wrote %s (%d bytes)\n", who, path, len(page))
	return 0
}

// renderEvalMeasures are the measures of "render eval" without -m.
var renderEvalMeasures = []string{"nDCG@10", "P@10", "R@10", "RR", "AP"}

// renderEval writes the evaluation of one run (and, with a second run, the per-query
// difference between them): the per-query table and, for each measure that is not a count,
// its distribution over the queries.
func renderEval(args []string, stdout, stderr io.Writer) int {
	const who = "ranklab render eval"
	fs := flag.NewFlagSet(who, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, renderUsage); fs.PrintDefaults() }
	var ms stringList
	fs.Var(&ms, "m", "measure (ir_measures or trec_eval name, repeatable); default "+strings.Join(renderEvalMeasures, " "))
	all := fs.Bool("c", false, "evaluate every qrels query (missing ones score 0)")
	rel := numflag.NewInt(fs, "l", 0, "minimum grade counted as relevant for binary measures (0 means 1)")
	depth := numflag.NewInt(fs, "M", 0, "evaluate only the first N docs of each ranking (0 = all)")
	out := fs.String("out", "", "output `FILE.html` (required)")
	noStamp := fs.Bool("no-stamp", false, "leave the provenance stamp out of the page")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagStatus(err, 2)
	}
	fail := failer(stderr, who)
	if len(pos) < 2 || len(pos) > 3 {
		return fail(2, "want QRELS RUN [RUN_B], got %d file arguments\n%s", len(pos), renderUsage)
	}
	if *out == "" {
		return fail(2, "--out FILE.html is required")
	}
	if len(ms) == 0 {
		ms = renderEvalMeasures
	}
	measures, err := eval.ParseMeasures(ms...)
	if err != nil {
		return fail(2, "-m: %v", err)
	}
	qrels, err := eval.ReadQrelsFile(pos[0])
	if err != nil {
		return fail(1, "%v", err)
	}
	opt := eval.Options{RelLevel: *rel, Depth: *depth, AllQueries: *all}
	var results []eval.Result
	var names []string
	for _, path := range pos[1:] {
		run, err := eval.ReadRunFile(path)
		if err != nil {
			return fail(1, "%v", err)
		}
		r, err := opt.Evaluate(qrels, run, measures...)
		if err != nil {
			return fail(1, "%s: %v", path, err)
		}
		results = append(results, r)
		names = append(names, renderRunName(run, path))
	}
	var frags []string
	for i, r := range results {
		frags = append(frags, "<h2>"+html.EscapeString(names[i])+"</h2>\n", charts.QueryTable(r))
		for _, m := range r.Measures {
			if !m.IsCount() {
				frags = append(frags, charts.QueryDistribution(r, m))
			}
		}
	}
	if len(results) == 2 {
		frags = append(frags, "<h2>"+html.EscapeString(names[1]+" against "+names[0])+"</h2>\n")
		for _, m := range results[0].Measures {
			if !m.IsCount() {
				frags = append(frags, charts.QueryDiff(results[0], results[1], m, names[0], names[1]))
			}
		}
	}
	if !*noStamp {
		st, err := provenance.New(who, args, evalConventions(opt, measures), inputFiles(pos[0], pos[1:])...)
		if err != nil {
			return fail(1, "%v", err)
		}
		frags = append(frags, st.HTML())
	}
	title := "ranklab eval — " + strings.Join(names, " vs ") + " on " + filepath.Base(pos[0])
	return renderWrite(*out, charts.Page(title, frags...), who, stdout, stderr)
}

// renderRunName names a run by its tag, or by its file name when the tag is empty.
func renderRunName(run eval.Run, path string) string {
	if run.Tag != "" {
		return run.Tag
	}
	return filepath.Base(path)
}
