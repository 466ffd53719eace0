package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/words"
	"github.com/ranklab/ranklab/provenance"
)

func init() {
	commands["eval"] = command{summary: "evaluate a TREC run against qrels, like trec_eval", run: runEval}
}

const evalUsage = `usage: ranklab eval [-q] [-c] [-l N] [-M N] [-m MEASURE]... [-digits N] [-f trec|json|csv] QRELS RUN

Evaluates RUN (TREC run: qid Q0 docno rank score tag) against QRELS (TREC qrels: qid iter docno
grade, or BEIR TSV with its query-id/corpus-id/score header); either may be gzipped. Output and
semantics are trec_eval's (10.0): ranking by score descending then docno descending, the rank
column ignored. trec_eval's spellings work, with values attached or not (-l2, -M100, -mP.5).

  -q          also print each query's values (queries in byte order), before the "all" lines
  -c          average over every qrels query; a query without a ranking scores 0 (trec_eval -c).
              Without -c the average is over the queries in both files (as trec_eval 9.0.8) and
              the qrels queries without a ranking are named on stderr
  -l N        relevance level: a grade >= N is relevant (default 1). nDCG ignores it
  -M N        keep only the first N ranked docs of each query (default: all)
  -m MEASURE  a measure, repeatable; trec_eval names (P.5,10  recall.100  recip_rank  map
              map_cut.100  ndcg  ndcg_cut.10  Rprec  bpref  success.1,5,10  num_q  num_ret
              num_rel  num_rel_ret; P, recall, ndcg_cut, map_cut without cutoffs take
              5,10,15,20,30,100,200,500,1000) or ir_measures names (P@5  P(rel=2)@5  R@100  RR
              RR@10  AP  AP@100  nDCG@10  nDCG(dcg=exp-log2)@10  Rprec  Bpref  Success@10
              Judged@10  NumQ  NumRet  NumRel  NumRelRet). Default: num_q num_ret num_rel
              num_rel_ret map Rprec bpref recip_rank P (trec_eval's "official" set, without
              runid, gm_map and iprec_at_recall)
  -digits N   print N decimals instead of 4 (trec format)
  -f FORMAT   trec (default: "%-22s\t%s\t%6.4f" lines in trec_eval's measure order), json or csv
  --stamp     also stamp the trec format (# lines after trec_eval's; json and csv are stamped
              by default: a "provenance" member, leading # lines)
  --no-stamp  no provenance stamp
  -h          this help

Queries only in the run are ignored (counted in a warning on stderr). Errors go to stderr with
exit status 1; a malformed input line is reported as file:line: what is wrong.
`

// evalArgs are the parsed arguments of ranklab eval.
type evalArgs struct {
	perQuery   bool
	opt        eval.Options
	measures   []string
	digits     int
	format     string
	qrels, run string
	help       bool
	stamp      bool // --stamp: stamp even the trec format; --no-stamp: stamp nothing
	noStamp    bool
}

// defaultEvalMeasures is trec_eval's "official" set minus the measures ranklab lacks.
var defaultEvalMeasures = []string{"num_q", "num_ret", "num_rel", "num_rel_ret", "map", "Rprec", "bpref", "recip_rank", "P"}

// parseEvalArgs reads getopt-style arguments: single-letter flags may be grouped (-qc) and
// take their value attached (-l2, -mP.5) or as the next argument; -digits and -f also accept
// -digits=N and --digits N.
func parseEvalArgs(args []string) (evalArgs, error) {
	a := evalArgs{digits: 4, format: "trec"}
	var files []string
	intArg := func(flag, v string) (int, error) {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("flag %s: %q is not a non-negative integer", flag, v)
		}
		return n, nil
	}
	for i := 0; i < len(args); i++ {
		arg := args[i]
		next := func(flag string) (string, error) {
			if i+1 >= len(args) {
				return "", fmt.Errorf("flag %s needs a value", flag)
			}
			i++
			return args[i], nil
		}
		if arg == "--" {
			files = append(files, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(arg, "-") || arg == "-" {
			files = append(files, arg)
			continue
		}
		long := strings.TrimPrefix(strings.TrimPrefix(arg, "-"), "-")
		if strings.HasPrefix(arg, "--") && (long == "stamp" || long == "no-stamp") {
			a.stamp, a.noStamp = a.stamp || long == "stamp", a.noStamp || long == "no-stamp"
			continue
		}
		if name, val, hasVal := strings.Cut(long, "="); name == "digits" || name == "help" || (strings.HasPrefix(arg, "--") && name == "f") {
			switch name {
			case "help":
				a.help = true
				continue
			}
			var err error
			if !hasVal {
				if val, err = next("-" + name); err != nil {
					return a, err
				}
			}
			if name == "f" {
				a.format = val
				continue
			}
			if a.digits, err = intArg("-digits", val); err != nil {
				return a, err
			}
			continue
		}
		// A cluster of single-letter flags.
		for j := 1; j < len(arg); j++ {
			c := arg[j]
			switch c {
			case 'q':
				a.perQuery = true
			case 'c':
				a.opt.AllQueries = true
			case 'h':
				a.help = true
			case 'l', 'M', 'm', 'f':
				flag := "-" + string(c)
				val := strings.TrimPrefix(arg[j+1:], "=")
				if j+1 == len(arg) {
					var err error
					if val, err = next(flag); err != nil {
						return a, err
					}
				}
				var err error
				switch c {
				case 'l':
					a.opt.RelLevel, err = intArg(flag, val)
					if err == nil && a.opt.RelLevel == 0 {
						err = fmt.Errorf("flag -l: relevance level 0 is not supported (levels start at 1)")
					}
				case 'M':
					a.opt.Depth, err = intArg(flag, val)
					if err == nil && a.opt.Depth == 0 {
						err = fmt.Errorf("flag -M: depth must be at least 1")
					}
				case 'm':
					a.measures = append(a.measures, val)
				case 'f':
					a.format = val
				}
				if err != nil {
					return a, err
				}
				j = len(arg) // the value ends the cluster
			default:
				return a, fmt.Errorf("unknown flag -%c in %q (ranklab eval -h lists the flags)", c, arg)
			}
		}
	}
	if a.help {
		return a, nil
	}
	switch a.format {
	case "trec", "json", "csv":
	default:
		return a, fmt.Errorf("flag -f: format %q; accepted: trec, json, csv", a.format)
	}
	if a.digits > 17 {
		return a, fmt.Errorf("flag -digits: %d is more than 17", a.digits)
	}
	if len(files) != 2 {
		return a, fmt.Errorf("want 2 files (QRELS RUN), got %d", len(files))
	}
	a.qrels, a.run = files[0], files[1]
	if len(a.measures) == 0 {
		a.measures = defaultEvalMeasures
	}
	return a, nil
}

func runEval(args []string, stdout, stderr io.Writer) int {
	a, err := parseEvalArgs(args)
	if a.help {
		io.WriteString(stdout, evalUsage)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "ranklab eval: %v\n%s", err, strings.SplitN(evalUsage, "\n", 2)[0]+"\n")
		return 1
	}
	measures, err := eval.ParseMeasures(a.measures...)
	if err != nil {
		fmt.Fprintf(stderr, "ranklab eval: %v\n", err)
		return 1
	}
	// The run streams through short-lived blocks: a higher GC target saves collector time at the
	// cost of a few MB (peak RSS stays near 50 MB on a 271 MB run).
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	res, err := evaluateFiles(a.qrels, a.run, measures, a.opt)
	if err != nil {
		fmt.Fprintf(stderr, "ranklab eval: %v\n", err)
		return 1
	}
	if n := len(res.Ignored); n > 0 {
		fmt.Fprintf(stderr, "ranklab eval: warning: %d run %s not in the qrels, ignored: %s\n", n, words.Plural(n, "query", "queries"), words.IDs(res.Ignored))
	}
	if n := len(res.Missing); n > 0 {
		if a.opt.AllQueries {
			fmt.Fprintf(stderr, "ranklab eval: warning: %d qrels %s without a ranking, counted as 0 (-c): %s\n", n, words.Plural(n, "query", "queries"), words.IDs(res.Missing))
		} else {
			fmt.Fprintf(stderr, "ranklab eval: warning: %d qrels %s without a ranking, left out of the means (-c counts them as 0): %s\n", n, words.Plural(n, "query", "queries"), words.IDs(res.Missing))
		}
	}
	var buf bytes.Buffer
	switch a.format {
	case "json":
		err = writeEvalJSON(&buf, res, a.perQuery)
	case "csv":
		err = writeEvalCSV(&buf, res, a.perQuery)
	default:
		err = eval.WriteTrecEval(&buf, res, a.perQuery, a.digits)
	}
	out := buf.Bytes()
	if err == nil && wantStamp(a.format, a.stamp, a.noStamp) {
		var st provenance.Stamp
		st, err = provenance.New("ranklab eval", args, provenance.EvalConventions(a.opt, measures),
			provenance.File{Role: "qrels", Path: a.qrels}, provenance.File{Role: "run", Path: a.run})
		if err == nil {
			out, err = stampOutput(a.format, out, st)
		}
	}
	if err == nil {
		_, err = stdout.Write(out)
	}
	if err != nil {
		fmt.Fprintf(stderr, "ranklab eval: %v\n", err)
		return 1
	}
	return 0
}

// evaluateFiles reads the qrels and evaluates the run file as it streams (see eval.EvaluateRunFile).
func evaluateFiles(qrelsPath, runPath string, measures []eval.Measure, opt eval.Options) (eval.Result, error) {
	qrels, err := eval.ReadQrelsFile(qrelsPath)
	if err != nil {
		return eval.Result{}, err
	}
	return opt.EvaluateRunFile(qrels, runPath, measures...)
}

// evalJSON is the -f json output: columns follow Measures.
type evalJSON struct {
	Measures []string    `json:"measures"`
	Queries  []string    `json:"queries,omitempty"`
	Values   [][]float64 `json:"values,omitempty"`
	Means    []float64   `json:"means"`
	All      []float64   `json:"all"`
	Missing  []string    `json:"missing"`
	Ignored  []string    `json:"ignored"`
}

func writeEvalJSON(w io.Writer, r eval.Result, perQuery bool) error {
	out := evalJSON{Means: r.Means, Missing: r.Missing, Ignored: r.Ignored}
	if out.Missing == nil {
		out.Missing = []string{}
	}
	if out.Ignored == nil {
		out.Ignored = []string{}
	}
	for _, m := range r.Measures {
		out.Measures = append(out.Measures, m.String())
		out.All = append(out.All, r.All(m))
	}
	if perQuery {
		out.Queries, out.Values = r.Queries, r.Values
	}
	return writeJSON(w, out)
}

// writeEvalCSV writes a header "query,<measure>..." then one row a query (with -q) and the
// "all" row (trec_eval's all values: sums for counts).
func writeEvalCSV(w io.Writer, r eval.Result, perQuery bool) error {
	cw := csv.NewWriter(w)
	header := []string{"query"}
	for _, m := range r.Measures {
		header = append(header, m.String())
	}
	cw.Write(header)
	row := func(q string, vals func(j int) float64) {
		rec := []string{q}
		for j := range r.Measures {
			rec = append(rec, strconv.FormatFloat(vals(j), 'g', -1, 64))
		}
		cw.Write(rec)
	}
	if perQuery {
		for i, q := range r.Queries {
			row(q, func(j int) float64 { return r.Values[i][j] })
		}
	}
	row("all", func(j int) float64 { return r.All(r.Measures[j]) })
	cw.Flush()
	return cw.Error()
}
