package eval

import (
	"fmt"
	"io"
)

// Files names the inputs of one evaluation read from files, as `ranklab eval` (trec_eval) takes
// them. Every path may be gzipped; "-" is standard input.
type Files struct {
	// Rel is the relevance information, in the format RelFormat names.
	Rel string
	// RelFormat is trec_eval's -R:
	//
	//	"" or "qrels"  TREC or BEIR qrels (ReadQrelsFile)
	//	"prefs"        preferences, one judgment a line "query-id group sub-group doc-id level"
	//	               (level a decimal number; within a sub-group a doc with a higher level is
	//	               preferred to one with a lower level, 0 is non-relevant)
	//	"qrels_prefs"  qrels read as preferences: the iteration field is the group, one
	//	               sub-group a group, the grade the level
	//	"qrels_jg"     qrels whose second field names a judgment group, each group a separate
	//	               set of judgments of the query
	//
	// The preference measures (prefs_*) need "prefs" or "qrels_prefs", the judgment-group ones
	// (map_avgjg, P_avgjg, Rprec_mult_avgjg) "qrels_jg"; runid and num_q go with any format.
	RelFormat string
	// Run is the TREC run. With qrels it is streamed: blocks of whole queries are evaluated on
	// every core and only each query's judged docs are ranked, so a run far larger than memory
	// gives ReadRunFile + Evaluate's exact result (an ungrouped run is read again in passes).
	Run string
	// ZScores, when set, is trec_eval's -Z file, one line a value "query-id name mean stddev"
	// (name as trec_eval prints it: P_5, map). Each per-query value v becomes (v − mean) /
	// stddev, −1000000 when the file has no line for it (with stddev 0: 0 when v = mean, else
	// −1000000; gm_map and gm_bpref standardise the stored log); means and "all" values are
	// computed again from them.
	ZScores string
	// Query, when set, evaluates only that query (trec_eval's -D N.qid); an error wrapping
	// ErrNoQueries when the relevance information does not hold it.
	Query string
}

// EvaluateFiles reads the files of f and evaluates them with the options, as Evaluate does;
// errors name file:line (see ParseError).
func (opt Options) EvaluateFiles(f Files, measures ...Measure) (Result, error) {
	var res Result
	var err error
	switch f.RelFormat {
	case "", "qrels":
		res, err = opt.evaluateQrelsFile(f, measures)
	case "prefs":
		res, err = evaluateRead(opt, f, parsePrefs, opt.evaluatePrefs, measures)
	case "qrels_prefs":
		res, err = evaluateRead(opt, f, parseQrelsPrefs, opt.evaluatePrefs, measures)
	case "qrels_jg":
		res, err = evaluateRead(opt, f, parseQrelsJG, opt.evaluateJG, measures)
	default:
		return Result{}, fmt.Errorf("evaluate: unknown relevance format %q; accepted: qrels, prefs, qrels_prefs, qrels_jg", f.RelFormat)
	}
	if err != nil || f.ZScores == "" {
		return res, err
	}
	z, err := readFile(f.ZScores, parseZScores)
	if err != nil {
		return Result{}, err
	}
	return res.standardize(z), nil
}

// evaluateQrelsFile reads qrels and streams the run (evaluateRunFile).
func (opt Options) evaluateQrelsFile(f Files, measures []Measure) (Result, error) {
	qrels, err := ReadQrelsFile(f.Rel)
	if err != nil {
		return Result{}, err
	}
	if f.Query != "" {
		if qrels[f.Query] == nil {
			return Result{}, noQuery(f)
		}
		qrels = Qrels{f.Query: qrels[f.Query]}
	}
	return opt.evaluateRunFile(qrels, f.Run, measures...)
}

// noQuery is the error for a Files.Query the relevance information does not hold.
func noQuery(f Files) error {
	return fmt.Errorf("evaluate: %w: query %s is not in %s: no queries with both results and relevance info", ErrNoQueries, quoteString(f.Query), f.Rel)
}

// evaluateRead reads relevance information kept by query ID (preferences, judgment groups) with
// parse and the run (not streamed), keeps only f.Query in both when it names one, and evaluates
// them with evaluate.
func evaluateRead[R ~map[string]V, V any](opt Options, f Files, parse func(io.Reader, string) (R, error),
	evaluate func(R, Run, ...Measure) (Result, error), measures []Measure) (Result, error) {
	rel, err := readFile(f.Rel, parse)
	if err != nil {
		return Result{}, err
	}
	run, err := ReadRunFile(f.Run)
	if err != nil {
		return Result{}, err
	}
	if f.Query != "" {
		v, ok := rel[f.Query]
		if !ok {
			return Result{}, noQuery(f)
		}
		docs, inRun := run.Queries[f.Query]
		rel, run.Queries = R{f.Query: v}, map[string][]ScoredDoc{}
		if inRun {
			run.Queries[f.Query] = docs
		}
	}
	return evaluate(rel, run, measures...)
}
