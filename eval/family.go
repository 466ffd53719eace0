package eval

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ranklab/ranklab/internal/scan"
)

// aggKind is how the "all" value of a measure is formed from its per-query values.
type aggKind int

const (
	aggMean aggKind = iota // the arithmetic mean
	aggSum                 // counts: trec_eval's "all" is the sum (Result.Means keeps the mean)
	aggGeo                 // gm_map, gm_bpref: exp of the mean of the per-query logs
	aggNumQ                // num_q: the number of queries
	aggNone                // runid, relstring: no numeric summary
)

// inputKind is the relevance information a measure needs.
type inputKind int

const (
	inQrels inputKind = iota // qrels (and a run)
	inPrefs                  // preferences (-R prefs, -R qrels_prefs)
	inJG                     // judgment groups (-R qrels_jg)
	inAny                    // any: runid, num_q
)

// paramKind is what Measure.Param holds for a family.
type paramKind int

const (
	pNone     paramKind = iota
	pNumber             // one number in canonical form, required (IPrec, Rprec_mult)
	pNumbers            // a list of numbers as written (relstring, utility, 11pt_avg, set_F)
	pPairs              // a gain table "level=gain,..." (and p= for rbp) as written
	pRelative           // "" or "relative=True" (SetP)
)

// cutKind says whether a family takes an integer cutoff.
type cutKind int

const (
	cutNone cutKind = iota
	cutRequired
	cutOptional
)

// family is what ranklab knows of one measure name: the one table every other list
// (validation, names, printing, aggregation) is derived from.
type family struct {
	name     string
	cut      cutKind
	param    paramKind
	rel      bool // takes rel= (ir_measures' binary measures)
	exp      bool // takes dcg=
	agg      aggKind
	integer  bool // printed as an integer by trec_eval
	input    inputKind
	noSingle bool // trec_eval prints no per-query line for it
	value    func(*query, *compiled) float64
}

var familyList = []family{
	{name: NameP, cut: cutRequired, rel: true, value: valueP},
	{name: NameR, cut: cutOptional, rel: true, value: valueRecall},
	{name: NameRR, cut: cutOptional, rel: true, value: valueRR},
	{name: NameAP, cut: cutOptional, rel: true, value: valueAP},
	{name: NameNDCG, cut: cutOptional, param: pPairs, exp: true, value: valueNDCG},
	{name: NameRprec, rel: true, value: valueRprec},
	{name: NameBpref, rel: true, value: valueBpref},
	{name: NameSuccess, cut: cutRequired, rel: true, value: valueSuccess},
	{name: NameJudged, cut: cutOptional, value: valueJudged},
	{name: NameNumQ, agg: aggNumQ, integer: true, input: inAny, noSingle: true, value: valueNumQ},
	{name: NameNumRet, agg: aggSum, integer: true, value: valueNumRet},
	{name: NameNumRel, rel: true, agg: aggSum, integer: true, value: valueNumRel},
	{name: NameNumRelRet, rel: true, agg: aggSum, integer: true, value: valueNumRelRet},
	{name: NameIPrec, param: pNumber, rel: true, value: valueIPrec},
	{name: NameInfAP, rel: true, value: valueInfAP},
	{name: NameSetP, param: pRelative, rel: true, value: valueSetP},
	{name: NameSetR, rel: true, value: valueSetR},
	{name: NameSetAP, rel: true, value: valueSetAP},
	{name: NameSetF, param: pNumbers, rel: true, value: valueSetF},
	{name: NameRBP, param: pPairs, rel: true, value: valueRBP},

	{name: NameRunID, agg: aggNone, input: inAny, noSingle: true, value: valueRunID},
	{name: NameGMAP, agg: aggGeo, noSingle: true, value: valueGMAP},
	{name: NameGMBpref, agg: aggGeo, noSingle: true, value: valueGMBpref},
	{name: NameRelString, param: pNumbers, agg: aggNone, value: valueRunID},
	{name: NameRprecMult, param: pNumber, value: valueRprecMult},
	{name: NameUtility, param: pNumbers, value: valueUtility},
	{name: Name11ptAvg, param: pNumbers, value: value11ptAvg},
	{name: NameBinG, value: valueBinG},
	{name: NameG, param: pPairs, value: valueG},
	{name: NameDCG, param: pPairs, value: valueDCG},
	{name: NameIdealDCG, param: pPairs, value: valueIdealDCG},
	{name: NameNDCGRel, param: pPairs, value: valueNDCGRel},
	{name: NameRNDCG, param: pPairs, value: valueRNDCG},
	{name: NameRelativeP, cut: cutRequired, value: valueRelativeP},
	{name: NameNumNonrelJudgedRet, agg: aggSum, integer: true, value: valueNumNonrelJudgedRet},
	{name: NameYAAP, value: valueYAAP},
	{name: NameRBPResid, param: pPairs, value: valueRBPResid},
	{name: NameUnj, cut: cutRequired, value: valueUnj},
	{name: NameMAPAvgJG, input: inJG},
	{name: NamePAvgJG, cut: cutRequired, input: inJG},
	{name: NameRprecMultAvgJG, param: pNumber, input: inJG},
}

// families indexes familyList by name (the prefs measures are added by prefs.go).
var families = func() map[string]*family {
	m := map[string]*family{}
	for i := range familyList {
		m[familyList[i].name] = &familyList[i]
	}
	for _, name := range prefsNames {
		f := &family{name: name, input: inPrefs}
		if strings.HasPrefix(name, "prefs_num_prefs") {
			f.agg, f.integer = aggSum, true
		}
		m[name] = f
	}
	return m
}()

// valueNDCG dispatches nDCG: trec_eval's ndcg_cut (and the exponential gain) with a cutoff or
// Exp, trec_eval's ndcg with its gain table otherwise.
func valueNDCG(q *query, c *compiled) float64 {
	if c.k > 0 || c.exp {
		return valueNDCGCut(q, c)
	}
	return valueNDCGTrec(q, c)
}

// compiled is a measure ready to compute: its parameters parsed and the options applied.
type compiled struct {
	m        Measure
	fam      *family
	L        int        // relevance level
	rel      bool       // the measure has its own rel= (RBP: binary gains)
	k        int        // Cutoff
	exp      bool       // Exp
	x        float64    // IPrec's recall, Rprec_mult's multiple, SetF's x, relstring's length, RBP's p
	xs       []float64  // utility's coefficients, 11pt_avg's levels
	pairs    []gainPair // the gain table
	relative bool       // SetP(relative=True)
	v9       bool       // trec_eval 9.0.8's rules
	numDocs  int        // Options.NumDocs
}

// compileMeasure checks m and prepares it for opt.
func compileMeasure(m Measure, opt Options) (*compiled, error) {
	f, ok := families[m.Name]
	if !ok {
		return nil, fmt.Errorf("unknown measure name %q; %s", m.Name, acceptedNames)
	}
	c := &compiled{m: m, fam: f, k: m.Cutoff, exp: m.Exp, v9: opt.TrecEval9, numDocs: opt.NumDocs}
	switch {
	case m.Cutoff < 0:
		return nil, errMeasure(m, "cutoff %d is negative", m.Cutoff)
	case f.cut == cutNone && m.Cutoff != 0:
		return nil, errMeasure(m, "%s takes no cutoff", m.Name)
	case f.cut == cutRequired && m.Cutoff == 0:
		return nil, errMeasure(m, "%s needs a positive cutoff", m.Name)
	case m.Rel < 0:
		return nil, errMeasure(m, "rel=%d is negative", m.Rel)
	case m.Rel != 0 && !f.rel:
		return nil, errMeasure(m, "%s takes no rel= (its relevance level is the evaluation's)", m.Name)
	case m.Exp && !f.exp:
		return nil, errMeasure(m, "%s takes no dcg= (only nDCG does)", m.Name)
	}
	c.L = max(opt.RelLevel, 1)
	if m.Rel > 0 {
		c.L, c.rel = m.Rel, true
	}
	if err := c.parseParam(); err != nil {
		return nil, errMeasure(m, "%v", err)
	}
	return c, nil
}

// parseParam reads m.Param for the family.
func (c *compiled) parseParam() error {
	m, f := c.m, c.fam
	switch f.param {
	case pNone:
		if m.Param != "" {
			return fmt.Errorf("%s takes no parameter (got %q)", m.Name, m.Param)
		}
	case pRelative:
		switch m.Param {
		case "":
		case "relative=True":
			c.relative = true
		default:
			return fmt.Errorf("parameter %q; accepted: relative=True", m.Param)
		}
	case pNumber:
		v, ok := scan.Float([]byte(m.Param))
		if !ok {
			return fmt.Errorf("parameter %q is not a number", m.Param)
		}
		if formatNumber(v) != m.Param {
			return fmt.Errorf("parameter %q is not in canonical form %q", m.Param, formatNumber(v))
		}
		c.x = v
	case pNumbers:
		xs, err := parseNumbers(m.Param)
		if err != nil {
			return err
		}
		switch m.Name {
		case NameRelString:
			c.x = 10
		case NameUtility:
			xs = defaultIfEmpty(xs, []float64{1, -1, 0, 0})
			if len(xs) != 4 {
				return fmt.Errorf("utility takes 4 coefficients, got %d", len(xs))
			}
		case Name11ptAvg:
			xs = defaultIfEmpty(xs, []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1})
		case NameSetF:
			c.x = 1
		}
		if m.Name == NameSetF && c.rel && len(xs) > 1 {
			return fmt.Errorf("SetF with rel= takes one beta")
		}
		if len(xs) > 0 && (m.Name == NameRelString || m.Name == NameSetF) {
			c.x = xs[0] // trec_eval uses the first value only
		}
		c.xs = xs
	case pPairs:
		if c.exp || c.k > 0 {
			if m.Param != "" {
				return fmt.Errorf("a gain table goes with trec_eval's ndcg only (no cutoff, no dcg=)")
			}
			break
		}
		pairs, p, hasP, err := parsePairs(m.Param, m.Name == NameRBP || m.Name == NameRBPResid, m.Name != NameRBPResid)
		if err != nil {
			return err
		}
		c.pairs = pairs
		if m.Name == NameRBP || m.Name == NameRBPResid {
			c.x = 0.9
			if hasP {
				c.x = p
			}
			if c.rel && !hasP {
				return fmt.Errorf("RBP with rel= needs p= (ir_measures' default is p=0.8)")
			}
			if c.rel && len(pairs) > 0 {
				return fmt.Errorf("RBP with rel= takes no gain table")
			}
		}
	}
	return nil
}

func defaultIfEmpty(xs, def []float64) []float64 {
	if len(xs) == 0 {
		return def
	}
	return xs
}

// parseNumbers reads a comma-separated list of numbers ("" gives none).
func parseNumbers(s string) ([]float64, error) {
	if s == "" {
		return nil, nil
	}
	var out []float64
	for _, p := range strings.Split(s, ",") {
		v, ok := scan.Float([]byte(p))
		if !ok {
			return nil, fmt.Errorf("%s is not a number", quoteString(p))
		}
		out = append(out, v)
	}
	return out, nil
}

// parsePairs reads a gain table "level=gain,..." as trec_eval's pair parameters: every piece is
// name=number; a level is an integer (a sign allowed); with allowP the name p sets a
// persistence in [0, 1] (the last p wins); withGains false refuses levels (rbp_resid).
func parsePairs(s string, allowP, withGains bool) (pairs []gainPair, p float64, hasP bool, err error) {
	if s == "" {
		return nil, 0, false, nil
	}
	for _, piece := range strings.Split(s, ",") {
		name, val, ok := strings.Cut(piece, "=")
		if !ok || name == "" || strings.Contains(val, "=") {
			return nil, 0, false, fmt.Errorf("malformed pair %s in %s (want level=gain%s)", quoteString(piece), quoteString(s), map[bool]string{true: " or p=persistence", false: ""}[allowP])
		}
		v, ok := scan.Float([]byte(val))
		if !ok {
			return nil, 0, false, fmt.Errorf("pair %s: %s is not a number", quoteString(piece), quoteString(val))
		}
		if name == "p" && allowP {
			if v < 0 || v > 1 {
				return nil, 0, false, fmt.Errorf("p=%s is outside [0, 1]", val)
			}
			p, hasP = v, true
			continue
		}
		level, err := strconv.Atoi(strings.TrimPrefix(name, "+"))
		if err != nil || !isInteger(name) {
			return nil, 0, false, fmt.Errorf("pair %s: %s is not an integer grade", quoteString(piece), quoteString(name))
		}
		if !withGains {
			return nil, 0, false, fmt.Errorf("pair %s: only p= is used here", quoteString(piece))
		}
		pairs = append(pairs, gainPair{level: level, gain: v})
	}
	return pairs, p, hasP, nil
}

// isInteger reports whether s is [+-]digits (trec_eval's valid_int).
func isInteger(s string) bool {
	s = strings.TrimLeft(s[:min(1, len(s))], "+-") + s[min(1, len(s)):]
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
