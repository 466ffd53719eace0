package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/ranklab/ranklab/conventions"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/provenance"
)

func init() {
	commands["conventions"] = command{summary: "score one run under each tool's rules side by side, and say why the numbers differ", run: runConventions}
}

const conventionsUsage = `usage: ranklab conventions QRELS RUN [-m MEASURE]... [-f text|json|csv|md|html] [--stamp|--no-stamp]

Scores RUN on QRELS under the rules of trec_eval 10.0 (default and -c), pytrec_eval (trec_eval
9.0.8), ir_measures, ranx, BEIR (EvaluateRetrieval and its R_cap), ragas' ID-based context
precision and recall and LlamaIndex's retrieval metrics (default and granular), one row per
convention, one column per measure, next to ranklab's own number (trec_eval 10.0 -c). Every
number that differs carries a note: the tool's name for the measure and one line per reason,
computed from these files ("query \"7\" has no ranking: left out, averaged over 299 queries,
not 300"; "recip_rank is not cut at 10: ..."; "ties kept in file order ..."). Each query's docs
are taken in the run's file order where a tool takes a list.

  -m MEASURE   repeatable; P@k, R@k, nDCG@k, nDCG, RR, RR@k (MRR@k), AP, AP@k, Success@k
               (default nDCG@10 R@100 RR@10)
  -f FORMAT    text (default), json, csv (one row per cell), md or html
  --stamp      also stamp the text output (# lines at the end)
  --no-stamp   leave the provenance stamp out of json, csv, md and html
  -h           this help
`

var defaultConventionsMeasures = []string{"nDCG@10", "R@100", "RR@10"}

func runConventions(args []string, stdout, stderr io.Writer) int {
	var files, names []string
	format, stamp, noStamp := "text", false, false
	fail := failer(stderr, "ranklab conventions")
	for i := 0; i < len(args); i++ {
		a := args[i]
		value := func() (string, bool) {
			if i+1 >= len(args) {
				fmt.Fprintf(stderr, "ranklab conventions: flag %s needs a value\n", a)
				return "", false
			}
			i++
			return args[i], true
		}
		switch {
		case a == "-h" || a == "--help":
			io.WriteString(stdout, conventionsUsage)
			return 0
		case a == "-m" || a == "--measure":
			v, ok := value()
			if !ok {
				return 2
			}
			names = append(names, v)
		case strings.HasPrefix(a, "-m") && !strings.HasPrefix(a, "--"):
			names = append(names, strings.TrimPrefix(strings.TrimPrefix(a, "-m"), "="))
		case a == "-f" || a == "--format":
			v, ok := value()
			if !ok {
				return 2
			}
			format = v
		case strings.HasPrefix(a, "-f=") || strings.HasPrefix(a, "--format="):
			_, format, _ = strings.Cut(a, "=")
		case a == "--stamp":
			stamp = true
		case a == "--no-stamp":
			noStamp = true
		case a == "--":
			files = append(files, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "-") && a != "-":
			return fail(2, "unknown flag %s\n%s", a, synopsis(conventionsUsage))
		default:
			files = append(files, a)
		}
	}
	switch format {
	case "text", "json", "csv", "md", "html":
	default:
		return fail(2, "-f: format %q; accepted: text, json, csv, md, html", format)
	}
	if len(files) != 2 {
		return fail(2, "want 2 files (QRELS RUN), got %d\n%s", len(files), synopsis(conventionsUsage))
	}
	if len(names) == 0 {
		names = defaultConventionsMeasures
	}
	measures, err := eval.ParseMeasures(names...)
	if err != nil {
		return fail(2, "%v", err)
	}
	for _, m := range measures {
		if err := conventions.CheckMeasure(m); err != nil {
			fmt.Fprintf(stderr, "ranklab %v\n", err)
			return 2
		}
	}
	qrels, err := eval.ReadQrelsFile(files[0])
	if err != nil {
		return fail(1, "%v", err)
	}
	run, err := eval.ReadRunFile(files[1])
	if err != nil {
		return fail(1, "%v", err)
	}
	table, err := conventions.Compare(qrels, run, measures...)
	if err != nil {
		return fail(1, "%v", err)
	}
	var st provenance.Stamp
	if stamp || (!noStamp && format != "text") {
		st, err = provenance.New("ranklab conventions", args, conventionsInForce(),
			provenance.File{Role: "qrels", Path: files[0]}, provenance.File{Role: "run", Path: files[1]})
		if err != nil {
			return fail(1, "%v", err)
		}
	}
	out, err := renderConventions(table, st, format)
	if err != nil {
		return fail(1, "%v", err)
	}
	if _, err := io.WriteString(stdout, out); err != nil {
		return fail(1, "%v", err)
	}
	return 0
}

// renderConventions writes the table in format, stamped with st unless st is zero.
func renderConventions(table conventions.Table, st provenance.Stamp, format string) (string, error) {
	out, err := table.Format(format)
	if err != nil {
		return "", err
	}
	if st.Tool == "" {
		if format == "html" {
			out += "\n"
		}
		return out, nil
	}
	b, err := st.Append(format, []byte(out))
	return string(b), err
}

// conventionsInForce names each convention of the table, for the stamp.
func conventionsInForce() []string {
	out := []string{"reference: " + conventions.Reference + ": trec_eval 10.0's order and formulas, every qrels query averaged"}
	for _, c := range conventions.Conventions()[1:] {
		out = append(out, "compared: "+c.Name)
	}
	return out
}
