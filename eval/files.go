package eval

import (
	"fmt"
	"io"
)

// Files names the inputs of one evaluation read from files, as `ranklab eval` (trec_eval)
// takes them (gzip or not; "-" is standard input).
type Files struct {
	Rel string // the relevance information, in the format RelFormat names
	// RelFormat is trec_eval's -R: "" or "qrels"; "prefs", lines "query-id group sub-group
	// doc-id level" (a higher level preferred in a sub-group), for prefs_*; "qrels_prefs", qrels
	// read so; "qrels_jg", qrels whose iteration names a judgment group, for *_avgjg.
	RelFormat string
	Run       string // the TREC run; with qrels it is streamed, on every core, in bounded memory
	// ZScores is trec_eval's -Z file "query-id name mean stddev": each value v becomes
	// (v − mean) / stddev (−1000000 without a line), and the means are computed again.
	ZScores string
	Query   string // only this query (trec_eval's -D N.qid); "" for all
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
