package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/ranklab/ranklab/internal/numflag"

	"github.com/ranklab/ranklab/check"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/provenance"
)

func init() {
	commands["check"] = command{summary: "preflight: what is wrong or misleading in qrels and runs, before reporting a number", run: runCheck}
}

const checkUsage = `usage: ranklab check QRELS RUN... [-l N] [-k N] [-m MEASURE]... [--json] [--no-stamp]
       ranklab check --corpus CORPUS [--qrels QRELS] [--threshold 0.9]   (twins in a corpus: --corpus -h)

Reads QRELS and each RUN (gzipped or not) and reports, with file and line: lines that do not
parse, blank and "#" comment lines, IDs with control, invisible or space characters (errors)
or with "#" or quotes (warnings), a byte order mark (a warning: ranklab drops it, trec_eval
reads it into the first ID), docs listed twice, rank columns that
disagree with the scores, run query IDs that nearly match a qrels query ("01"/"1", case,
spaces), queries on one side only, runs that share no query or no judged doc with the qrels,
qrels queries without a relevant doc, each run's unjudged share in its top k, the grade
distribution and the relevance level, and the queries whose value depends on the order of tied
scores (and how far the mean can move).

Exit status: 1 when there is an error (the numbers would be wrong, undefined or refused), 0
otherwise, warnings printed; 2 for a usage error.

  -l N        relevance level of the binary measures (default 1)
  -k N        depth of the unjudged share (default 10)
  -m MEASURE  measures of the tie check, repeatable (default nDCG@10 R@100 RR@10)
  --json      the report as JSON (every finding), with a provenance stamp
  --no-stamp  leave the stamp out of --json
  -h          this help
`

func runCheck(args []string, stdout, stderr io.Writer) int {
	if hasCorpusFlag(args) {
		return runCheckCorpus(args, stdout, stderr)
	}
	var files, names []string
	var opt check.Options
	asJSON, noStamp := false, false
	fail := failer(stderr, "ranklab check")
	for i := 0; i < len(args); i++ {
		a := args[i]
		value := func() (string, bool) {
			if i+1 >= len(args) {
				fmt.Fprintf(stderr, "ranklab check: flag %s needs a value\n", a)
				return "", false
			}
			i++
			return args[i], true
		}
		intValue := func(min int) (int, bool) {
			v, ok := value()
			if !ok {
				return 0, false
			}
			n, err := numflag.Int(v)
			if err != nil || n < min {
				fmt.Fprintf(stderr, "ranklab check: flag %s: %q is not an integer >= %d\n", a, v, min)
				return 0, false
			}
			return n, true
		}
		var ok = true
		switch {
		case a == "-h" || a == "--help":
			io.WriteString(stdout, checkUsage)
			return 0
		case a == "--json":
			asJSON = true
		case a == "--no-stamp":
			noStamp = true
		case a == "-l":
			opt.RelLevel, ok = intValue(1)
		case a == "-k":
			opt.K, ok = intValue(1)
		case a == "-m":
			var v string
			if v, ok = value(); ok {
				names = append(names, v)
			}
		case a == "--":
			files = append(files, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "-") && a != "-":
			return fail(2, "unknown flag %s\n%s", a, synopsis(checkUsage))
		default:
			files = append(files, a)
		}
		if !ok {
			return 2
		}
	}
	if len(files) < 2 {
		return fail(2, "want QRELS and at least one RUN, got %d file(s)\n%s", len(files), synopsis(checkUsage))
	}
	if len(names) > 0 {
		ms, err := eval.ParseMeasures(names...)
		if err != nil {
			return fail(2, "%v", err)
		}
		opt.Measures = ms
	}
	r, err := check.Files(files[0], files[1:], opt)
	if err != nil {
		return fail(1, "%v", err)
	}
	var out []byte
	if asJSON {
		out = r.JSON()
		if !noStamp {
			st, err := provenance.New("ranklab check", args, []string{fmt.Sprintf("relevance level %d, unjudged share at %d", r.RelLevel, r.K)}, inputFiles(files[0], files[1:])...)
			if err == nil {
				out, err = st.Append("json", out)
			}
			if err != nil {
				return fail(1, "%v", err)
			}
		}
	} else {
		out = []byte(r.Text())
	}
	if _, err := stdout.Write(out); err != nil {
		return fail(1, "%v", err)
	}
	if !r.OK() {
		return 1
	}
	return 0
}
