package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/ranklab/ranklab/internal/numflag"

	"github.com/ranklab/ranklab/internal/csvcell"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/words"
	"github.com/ranklab/ranklab/provenance"
)

func init() {
	commands["eval"] = command{summary: "evaluate a TREC run against qrels, a drop-in for trec_eval 10.0", run: runEval}
}

const evalUsage = `usage: ranklab eval [-h] [-q] {-m measure}* [-c] [-n] [-l N] [-M N] [-J] [-N N]
       [-R qrels|prefs|qrels_prefs|qrels_jg] [-T trec_results] [-Z zscores] [-D N[.qid]]
       [--trec-eval-9] [--ignore-identical-ids] [-f trec|json|csv] [-digits N] REL_INFO RUN

A drop-in for trec_eval 10.0: the same flags, measures, names and output, byte for byte.
RUN is a TREC run (qid Q0 docno rank score tag); REL_INFO is TREC qrels (qid iter docno grade),
BEIR TSV qrels (query-id, corpus-id, score), or with -R a preferences file. Either may be
gzipped; "-" reads standard input. Lines starting with '#' are comments; a UTF-8 byte-order mark
is dropped. Ranking: score descending, then docno descending; the rank column is ignored.
Flags may be grouped (-qc), take their value attached (-l2, -M100, -mP.5) and follow the files.

  -q          also print each query's lines (queries in byte order) before the "all" lines
  -m MEASURE  a measure or nickname, repeatable; default "official". trec_eval's rule: the
              first parameter list of a measure is used, later ones are ignored (a warning
              names them). Names below; ir_measures names work too (P@5, nDCG@10, IPrec@0.5,
              Judged@10, SetF(beta=0.5), RBP(p=0.8), P(rel=2)@5, nDCG(dcg=exp-log2)@10)
  -c          every qrels query is evaluated; one without a ranking scores 0 (trec_eval -c).
              Without -c, a qrels query without a ranking is an error (exit 4), as in
              trec_eval 10.0; --trec-eval-9 leaves such queries out instead
  -n          no "all" lines
  -l N        relevance level: a grade >= N is relevant (default 1; N >= 1)
  -M N        keep only the first N ranked docs of each query (N >= 1; default all)
  -J          drop every retrieved doc the qrels do not judge (or grade negative) first
  -N N        number of docs in the collection (used by utility; default 0)
  -R FORMAT   REL_INFO format: qrels (default), prefs, qrels_prefs, qrels_jg
  -T FORMAT   RUN format: trec_results (the only one)
  -Z FILE     print Z scores from FILE's lines "qid measure mean stddev" (names Z-prefixed)
  -D N[.qid]  with .qid, evaluate only that query (ranklab prints no debug traces)
  -o          accepted and ignored, as in trec_eval (its old output format is gone)
  -a          trec_eval 8's "all measures": the same as -m all_trec
  -v          print the version
  --trec-eval-9  trec_eval 9.0.8's rules (those of pytrec_eval): float32 scores, iprec_at_recall
              and 11pt_avg cutoffs trunc(x*R+0.9), qrels queries without a ranking left out
              (with -c: counted as 0 in the means), no rbp, rbp_resid, unj in all_trec
  --ignore-identical-ids  drop from each ranking the doc whose ID is the query's ID, as BEIR's
              evaluation does by default (ignore_identical_ids; ArguAna's queries are corpus docs)
  -f FORMAT   trec (default), json or csv
  --stamp     also stamp the trec format (# lines after trec_eval's; json and csv are stamped
              by default: a "provenance" member, leading # lines)
  --no-stamp  no provenance stamp
  -digits N   print N decimals instead of 4
  -h          this help

Measures (trec_eval name, then ir_measures name where it has one):
  nicknames   official, all_trec, set, all_prefs, prefs, qrels_jg
  counts      runid num_q(NumQ) num_ret(NumRet) num_rel(NumRel) num_rel_ret(NumRelRet)
              num_nonrel_judged_ret
  ranking     map(AP) map_cut.k(AP@k) gm_map Rprec(Rprec) bpref(Bpref) gm_bpref
              recip_rank(RR) P.k(P@k) recall.k(R@k) relative_P.k success.k(Success@k)
              iprec_at_recall.x(IPrec@x) 11pt_avg.x,y,... Rprec_mult.x infAP(infAP) binG yaap
  gains       ndcg(nDCG) ndcg_cut.k(nDCG@k) ndcg.1=g1,2=g2 G dcg ideal_dcg ndcg_rel Rndcg
              rbp.p=x(RBP(p=x)) rbp_resid
  judged      unj.k relstring.len
  set         set_P(SetP) set_relative_P(SetP(relative=True)) set_recall(SetR) set_map(SetAP)
              set_F.x(SetF(beta=x)) utility.a,b,c,d
  prefs       prefs_num_prefs_poss prefs_num_prefs_ful prefs_num_prefs_ful_ret prefs_simp
              prefs_pair prefs_avgjg prefs_avgjg_Rnonrel prefs_simp_ret prefs_pair_ret
              prefs_avgjg_ret prefs_avgjg_Rnonrel_ret prefs_simp_imp prefs_pair_imp
              prefs_avgjg_imp (with -R prefs or qrels_prefs)
  qrels_jg    map_avgjg P_avgjg.k Rprec_mult_avgjg.x (with -R qrels_jg)
  ir_measures {{ir_only}} (no trec_eval name)
Default cutoffs: 5,10,15,20,30,100,200,500,1000 (success 1,5,10; unj 5,10,20); recall levels
0,0.1,...,1; Rprec_mult 0.2,0.4,...,2. The formulas are in package eval's doc.

Exit status (trec_eval's): 0 ok, 1 bad flag or measure, 2 unreadable or malformed input,
4 a qrels query without a ranking (without -c), 7 nothing to evaluate.
`

// evalArgs are the parsed arguments of ranklab eval.
type evalArgs struct {
	perQuery, noSummary bool
	opt                 eval.Options
	measureArgs         []string
	digits              int
	format              string
	relFormat           string
	zscores             string
	onlyQuery           string
	qrels, run          string
	help, version       bool
	stamp, noStamp      bool // --stamp: stamp even the trec format; --no-stamp: stamp nothing
}

// usageError is a bad command line (exit 1).
type usageError struct{ error }

// longFlags are trec_eval's long options, by the short flag each stands for.
var longFlags = map[string]byte{
	"help": 'h', "version": 'v', "query_eval_wanted": 'q', "measure": 'm', "complete_rel_info_wanted": 'c',
	"level_for_rel": 'l', "nosummary": 'n', "Debug_level": 'D', "Judged_docs_only": 'J',
	"Number_docs_in_coll": 'N', "Max_retrieved_per_topic": 'M', "Rel_info_format": 'R',
	"Results_format": 'T', "Output_old_results_format": 'o', "Zscore": 'Z',
}

// flagsWithValue are the single-letter flags that take a value.
const flagsWithValue = "mlDNMRTZf"

// parseEvalArgs reads getopt-style arguments, as GNU getopt_long does for trec_eval: flags may be
// grouped (-qc), take their value attached (-l2, -mP.5) or as the next argument, follow the
// files, and "--" ends them; long options take "--name=value" or "--name value" and may be
// abbreviated to a unique prefix. ranklab's own flags: -digits N, -f FORMAT, --trec-eval-9.
func parseEvalArgs(args []string) (evalArgs, error) {
	a := evalArgs{format: "trec", relFormat: "qrels"}
	var files []string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		next := func(flag string) (string, error) {
			if i+1 >= len(args) {
				return "", usageError{fmt.Errorf("flag %s needs a value", flag)}
			}
			i++
			return args[i], nil
		}
		var err error
		switch {
		case arg == "--":
			files = append(files, args[i+1:]...)
			i = len(args)
		case !strings.HasPrefix(arg, "-") || arg == "-":
			files = append(files, arg)
		case a.ownFlag(arg, next, &err):
		case strings.HasPrefix(arg, "--"):
			err = a.longFlag(arg, next)
		default:
			err = a.flagCluster(arg, next)
		}
		if err != nil {
			return a, err
		}
	}
	if a.help || a.version {
		return a, nil
	}
	return a, a.finish(files)
}

// ownFlag handles ranklab's own long flags (one or two dashes): --stamp, --no-stamp,
// --trec-eval-9, -digits N, -format F. It reports whether arg was one, setting *err.
func (a *evalArgs) ownFlag(arg string, next func(string) (string, error), err *error) bool {
	name, val, hasVal := strings.Cut(strings.TrimLeft(arg, "-"), "=")
	switch name {
	case "stamp", "no-stamp", "trec-eval-9", "ignore-identical-ids":
		switch {
		case hasVal:
			*err = usageError{fmt.Errorf("flag --%s takes no value", name)}
		case name == "trec-eval-9":
			a.opt.TrecEval9 = true
		case name == "ignore-identical-ids":
			a.opt.DropSelf = true
		default:
			a.stamp, a.noStamp = a.stamp || name == "stamp", a.noStamp || name == "no-stamp"
		}
		return true
	case "digits", "format":
		if !hasVal {
			if val, *err = next("-" + name); *err != nil {
				return true
			}
		}
		if name == "format" {
			a.format = val
			return true
		}
		d, e := numflag.Int(val)
		if e != nil || d < 0 || d > 17 {
			*err = usageError{fmt.Errorf("flag -digits: %q is not an integer from 0 to 17", val)}
			return true
		}
		a.digits = d
		return true
	}
	return false
}

// longFlag handles one of trec_eval's long options, "--name[=value]", name a unique prefix.
func (a *evalArgs) longFlag(arg string, next func(string) (string, error)) error {
	name, val, hasVal := strings.Cut(strings.TrimLeft(arg, "-"), "=")
	var c byte
	var matches []string
	for long, short := range longFlags {
		if long == name {
			matches, c = []string{long}, short
			break
		}
		if strings.HasPrefix(long, name) {
			matches, c = append(matches, long), short
		}
	}
	if len(matches) != 1 {
		slices.Sort(matches)
		return usageError{fmt.Errorf("unknown or ambiguous option %s (%s)", arg, strings.Join(matches, ", "))}
	}
	if strings.IndexByte(flagsWithValue, c) >= 0 && !hasVal {
		var err error
		if val, err = next(arg); err != nil {
			return err
		}
	}
	return a.setFlag(c, val)
}

// flagCluster handles a cluster of single-letter flags ("-qc", "-l2", "-m P.5"): a flag that
// takes a value takes the rest of the cluster, or the next argument.
func (a *evalArgs) flagCluster(arg string, next func(string) (string, error)) error {
	for j := 1; j < len(arg); j++ {
		c := arg[j]
		if strings.IndexByte(flagsWithValue, c) < 0 {
			if err := a.setFlag(c, ""); err != nil {
				return err
			}
			continue
		}
		val := arg[j+1:]
		if val == "" {
			var err error
			if val, err = next("-" + string(c)); err != nil {
				return err
			}
		}
		return a.setFlag(c, val)
	}
	return nil
}

// setFlag applies the single-letter flag c with its value.
func (a *evalArgs) setFlag(c byte, val string) error {
	intVal := func(min int) (int, error) {
		n, err := numflag.Int(val)
		if err != nil || n < min {
			return 0, usageError{fmt.Errorf("flag -%c: %q is not an integer >= %d", c, val, min)}
		}
		return n, nil
	}
	var err error
	switch c {
	case 'h':
		a.help = true
	case 'v':
		a.version = true
	case 'q':
		a.perQuery = true
	case 'c':
		a.opt.AllQueries = true
	case 'n':
		a.noSummary = true
	case 'J':
		a.opt.JudgedOnly = true
	case 'o':
	case 'a':
		a.measureArgs = append(a.measureArgs, "all_trec")
	case 'm':
		a.measureArgs = append(a.measureArgs, val)
	case 'l':
		a.opt.RelLevel, err = intVal(1)
	case 'M':
		a.opt.Depth, err = intVal(1)
	case 'N':
		a.opt.NumDocs, err = intVal(0)
	case 'D':
		level, qid, _ := strings.Cut(val, ".")
		if _, e := numflag.Int(level); e != nil {
			return usageError{fmt.Errorf("flag -D: %q is not N or N.qid", val)}
		}
		a.onlyQuery = qid
	case 'R':
		switch val {
		case "qrels", "prefs", "qrels_prefs", "qrels_jg":
			a.relFormat = val
		default:
			return &exitError{2, fmt.Errorf("flag -R: unknown rel_info format %q; accepted: qrels, prefs, qrels_prefs, qrels_jg", val)}
		}
	case 'T':
		if val != "trec_results" {
			return &exitError{2, fmt.Errorf("flag -T: unknown results format %q; accepted: trec_results", val)}
		}
	case 'Z':
		a.zscores = val
	case 'f':
		a.format = val
	default:
		return usageError{fmt.Errorf("unknown flag -%c (ranklab eval -h lists the flags)", c)}
	}
	return err
}

// finish checks the parsed arguments: the format, two files (not both standard input), and
// the default measures.
func (a *evalArgs) finish(files []string) error {
	switch a.format {
	case "trec", "json", "csv":
	default:
		return usageError{fmt.Errorf("flag -f: format %q; accepted: trec, json, csv", a.format)}
	}
	if len(files) != 2 {
		return usageError{fmt.Errorf("want 2 files (REL_INFO RUN), got %d", len(files))}
	}
	a.qrels, a.run = files[0], files[1]
	if a.qrels == "-" && a.run == "-" {
		return usageError{errors.New("REL_INFO and RUN cannot both be standard input (-)")}
	}
	if len(a.measureArgs) == 0 {
		a.measureArgs = []string{"official"}
	}
	return nil
}

// exitError is an error with trec_eval's exit status.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func runEval(args []string, stdout, stderr io.Writer) int {
	a, err := parseEvalArgs(args)
	switch {
	case a.help:
		io.WriteString(stdout, strings.Replace(evalUsage, "{{ir_only}}", strings.Join(eval.IROnlyNames(), " "), 1))
		return 0
	case a.version:
		fmt.Fprintln(stderr, "ranklab eval: trec_eval version 10.0 compatible (ranklab)")
		return 0
	case err != nil:
		return evalFail(stderr, err, true)
	}
	measures, warnings, err := eval.TrecMeasures(a.measureArgs, a.opt.TrecEval9)
	if err != nil {
		return evalFail(stderr, usageError{err}, false)
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "ranklab eval: warning: %s\n", escapeText(w))
	}
	// The run streams through short-lived blocks: a higher GC target saves collector time at the
	// cost of a few MB; the soft memory limit keeps that from multiplying a large live heap (one
	// huge query, an ungrouped run kept in passes).
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(192 << 20))
	res, err := evaluateInputs(a, measures)
	if err != nil {
		return evalFail(stderr, err, false)
	}
	if n := len(res.Ignored); n > 0 {
		fmt.Fprintf(stderr, "ranklab eval: warning: %d run %s not in the qrels, ignored: %s\n", n, words.Plural(n, "query", "queries"), words.IDs(res.Ignored))
	}
	if n := len(res.Missing); n > 0 {
		switch {
		case a.opt.AllQueries && a.opt.TrecEval9:
			fmt.Fprintf(stderr, "ranklab eval: warning: %d qrels %s without a ranking, counted as 0 in the means (-c, 9.0.8 rules): %s\n", n, words.Plural(n, "query", "queries"), words.IDs(res.Missing))
		case a.opt.AllQueries:
			fmt.Fprintf(stderr, "ranklab eval: warning: %d qrels %s without a ranking, scored 0 (-c): %s\n", n, words.Plural(n, "query", "queries"), words.IDs(res.Missing))
		default:
			fmt.Fprintf(stderr, "ranklab eval: warning: %d qrels %s without a ranking, left out (--trec-eval-9): %s\n", n, words.Plural(n, "query", "queries"), words.IDs(res.Missing))
		}
	}
	var buf bytes.Buffer
	switch a.format {
	case "json":
		err = writeEvalJSON(&buf, res, a.perQuery, a.zscores)
	case "csv":
		err = writeEvalCSV(&buf, res, a.perQuery, a.zscores != "")
	default:
		err = eval.TrecFormat{PerQuery: a.perQuery, NoSummary: a.noSummary, Digits: a.digits, Z: a.zscores != ""}.Write(&buf, res)
	}
	out := buf.Bytes()
	if err == nil && wantStamp(a.format, a.stamp, a.noStamp) {
		var st provenance.Stamp
		conv := evalConventions(a.opt, measures)
		files := []provenance.File{{Role: "qrels", Path: a.qrels}, {Role: "run", Path: a.run}}
		if a.zscores != "" {
			conv = append(conv, zConvention(a.zscores))
			files = append(files, provenance.File{Role: "z-scores", Path: a.zscores})
		}
		st, err = provenance.New("ranklab eval", args, conv, files...)
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

// evalFail prints err and returns its exit status: 1 for a bad command line, 2 for bad input,
// the code of an *exitError otherwise.
func evalFail(stderr io.Writer, err error, usage bool) int {
	fmt.Fprintf(stderr, "ranklab eval: %s\n", escapeText(err.Error()))
	var ee *exitError
	var ue usageError
	switch {
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &ue) || usage:
		if usage {
			fmt.Fprint(stderr, strings.SplitN(evalUsage, "\n", 2)[0]+"\n")
		}
		return 1
	}
	return 2
}

// evaluateInputs reads the relevance information and evaluates the run (streaming it for
// qrels; see eval.Files), with trec_eval 10.0's refusal of qrels queries without a
// ranking unless -c or --trec-eval-9.
func evaluateInputs(a evalArgs, measures []eval.Measure) (eval.Result, error) {
	res, err := evaluateRelInfo(a, measures)
	if err != nil {
		return res, err
	}
	if len(res.Missing) > 0 && !a.opt.AllQueries && !a.opt.TrecEval9 {
		n := len(res.Missing)
		return res, &exitError{4, fmt.Errorf("%d qrels %s %s no ranking in the run: %s. trec_eval 10.0 stops here too "+
			"(\"result qid not found\"); -c evaluates %s as an empty ranking (0 in the means), "+
			"--trec-eval-9 leaves %s out as trec_eval 9.0.8 and pytrec_eval do",
			n, words.Plural(n, "query", "queries"), words.Plural(n, "has", "have"), words.IDs(res.Missing),
			words.Plural(n, "it", "them"), words.Plural(n, "it", "them"))}
	}
	return res, nil
}

// evaluateRelInfo reads the relevance information in its format and evaluates the run; -D
// with a query the relevance information does not hold exits 7, as trec_eval.
func evaluateRelInfo(a evalArgs, measures []eval.Measure) (eval.Result, error) {
	res, err := a.opt.EvaluateFiles(eval.Files{Rel: a.qrels, RelFormat: a.relFormat, Run: a.run, ZScores: a.zscores, Query: a.onlyQuery}, measures...)
	if err != nil && a.onlyQuery != "" && errors.Is(err, eval.ErrNoQueries) {
		return res, &exitError{7, fmt.Errorf("-D: %w", err)}
	}
	return res, err
}

// escapeText escapes the control characters of a message (but keeps it readable).
func escapeText(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 && r != '\t' || r == 0x7f {
			fmt.Fprintf(&b, "\\x%02x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// evalJSON is the -f json output: columns follow Measures.
type evalJSON struct {
	ZScores  string      `json:"z_scores,omitempty"` // the -Z file: every value is a Z score
	Measures []string    `json:"measures"`
	Queries  []string    `json:"queries,omitempty"`
	Values   [][]float64 `json:"values,omitempty"`
	Means    []float64   `json:"means"`
	All      []float64   `json:"all"`
	Missing  []string    `json:"missing"`
	Ignored  []string    `json:"ignored"`
	RunID    string      `json:"runid"`
}

// writeEvalJSON writes the -f json output; with a -Z file (zFile not empty) the values are Z
// scores, the measures are named "Z" + name (as trec_eval names them: Zmap) and z_scores names
// the file.
func writeEvalJSON(w io.Writer, r eval.Result, perQuery bool, zFile string) error {
	out := evalJSON{ZScores: zFile, Measures: columnNames(r, zFile != ""), Means: r.Means, All: r.Summary, Missing: r.Missing, Ignored: r.Ignored, RunID: r.Tag}
	if out.Missing == nil {
		out.Missing = []string{}
	}
	if out.Ignored == nil {
		out.Ignored = []string{}
	}
	if perQuery {
		out.Queries, out.Values = r.Queries, r.Values
	}
	return writeJSON(w, out)
}

// writeEvalCSV writes a header "query,<measure>..." then one row a query (with -q) and the
// "all" row (trec_eval's all values: sums for counts).
//
// With z (-Z) the values are Z scores and the columns are named "Z" + name.
func writeEvalCSV(w io.Writer, r eval.Result, perQuery, z bool) error {
	cw := csvcell.NewWriter(w)
	header := append([]string{"query"}, columnNames(r, z)...)
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
	row("all", func(j int) float64 { return r.Summary[j] })
	cw.Flush()
	return cw.Error()
}

// columnNames names the value columns of the JSON and CSV outputs: each measure's name, with the
// prefix "Z" when the values are Z scores (-Z), as trec_eval's format prefixes them (Zmap, ZP_5).
func columnNames(r eval.Result, z bool) []string {
	var names []string
	for _, m := range r.Measures {
		n := m.String()
		if z {
			n = "Z" + n
		}
		names = append(names, n)
	}
	return names
}

// zConvention is the stamp's line for -Z.
func zConvention(file string) string {
	return fmt.Sprintf("values are Z scores (trec_eval -Z): (v - mean) / stddev per query and measure from %s, -1000000 without a line; columns named Z<measure>", file)
}
