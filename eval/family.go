package eval

import (
	"fmt"
	"slices"
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

// family is what ranklab knows of one measure name: the one table every other list is derived
// from — validation, the names ParseMeasure reads (ir_measures' and trec_eval's, the aliases
// and nicknames), the printed names and their order, aggregation, and the command line's -m
// rules and lists (TrecMeasures, IROnlyNames).
type family struct {
	name     string
	ir       bool       // name is ir_measures' (printed in its grammar, read by ParseMeasure)
	aliases  []string   // other ir_measures-style names ParseMeasure reads as this family
	trec     []trecSpec // its rows in trec_eval's measure table (none: not in trec_eval)
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

// trecSpec is one row of trec_eval 10.0's measure table (measures.c) and how trec_eval reads its
// parameters (meas_init.c).
type trecSpec struct {
	pos      int      // the row's place in measures.c, which is trec_eval's output order
	name     string   // trec_eval's name
	kind     trecKind // how its parameter string is read
	defaults string   // the default parameters of the cutoff kinds
	param    string   // the row's fixed Measure.Param (set_relative_P)
	nicks    int      // the nicknames that include it
	v10      bool     // only in trec_eval 10.0 (not 9.0.8)
}

// trecKind is how trec_eval reads a measure's parameter string (meas_init.c).
type trecKind int

const (
	tkNone          trecKind = iota // no parameters
	tkLongCutoffs                   // integer cutoffs, one value each (P.5,10)
	tkDoubleCutoffs                 // real cutoffs, one value each (iprec_at_recall.0.1,0.2)
	tkDoubles                       // a list of numbers naming one value (utility.2,-1,0,0)
	tkPairs                         // a gain table naming one value (ndcg.1=3,2=9)
)

// Nickname membership bits (nkEvery: every nickname).
const (
	nkOfficial = 1 << iota
	nkAllTrec
	nkSet
	nkAllPrefs
	nkPrefs
	nkQrelsJG
	nkEvery = nkOfficial | nkAllTrec | nkSet | nkAllPrefs | nkPrefs | nkQrelsJG
)

// nicknames are trec_eval's names for sets of measures.
var nicknames = map[string]int{
	"official": nkOfficial, "all_trec": nkAllTrec, "set": nkSet,
	"all_prefs": nkAllPrefs, "prefs": nkPrefs, "qrels_jg": nkQrelsJG,
}

const (
	trecCutoffs = "5,10,15,20,30,100,200,500,1000"
	rprecMults  = "0.2,0.4,0.6,0.8,1,1.2,1.4,1.6,1.8,2"
)

// familyList is the table of measures. A new measure touches six files: its row here
// (ParseMeasure, String, nicknames and the command line follow), its value function
// (measures_*.go), its constructor (measure.go), its row in the package doc's table (doc.go), its
// arithmetic test (measure_test.go) and its check against the peer that defines it
// (peers_test.go). Package conventions refuses the others.
var familyList = []family{
	{name: nameP, ir: true, cut: cutRequired, rel: true, value: valueP,
		trec: []trecSpec{{pos: 11, name: "P", kind: tkLongCutoffs, defaults: trecCutoffs, nicks: nkOfficial | nkAllTrec}}},
	{name: nameR, ir: true, aliases: []string{"Recall"}, cut: cutOptional, rel: true, value: valueRecall,
		trec: []trecSpec{{pos: 13, name: "recall", kind: tkLongCutoffs, defaults: trecCutoffs, nicks: nkAllTrec}}},
	{name: nameRR, ir: true, aliases: []string{"MRR"}, cut: cutOptional, rel: true, value: valueRR,
		trec: []trecSpec{{pos: 9, name: "recip_rank", nicks: nkOfficial | nkAllTrec}}},
	{name: nameAP, ir: true, aliases: []string{"MAP"}, cut: cutOptional, rel: true, value: valueAP,
		trec: []trecSpec{{pos: 5, name: "map", nicks: nkOfficial | nkAllTrec},
			{pos: 27, name: "map_cut", kind: tkLongCutoffs, defaults: trecCutoffs, nicks: nkAllTrec}}},
	{name: nameNDCG, ir: true, aliases: []string{"NDCG"}, cut: cutOptional, param: pPairs, exp: true, value: valueNDCG,
		trec: []trecSpec{{pos: 23, name: "ndcg", kind: tkPairs, nicks: nkAllTrec},
			{pos: 26, name: "ndcg_cut", kind: tkLongCutoffs, defaults: trecCutoffs, nicks: nkAllTrec}}},
	{name: nameRprec, ir: true, aliases: []string{"RPrec"}, rel: true, value: valueRprec,
		trec: []trecSpec{{pos: 7, name: "Rprec", nicks: nkOfficial | nkAllTrec}}},
	{name: nameBpref, ir: true, aliases: []string{"BPref"}, rel: true, value: valueBpref,
		trec: []trecSpec{{pos: 8, name: "bpref", nicks: nkOfficial | nkAllTrec}}},
	{name: nameSuccess, ir: true, cut: cutRequired, rel: true, value: valueSuccess,
		trec: []trecSpec{{pos: 29, name: "success", kind: tkLongCutoffs, defaults: "1,5,10", nicks: nkAllTrec}}},
	{name: nameJudged, ir: true, cut: cutOptional, value: valueJudged},
	{name: nameERR, ir: true, cut: cutRequired, value: valueERR},
	{name: nameNumQ, ir: true, agg: aggNumQ, integer: true, input: inAny, noSingle: true, value: valueNumQ,
		trec: []trecSpec{{pos: 1, name: "num_q", nicks: nkEvery}}},
	{name: nameNumRet, ir: true, agg: aggSum, integer: true, value: valueNumRet,
		trec: []trecSpec{{pos: 2, name: "num_ret", nicks: nkOfficial | nkAllTrec | nkSet}}},
	{name: nameNumRel, ir: true, rel: true, agg: aggSum, integer: true, value: valueNumRel,
		trec: []trecSpec{{pos: 3, name: "num_rel", nicks: nkOfficial | nkAllTrec | nkSet}}},
	{name: nameNumRelRet, ir: true, rel: true, agg: aggSum, integer: true, value: valueNumRelRet,
		trec: []trecSpec{{pos: 4, name: "num_rel_ret", nicks: nkOfficial | nkAllTrec | nkSet}}},
	{name: nameIPrec, ir: true, param: pNumber, rel: true, value: valueIPrec,
		trec: []trecSpec{{pos: 10, name: "iprec_at_recall", kind: tkDoubleCutoffs, defaults: "0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1", nicks: nkOfficial | nkAllTrec}}},
	{name: nameInfAP, ir: true, rel: true, value: valueInfAP,
		trec: []trecSpec{{pos: 14, name: "infAP", nicks: nkAllTrec}}},
	{name: nameSetP, ir: true, aliases: []string{"SetRelP"}, param: pRelative, rel: true, value: valueSetP,
		trec: []trecSpec{{pos: 30, name: "set_P", nicks: nkAllTrec | nkSet},
			{pos: 31, name: "set_relative_P", param: "relative=True", nicks: nkAllTrec | nkSet}}},
	{name: nameSetR, ir: true, rel: true, value: valueSetR,
		trec: []trecSpec{{pos: 32, name: "set_recall", nicks: nkAllTrec | nkSet}}},
	{name: nameSetAP, ir: true, rel: true, value: valueSetAP,
		trec: []trecSpec{{pos: 33, name: "set_map", nicks: nkAllTrec | nkSet}}},
	{name: nameSetF, ir: true, param: pNumbers, rel: true, value: valueSetF,
		trec: []trecSpec{{pos: 34, name: "set_F", kind: tkDoubles, nicks: nkAllTrec | nkSet}}},
	{name: nameRBP, ir: true, param: pPairs, rel: true, value: valueRBP,
		trec: []trecSpec{{pos: 54, name: "rbp", kind: tkPairs, nicks: nkAllTrec, v10: true}}},

	{name: nameRunID, agg: aggNone, input: inAny, noSingle: true, value: valueRunID,
		trec: []trecSpec{{pos: 0, name: "runid", nicks: nkEvery}}},
	{name: nameGMAP, agg: aggGeo, noSingle: true, value: valueGMAP,
		trec: []trecSpec{{pos: 6, name: "gm_map", nicks: nkOfficial | nkAllTrec}}},
	{name: nameGMBpref, agg: aggGeo, noSingle: true, value: valueGMBpref,
		trec: []trecSpec{{pos: 15, name: "gm_bpref", nicks: nkAllTrec}}},
	{name: nameRelString, param: pNumbers, agg: aggNone, value: valueRunID,
		trec: []trecSpec{{pos: 12, name: "relstring", kind: tkDoubles, nicks: nkAllTrec}}},
	{name: nameRprecMult, param: pNumber, value: valueRprecMult,
		trec: []trecSpec{{pos: 16, name: "Rprec_mult", kind: tkDoubleCutoffs, defaults: rprecMults, nicks: nkAllTrec}}},
	{name: nameUtility, param: pNumbers, value: valueUtility,
		trec: []trecSpec{{pos: 17, name: "utility", kind: tkDoubles, nicks: nkAllTrec | nkSet}}},
	{name: name11ptAvg, param: pNumbers, value: value11ptAvg,
		trec: []trecSpec{{pos: 18, name: "11pt_avg", kind: tkDoubles, nicks: nkAllTrec}}},
	{name: nameBinG, value: valueBinG,
		trec: []trecSpec{{pos: 19, name: "binG", nicks: nkAllTrec}}},
	{name: nameG, param: pPairs, value: valueG,
		trec: []trecSpec{{pos: 20, name: "G", kind: tkPairs, nicks: nkAllTrec}}},
	{name: nameDCG, param: pPairs, value: valueDCG,
		trec: []trecSpec{{pos: 21, name: "dcg", kind: tkPairs, v10: true}}},
	{name: nameIdealDCG, param: pPairs, value: valueIdealDCG,
		trec: []trecSpec{{pos: 22, name: "ideal_dcg", kind: tkPairs, v10: true}}},
	{name: nameNDCGRel, param: pPairs, value: valueNDCGRel,
		trec: []trecSpec{{pos: 24, name: "ndcg_rel", kind: tkPairs, nicks: nkAllTrec}}},
	{name: nameRNDCG, param: pPairs, value: valueRNDCG,
		trec: []trecSpec{{pos: 25, name: "Rndcg", kind: tkPairs, nicks: nkAllTrec}}},
	{name: nameRelativeP, cut: cutRequired, value: valueRelativeP,
		trec: []trecSpec{{pos: 28, name: "relative_P", kind: tkLongCutoffs, defaults: trecCutoffs, nicks: nkAllTrec}}},
	{name: nameNumNonrelJudgedRet, agg: aggSum, integer: true, value: valueNumNonrelJudgedRet,
		trec: []trecSpec{{pos: 35, name: "num_nonrel_judged_ret", nicks: nkAllTrec}}},
	{name: nameYAAP, value: valueYAAP,
		trec: []trecSpec{{pos: 53, name: "yaap"}}},
	{name: nameRBPResid, param: pPairs, value: valueRBPResid,
		trec: []trecSpec{{pos: 55, name: "rbp_resid", kind: tkPairs, nicks: nkAllTrec, v10: true}}},
	{name: nameUnj, cut: cutRequired, value: valueUnj,
		trec: []trecSpec{{pos: 56, name: "unj", kind: tkLongCutoffs, defaults: "5,10,20", nicks: nkAllTrec, v10: true}}},
	{name: nameMAPAvgJG, input: inJG,
		trec: []trecSpec{{pos: 50, name: "map_avgjg", nicks: nkQrelsJG}}},
	{name: namePAvgJG, cut: cutRequired, input: inJG,
		trec: []trecSpec{{pos: 51, name: "P_avgjg", kind: tkLongCutoffs, defaults: trecCutoffs, nicks: nkQrelsJG}}},
	{name: nameRprecMultAvgJG, param: pNumber, input: inJG,
		trec: []trecSpec{{pos: 52, name: "Rprec_mult_avgjg", kind: tkDoubleCutoffs, defaults: rprecMults, nicks: nkQrelsJG}}},

	// The preference measures (computed in prefs.go from the family name).
	{name: "prefs_num_prefs_poss", agg: aggSum, integer: true, input: inPrefs, trec: prefsRow(36, nkAllPrefs|nkPrefs)},
	{name: "prefs_num_prefs_ful", agg: aggSum, integer: true, input: inPrefs, trec: prefsRow(37, nkAllPrefs|nkPrefs)},
	{name: "prefs_num_prefs_ful_ret", agg: aggSum, integer: true, input: inPrefs, trec: prefsRow(38, nkAllPrefs|nkPrefs)},
	{name: "prefs_simp", input: inPrefs, trec: prefsRow(39, nkAllPrefs|nkPrefs)},
	{name: "prefs_pair", input: inPrefs, trec: prefsRow(40, nkAllPrefs|nkPrefs)},
	{name: "prefs_avgjg", input: inPrefs, trec: prefsRow(41, nkAllPrefs|nkPrefs)},
	{name: "prefs_avgjg_Rnonrel", input: inPrefs, trec: prefsRow(42, nkAllPrefs)},
	{name: "prefs_simp_ret", input: inPrefs, trec: prefsRow(43, nkAllPrefs)},
	{name: "prefs_pair_ret", input: inPrefs, trec: prefsRow(44, nkAllPrefs)},
	{name: "prefs_avgjg_ret", input: inPrefs, trec: prefsRow(45, nkAllPrefs)},
	{name: "prefs_avgjg_Rnonrel_ret", input: inPrefs, trec: prefsRow(46, nkAllPrefs)},
	{name: "prefs_simp_imp", input: inPrefs, trec: prefsRow(47, nkAllPrefs)},
	{name: "prefs_pair_imp", input: inPrefs, trec: prefsRow(48, nkAllPrefs)},
	{name: "prefs_avgjg_imp", input: inPrefs, trec: prefsRow(49, nkAllPrefs)},
}

// prefsRow is the trec_eval row of a preference measure, named as its family (set by
// trecTable).
func prefsRow(pos, nicks int) []trecSpec { return []trecSpec{{pos: pos, nicks: nicks}} }

// families indexes familyList by name.
var families = func() map[string]*family {
	m := map[string]*family{}
	for i := range familyList {
		m[familyList[i].name] = &familyList[i]
	}
	return m
}()

// trecMeasure is one row of trec_eval's measure table, derived from familyList.
type trecMeasure struct {
	trecSpec
	template Measure // Name, and the fixed Param of set_relative_P
}

// trecTable is trec_eval's measure table in its order (the output order), gathered from
// familyList.
var trecTable = func() []trecMeasure {
	var out []trecMeasure
	for _, f := range familyList {
		for _, t := range f.trec {
			if t.name == "" {
				t.name = f.name
			}
			out = append(out, trecMeasure{trecSpec: t, template: Measure{Name: f.name, Param: t.param}})
		}
	}
	slices.SortFunc(out, func(a, b trecMeasure) int { return a.pos - b.pos })
	for i, t := range out {
		if t.pos != i {
			panic(fmt.Sprintf("eval: trec_eval row %s at position %d, want %d", t.name, t.pos, i))
		}
	}
	return out
}()

// irAliases maps the names ParseMeasure reads in ir_measures' grammar to family names.
var irAliases = func() map[string]string {
	m := map[string]string{}
	for _, f := range familyList {
		if f.ir {
			m[f.name] = f.name
			for _, a := range f.aliases {
				m[a] = f.name
			}
		}
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
		case nameRelString:
			c.x = 10
		case nameUtility:
			xs = defaultIfEmpty(xs, []float64{1, -1, 0, 0})
			if len(xs) != 4 {
				return fmt.Errorf("utility takes 4 coefficients, got %d", len(xs))
			}
		case name11ptAvg:
			xs = defaultIfEmpty(xs, []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1})
		case nameSetF:
			c.x = 1
		}
		if m.Name == nameSetF && c.rel && len(xs) > 1 {
			return fmt.Errorf("SetF with rel= takes one beta")
		}
		if len(xs) > 0 && (m.Name == nameRelString || m.Name == nameSetF) {
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
		pairs, p, hasP, err := parsePairs(m.Param, m.Name == nameRBP || m.Name == nameRBPResid, m.Name != nameRBPResid)
		if err != nil {
			return err
		}
		c.pairs = pairs
		if m.Name == nameRBP || m.Name == nameRBPResid {
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
