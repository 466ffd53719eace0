package eval

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ranklab/ranklab/internal/scan"
)

// trecKind is how trec_eval reads a measure's parameter string (meas_init.c).
type trecKind int

const (
	tkNone          trecKind = iota // no parameters
	tkLongCutoffs                   // integer cutoffs, one value each (P.5,10)
	tkDoubleCutoffs                 // real cutoffs, one value each (iprec_at_recall.0.1,0.2)
	tkDoubles                       // a list of numbers naming one value (utility.2,-1,0,0)
	tkPairs                         // a gain table naming one value (ndcg.1=3,2=9)
)

// Nickname membership bits.
const (
	nkOfficial = 1 << iota
	nkAllTrec
	nkSet
	nkAllPrefs
	nkPrefs
	nkQrelsJG
)

// trecMeasure is one row of trec_eval's measure table (measures.c), in its order: the output
// order.
type trecMeasure struct {
	name     string
	kind     trecKind
	defaults string  // the default parameter list of the cutoff kinds
	template Measure // Name, and the fixed Param of set_relative_P
	nicks    int
	v10      bool // only in trec_eval 10.0 (not 9.0.8)
}

const trecCutoffs = "5,10,15,20,30,100,200,500,1000"

var trecTable = []trecMeasure{
	{name: "runid", template: Measure{Name: NameRunID}, nicks: nkOfficial | nkAllTrec | nkSet | nkAllPrefs | nkPrefs | nkQrelsJG},
	{name: "num_q", template: Measure{Name: NameNumQ}, nicks: nkOfficial | nkAllTrec | nkSet | nkAllPrefs | nkPrefs | nkQrelsJG},
	{name: "num_ret", template: Measure{Name: NameNumRet}, nicks: nkOfficial | nkAllTrec | nkSet},
	{name: "num_rel", template: Measure{Name: NameNumRel}, nicks: nkOfficial | nkAllTrec | nkSet},
	{name: "num_rel_ret", template: Measure{Name: NameNumRelRet}, nicks: nkOfficial | nkAllTrec | nkSet},
	{name: "map", template: Measure{Name: NameAP}, nicks: nkOfficial | nkAllTrec},
	{name: "gm_map", template: Measure{Name: NameGMAP}, nicks: nkOfficial | nkAllTrec},
	{name: "Rprec", template: Measure{Name: NameRprec}, nicks: nkOfficial | nkAllTrec},
	{name: "bpref", template: Measure{Name: NameBpref}, nicks: nkOfficial | nkAllTrec},
	{name: "recip_rank", template: Measure{Name: NameRR}, nicks: nkOfficial | nkAllTrec},
	{name: "iprec_at_recall", kind: tkDoubleCutoffs, defaults: "0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1", template: Measure{Name: NameIPrec}, nicks: nkOfficial | nkAllTrec},
	{name: "P", kind: tkLongCutoffs, defaults: trecCutoffs, template: Measure{Name: NameP}, nicks: nkOfficial | nkAllTrec},
	{name: "relstring", kind: tkDoubles, template: Measure{Name: NameRelString}, nicks: nkAllTrec},
	{name: "recall", kind: tkLongCutoffs, defaults: trecCutoffs, template: Measure{Name: NameR}, nicks: nkAllTrec},
	{name: "infAP", template: Measure{Name: NameInfAP}, nicks: nkAllTrec},
	{name: "gm_bpref", template: Measure{Name: NameGMBpref}, nicks: nkAllTrec},
	{name: "Rprec_mult", kind: tkDoubleCutoffs, defaults: "0.2,0.4,0.6,0.8,1,1.2,1.4,1.6,1.8,2", template: Measure{Name: NameRprecMult}, nicks: nkAllTrec},
	{name: "utility", kind: tkDoubles, template: Measure{Name: NameUtility}, nicks: nkAllTrec | nkSet},
	{name: "11pt_avg", kind: tkDoubles, template: Measure{Name: Name11ptAvg}, nicks: nkAllTrec},
	{name: "binG", template: Measure{Name: NameBinG}, nicks: nkAllTrec},
	{name: "G", kind: tkPairs, template: Measure{Name: NameG}, nicks: nkAllTrec},
	{name: "dcg", kind: tkPairs, template: Measure{Name: NameDCG}, v10: true},
	{name: "ideal_dcg", kind: tkPairs, template: Measure{Name: NameIdealDCG}, v10: true},
	{name: "ndcg", kind: tkPairs, template: Measure{Name: NameNDCG}, nicks: nkAllTrec},
	{name: "ndcg_rel", kind: tkPairs, template: Measure{Name: NameNDCGRel}, nicks: nkAllTrec},
	{name: "Rndcg", kind: tkPairs, template: Measure{Name: NameRNDCG}, nicks: nkAllTrec},
	{name: "ndcg_cut", kind: tkLongCutoffs, defaults: trecCutoffs, template: Measure{Name: NameNDCG}, nicks: nkAllTrec},
	{name: "map_cut", kind: tkLongCutoffs, defaults: trecCutoffs, template: Measure{Name: NameAP}, nicks: nkAllTrec},
	{name: "relative_P", kind: tkLongCutoffs, defaults: trecCutoffs, template: Measure{Name: NameRelativeP}, nicks: nkAllTrec},
	{name: "success", kind: tkLongCutoffs, defaults: "1,5,10", template: Measure{Name: NameSuccess}, nicks: nkAllTrec},
	{name: "set_P", template: Measure{Name: NameSetP}, nicks: nkAllTrec | nkSet},
	{name: "set_relative_P", template: Measure{Name: NameSetP, Param: "relative=True"}, nicks: nkAllTrec | nkSet},
	{name: "set_recall", template: Measure{Name: NameSetR}, nicks: nkAllTrec | nkSet},
	{name: "set_map", template: Measure{Name: NameSetAP}, nicks: nkAllTrec | nkSet},
	{name: "set_F", kind: tkDoubles, template: Measure{Name: NameSetF}, nicks: nkAllTrec | nkSet},
	{name: "num_nonrel_judged_ret", template: Measure{Name: NameNumNonrelJudgedRet}, nicks: nkAllTrec},
	{name: "prefs_num_prefs_poss", template: Measure{Name: "prefs_num_prefs_poss"}, nicks: nkAllPrefs | nkPrefs},
	{name: "prefs_num_prefs_ful", template: Measure{Name: "prefs_num_prefs_ful"}, nicks: nkAllPrefs | nkPrefs},
	{name: "prefs_num_prefs_ful_ret", template: Measure{Name: "prefs_num_prefs_ful_ret"}, nicks: nkAllPrefs | nkPrefs},
	{name: "prefs_simp", template: Measure{Name: "prefs_simp"}, nicks: nkAllPrefs | nkPrefs},
	{name: "prefs_pair", template: Measure{Name: "prefs_pair"}, nicks: nkAllPrefs | nkPrefs},
	{name: "prefs_avgjg", template: Measure{Name: "prefs_avgjg"}, nicks: nkAllPrefs | nkPrefs},
	{name: "prefs_avgjg_Rnonrel", template: Measure{Name: "prefs_avgjg_Rnonrel"}, nicks: nkAllPrefs},
	{name: "prefs_simp_ret", template: Measure{Name: "prefs_simp_ret"}, nicks: nkAllPrefs},
	{name: "prefs_pair_ret", template: Measure{Name: "prefs_pair_ret"}, nicks: nkAllPrefs},
	{name: "prefs_avgjg_ret", template: Measure{Name: "prefs_avgjg_ret"}, nicks: nkAllPrefs},
	{name: "prefs_avgjg_Rnonrel_ret", template: Measure{Name: "prefs_avgjg_Rnonrel_ret"}, nicks: nkAllPrefs},
	{name: "prefs_simp_imp", template: Measure{Name: "prefs_simp_imp"}, nicks: nkAllPrefs},
	{name: "prefs_pair_imp", template: Measure{Name: "prefs_pair_imp"}, nicks: nkAllPrefs},
	{name: "prefs_avgjg_imp", template: Measure{Name: "prefs_avgjg_imp"}, nicks: nkAllPrefs},
	{name: "map_avgjg", template: Measure{Name: NameMAPAvgJG}, nicks: nkQrelsJG},
	{name: "P_avgjg", kind: tkLongCutoffs, defaults: trecCutoffs, template: Measure{Name: NamePAvgJG}, nicks: nkQrelsJG},
	{name: "Rprec_mult_avgjg", kind: tkDoubleCutoffs, defaults: "0.2,0.4,0.6,0.8,1,1.2,1.4,1.6,1.8,2", template: Measure{Name: NameRprecMultAvgJG}, nicks: nkQrelsJG},
	{name: "yaap", template: Measure{Name: NameYAAP}},
	{name: "rbp", kind: tkPairs, template: Measure{Name: NameRBP}, nicks: nkAllTrec, v10: true},
	{name: "rbp_resid", kind: tkPairs, template: Measure{Name: NameRBPResid}, nicks: nkAllTrec, v10: true},
	{name: "unj", kind: tkLongCutoffs, defaults: "5,10,20", template: Measure{Name: NameUnj}, nicks: nkAllTrec, v10: true},
}

// nicknames are trec_eval's names for sets of measures.
var nicknames = map[string]int{
	"official": nkOfficial, "all_trec": nkAllTrec, "set": nkSet,
	"all_prefs": nkAllPrefs, "prefs": nkPrefs, "qrels_jg": nkQrelsJG,
}

// trecByName finds a row of trecTable.
func trecByName(name string) (int, bool) {
	for i := range trecTable {
		if trecTable[i].name == name {
			return i, true
		}
	}
	return 0, false
}

// trecRow returns the row of trecTable that m is a value of, if any.
func trecRow(m Measure) (int, bool) {
	if m.Rel != 0 || m.Exp {
		return 0, false
	}
	for i, t := range trecTable {
		if t.template.Name != m.Name {
			continue
		}
		if (t.kind == tkLongCutoffs) != (m.Cutoff > 0) {
			continue
		}
		if m.Name == NameSetP && t.template.Param != m.Param {
			continue
		}
		if m.Name == NameNDCG && m.Cutoff > 0 && m.Param != "" {
			continue
		}
		return i, true
	}
	return 0, false
}

// TrecMeasureNames returns the names of trec_eval 10.0's measure table, in its order (the
// order in which it prints measures).
func TrecMeasureNames() []string {
	out := make([]string, len(trecTable))
	for i, t := range trecTable {
		out[i] = t.name
	}
	return out
}

// TrecNickname returns the trec_eval measure names that trec_eval's nickname name ("official",
// "all_trec", "set", "all_prefs", "prefs", "qrels_jg") stands for, in table order. With v9 it
// gives trec_eval 9.0.8's sets (no rbp, rbp_resid, unj). ok is false for another name.
func TrecNickname(name string, v9 bool) (names []string, ok bool) {
	bit, ok := nicknames[name]
	if !ok {
		return nil, false
	}
	for _, t := range trecTable {
		if t.nicks&bit != 0 && !(v9 && t.v10) {
			names = append(names, t.name)
		}
	}
	return names, true
}

// TrecTakesParameters reports whether the trec_eval measure name takes a parameter string
// (trec_eval ignores one given to a measure that takes none). ok is false for an unknown name.
func TrecTakesParameters(name string) (takes, ok bool) {
	i, ok := trecByName(name)
	return ok && trecTable[i].kind != tkNone, ok
}

// TrecName returns the name trec_eval prints for the value of m ("P_5", "ndcg_cut_10",
// "iprec_at_recall_0.10", "utility_2,-1,0,0", "recip_rank"); ok is false when trec_eval has no
// such measure (then ranklab prints m.String()).
func (m Measure) TrecName() (name string, ok bool) {
	i, ok := trecRow(m)
	if !ok {
		return "", false
	}
	t := trecTable[i]
	switch t.kind {
	case tkLongCutoffs:
		return t.name + "_" + strconv.Itoa(m.Cutoff), true
	case tkDoubleCutoffs:
		v, _ := scan.Float([]byte(m.Param))
		// trec_eval prints into a buffer of len(name)+9 characters: longer names are cut.
		s := fmt.Sprintf("%s_%3.2f", t.name, v)
		if len(s) > len(t.name)+9 {
			s = s[:len(t.name)+9]
		}
		return s, true
	case tkDoubles, tkPairs:
		if m.Param != "" {
			return t.name + "_" + m.Param, true
		}
	}
	return t.name, true
}

// String returns m in canonical form: ir_measures' grammar where ir_measures has the measure,
//
//	Name [ "(" key=value {"," key=value} ")" ] [ "@" cutoff ]
//
// with the parameters that differ from their defaults in alphabetical order ("P@5",
// "P(rel=2)@5", "nDCG(dcg=exp-log2)@10", "IPrec@0.5", "SetF(beta=0.5)", "RBP(p=0.9)", "RR"),
// and otherwise trec_eval's -m spelling of one value ("gm_map", "relative_P.5", "Rprec_mult.0.2",
// "utility.2,-1,0,0", "ndcg.1=3,2=9", "rbp"). ParseMeasure(m.String()) == m for every valid m.
func (m Measure) String() string {
	if s, ok := m.trecSpelling(); ok {
		return s
	}
	var params []string
	switch m.Name {
	case NameSetF:
		if m.Param != "" {
			params = append(params, "beta="+m.Param)
		}
	case NameRBP:
		if m.Param != "p=0.8" {
			params = append(params, m.Param)
		}
	case NameSetP:
		if m.Param != "" {
			params = append(params, m.Param)
		}
	}
	if m.Exp {
		params = append(params, "dcg=exp-log2")
	}
	if m.Rel != 0 {
		params = append(params, "rel="+strconv.Itoa(m.Rel))
	}
	slices.Sort(params)
	var b strings.Builder
	b.WriteString(m.Name)
	if len(params) > 0 {
		b.WriteString("(" + strings.Join(params, ",") + ")")
	}
	switch {
	case m.Name == NameIPrec:
		b.WriteString("@" + m.Param)
	case m.Cutoff != 0:
		b.WriteString("@" + strconv.Itoa(m.Cutoff))
	}
	return b.String()
}

// irNames are the families ir_measures names (the others are spelled as in trec_eval).
var irNames = map[string]bool{
	NameP: true, NameR: true, NameRR: true, NameAP: true, NameNDCG: true, NameRprec: true,
	NameBpref: true, NameSuccess: true, NameJudged: true, NameNumQ: true, NameNumRet: true,
	NameNumRel: true, NameNumRelRet: true, NameIPrec: true, NameInfAP: true, NameSetP: true,
	NameSetR: true, NameSetAP: true, NameSetF: true, NameRBP: true,
}

// trecSpelling returns trec_eval's -m spelling of m when m is spelled that way.
func (m Measure) trecSpelling() (string, bool) {
	name := ""
	switch {
	case !irNames[m.Name]:
		i, ok := trecRow(m)
		if !ok {
			return "", false
		}
		name = trecTable[i].name
	case m.Name == NameNDCG && m.Param != "":
		name = "ndcg"
	case m.Name == NameSetF && strings.Contains(m.Param, ","):
		name = "set_F"
	case m.Name == NameRBP && (m.Param == "" || !isSingleP(m.Param)):
		name = "rbp"
	default:
		return "", false
	}
	switch {
	case m.Cutoff > 0:
		return name + "." + strconv.Itoa(m.Cutoff), true
	case m.Param != "":
		return name + "." + m.Param, true
	}
	return name, true
}

// isSingleP reports whether s is "p=<number>".
func isSingleP(s string) bool {
	v, ok := strings.CutPrefix(s, "p=")
	return ok && scan.IsDecimal([]byte(v))
}

// acceptedNames is the list given in the error about an unknown measure name.
const acceptedNames = `accepted: ir_measures names (P@k, R@k, RR, RR@k, AP, AP@k, nDCG, nDCG@k, ` +
	`nDCG(dcg=exp-log2)@k, Rprec, Bpref, Success@k, Judged@k, IPrec@r, infAP, SetP, ` +
	`SetP(relative=True), SetR, SetAP, SetF(beta=x), RBP(p=x), NumQ, NumRet, NumRel, NumRelRet; ` +
	`binary measures take (rel=N)), trec_eval names with their parameters (P.5,10, map, ` +
	`ndcg_cut.10, iprec_at_recall..1,.2, utility.2,-1,0,0, ndcg.1=3,2=9, rbp.p=0.8, ...: ` +
	`ranklab eval -h lists them) and trec_eval's nicknames (official, all_trec, set)`

// ParseMeasure parses one measure: ir_measures' grammar
//
//	Name [ "(" key=value { "," key=value } ")" ] [ "@" cutoff ]
//
// with the names listed on Measure, the keys rel=N (binary measures), dcg=log2|exp-log2
// (nDCG; quoted as ir_measures writes it, dcg='exp-log2', or not), beta=x (SetF), p=x (RBP), relative=True (SetP) and a positive cutoff (a recall level
// for IPrec); or trec_eval's spelling of one value (map, recip_rank, ndcg_cut.10, P_5,
// relative_P.5, utility.2,-1,0,0; see ParseTrecMeasure). ir_measures' NumRet(rel=N) is read as
// NumRelRet(rel=N). A name it does not know is an error that lists what is accepted.
func ParseMeasure(name string) (Measure, error) {
	s := strings.TrimSpace(name)
	if isTrecName(s) {
		ms, err := ParseTrecMeasure(s)
		if err != nil {
			return Measure{}, err
		}
		if len(ms) != 1 {
			return Measure{}, fmt.Errorf("measure %q stands for %d measures (%s ...); name one, or use ParseMeasures", name, len(ms), ms[0])
		}
		return ms[0], nil
	}
	return parseIR(name, s)
}

// parseIR parses ir_measures' grammar.
func parseIR(name, s string) (Measure, error) {
	var m Measure
	var cutoff string
	hasCut := false
	if i := strings.LastIndexByte(s, '@'); i >= 0 {
		s, cutoff, hasCut = s[:i], s[i+1:], true
	}
	var params string
	hasParams := false
	if i := strings.IndexByte(s, '('); i >= 0 {
		if !strings.HasSuffix(s, ")") {
			return Measure{}, fmt.Errorf("measure %s: unclosed parenthesis", quoteString(name))
		}
		s, params, hasParams = s[:i], s[i+1:len(s)-1], true
	}
	canonical, ok := irAliases[s]
	if !ok {
		return Measure{}, fmt.Errorf("unknown measure %s; %s", quoteString(name), acceptedNames)
	}
	m.Name = canonical
	if m.Name == NameRBP {
		m.Param = "p=0.8" // ir_measures' default persistence
	}
	if hasCut {
		if m.Name == NameIPrec {
			v, ok := scan.Float([]byte(cutoff))
			if !ok {
				return Measure{}, fmt.Errorf("measure %s: recall level %s is not a number", quoteString(name), quoteString(cutoff))
			}
			m.Param = formatNumber(v)
		} else {
			k, err := strconv.Atoi(cutoff)
			if err != nil || k <= 0 || cutoff[0] == '+' {
				return Measure{}, fmt.Errorf("measure %s: cutoff %s is not a positive integer", quoteString(name), quoteString(cutoff))
			}
			m.Cutoff = k
		}
	}
	if hasParams {
		if strings.TrimSpace(params) == "" {
			return Measure{}, fmt.Errorf("measure %s: empty parameter list", quoteString(name))
		}
		seen := map[string]bool{}
		for _, p := range strings.Split(params, ",") {
			key, val, ok := strings.Cut(strings.TrimSpace(p), "=")
			key, val = strings.TrimSpace(key), strings.TrimSpace(val)
			if n := len(val); n >= 2 && (val[0] == '\'' || val[0] == '"') && val[n-1] == val[0] {
				val = val[1 : n-1] // ir_measures' own spelling quotes strings: dcg='exp-log2'
			}
			if !ok {
				return Measure{}, fmt.Errorf("measure %s: parameter %s is not key=value", quoteString(name), quoteString(p))
			}
			if seen[key] {
				return Measure{}, fmt.Errorf("measure %s: parameter %s given twice", quoteString(name), key)
			}
			seen[key] = true
			bad := func(what string) error {
				return fmt.Errorf("measure %s: %s=%s: %s", quoteString(name), key, quoteString(val), what)
			}
			switch {
			case key == "rel":
				r, err := strconv.Atoi(val)
				if err != nil || r <= 0 || val[0] == '+' {
					return Measure{}, bad("not a positive integer")
				}
				m.Rel = r
			case key == "dcg" && m.Name == NameNDCG:
				switch val {
				case "log2":
				case "exp-log2":
					m.Exp = true
				default:
					return Measure{}, bad("accepted: dcg=log2 (gain = grade), dcg=exp-log2 (gain = 2^grade-1)")
				}
			case key == "beta" && m.Name == NameSetF:
				if !scan.IsDecimal([]byte(val)) {
					return Measure{}, bad("not a number")
				}
				m.Param = val
			case key == "p" && m.Name == NameRBP:
				if !scan.IsDecimal([]byte(val)) {
					return Measure{}, bad("not a number")
				}
				m.Param = "p=" + val
			case key == "relative" && m.Name == NameSetP:
				switch val {
				case "True", "true", "1":
					m.Param = "relative=True"
				case "False", "false", "0":
				default:
					return Measure{}, bad("accepted: True, False")
				}
			case key == "recall" && m.Name == NameIPrec && !hasCut:
				v, ok := scan.Float([]byte(val))
				if !ok {
					return Measure{}, bad("not a number")
				}
				m.Param = formatNumber(v)
			default:
				return Measure{}, fmt.Errorf("measure %s: unknown parameter %s; accepted: rel=N (binary measures), dcg=log2|exp-log2 (nDCG), beta=x (SetF), p=x (RBP), relative=True (SetP)", quoteString(name), quoteString(key))
			}
		}
	}
	if m.Name == NameIPrec && m.Param == "" {
		return Measure{}, fmt.Errorf("measure %s: IPrec needs a recall level (IPrec@0.5)", quoteString(name))
	}
	if m.Name == NameNumRet && m.Rel != 0 {
		m.Name = NameNumRelRet
	}
	if err := m.Validate(); err != nil {
		return Measure{}, err
	}
	return m, nil
}

// irAliases maps the accepted ir_measures names (and a few aliases) to Measure names.
var irAliases = map[string]string{
	"P": NameP, "R": NameR, "Recall": NameR, "RR": NameRR, "MRR": NameRR, "AP": NameAP, "MAP": NameAP,
	"nDCG": NameNDCG, "NDCG": NameNDCG, "Rprec": NameRprec, "RPrec": NameRprec, "Bpref": NameBpref,
	"BPref": NameBpref, "Success": NameSuccess, "Judged": NameJudged, "NumQ": NameNumQ,
	"NumRet": NameNumRet, "NumRel": NameNumRel, "NumRelRet": NameNumRelRet, "IPrec": NameIPrec,
	"infAP": NameInfAP, "SetP": NameSetP, "SetR": NameSetR, "SetAP": NameSetAP, "SetF": NameSetF,
	"RBP": NameRBP, "SetRelP": NameSetP,
}

// ErrNoParameters is returned by ParseTrecMeasure for parameters given to a measure that takes
// none (trec_eval ignores them).
var ErrNoParameters = errors.New("takes no parameters")

// ParseTrecMeasure parses one trec_eval -m argument "name[.params]" into its values, as
// trec_eval 10.0 reads it:
//
//   - integer cutoffs (P, recall, ndcg_cut, map_cut, relative_P, success, unj, P_avgjg):
//     "P.5,10", default 5,10,15,20,30,100,200,500,1000 (success 1,5,10; unj 5,10,20), one
//     value each, ascending; a cutoff written with decimals is truncated as trec_eval does
//     ("ndcg_cut.23.4" is ndcg_cut_23); a cutoff must be positive and given once;
//   - real cutoffs (iprec_at_recall, Rprec_mult, Rprec_mult_avgjg): "iprec_at_recall..1,.2",
//     default 0,0.1,...,1 (Rprec_mult 0.2,...,2), one value each, ascending;
//   - numbers naming one value (relstring, utility, 11pt_avg, set_F): "utility.2,-1,0,0";
//   - gain tables naming one value (G, dcg, ideal_dcg, ndcg, ndcg_rel, Rndcg, rbp, rbp_resid):
//     "ndcg.1=3,2=9,4=4.5", "rbp.p=0.5";
//   - the printed names "P_5", "ndcg_cut_10", "iprec_at_recall_0.10" are read too.
//
// Numbers follow the grammar of scan.Float (decimal; no hex, inf, nan or "_"); what trec_eval
// would read otherwise ("1_000" as 1, "abc" as 0) is an error. A parameter given to a measure
// that takes none is an error wrapping ErrNoParameters.
func ParseTrecMeasure(name string) ([]Measure, error) {
	s := strings.TrimSpace(name)
	base, params, hasParams := strings.Cut(s, ".")
	i, found := trecByName(base)
	if !found {
		i, params, hasParams, found = printedTrecName(s)
	}
	if !found {
		return nil, fmt.Errorf("unknown measure %s; %s", quoteString(name), acceptedNames)
	}
	t := trecTable[i]
	if hasParams && params == "" {
		return nil, fmt.Errorf("measure %s: empty parameter list after %q", quoteString(name), t.name+".")
	}
	var out []Measure
	switch t.kind {
	case tkNone:
		if hasParams {
			return nil, fmt.Errorf("measure %s: %s %w", quoteString(name), t.name, ErrNoParameters)
		}
		out = []Measure{t.template}
	case tkLongCutoffs:
		if !hasParams {
			params = t.defaults
		}
		ks, err := parseTrecCutoffs(params)
		if err != nil {
			return nil, fmt.Errorf("measure %s: %v", quoteString(name), err)
		}
		for _, k := range ks {
			m := t.template
			m.Cutoff = k
			out = append(out, m)
		}
	case tkDoubleCutoffs:
		if !hasParams {
			params = t.defaults
		}
		xs, err := parseNumbers(params)
		if err != nil {
			return nil, fmt.Errorf("measure %s: %v", quoteString(name), err)
		}
		slices.Sort(xs)
		for j := range xs {
			if j > 0 && xs[j] == xs[j-1] {
				return nil, fmt.Errorf("measure %s: cutoff %s given twice", quoteString(name), formatNumber(xs[j]))
			}
			m := t.template
			m.Param = formatNumber(xs[j])
			out = append(out, m)
		}
	case tkDoubles, tkPairs:
		m := t.template
		m.Param = params
		out = []Measure{m}
	}
	for _, m := range out {
		if err := m.Validate(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// printedTrecName reads a printed value name ("P_5", "iprec_at_recall_0.10", "utility_2,-1,0,0")
// as trecTable row i with its parameter string.
func printedTrecName(s string) (i int, params string, hasParams, ok bool) {
	best := -1
	for j, t := range trecTable {
		if t.kind != tkNone && strings.HasPrefix(s, t.name+"_") && (best < 0 || len(t.name) > len(trecTable[best].name)) {
			best = j
		}
	}
	if best < 0 {
		return 0, "", false, false
	}
	return best, s[len(trecTable[best].name)+1:], true, true
}

// parseTrecCutoffs reads integer cutoffs: each [+]digits[.digits] (decimals truncated as
// trec_eval's atol does), positive, none twice; returned ascending.
func parseTrecCutoffs(s string) ([]int, error) {
	var ks []int
	for _, p := range strings.Split(s, ",") {
		digits := strings.TrimPrefix(p, "+")
		intPart, frac, _ := strings.Cut(digits, ".")
		if intPart == "" || !isInteger(intPart) || (frac != "" && !isInteger(frac)) || strings.HasPrefix(intPart, "-") || strings.HasPrefix(intPart, "+") {
			if strings.HasPrefix(intPart, "-") && isInteger(intPart) {
				return nil, fmt.Errorf("cutoff %s is not positive", quoteString(p))
			}
			return nil, fmt.Errorf("cutoff %s is not an integer", quoteString(p))
		}
		k, err := strconv.Atoi(intPart)
		if err != nil {
			return nil, fmt.Errorf("cutoff %s is out of range", quoteString(p))
		}
		if k <= 0 {
			return nil, fmt.Errorf("cutoff %s is not positive", quoteString(p))
		}
		ks = append(ks, k)
	}
	slices.Sort(ks)
	for j := 1; j < len(ks); j++ {
		if ks[j] == ks[j-1] {
			return nil, fmt.Errorf("cutoff %d given twice", ks[j])
		}
	}
	return ks, nil
}

// ParseMeasures parses measure names, each a trec_eval nickname (official, all_trec, set,
// all_prefs, prefs, qrels_jg: its measures with their default parameters), a trec_eval name
// (P.5,10 gives P@5 and P@10; see ParseTrecMeasure) or an ir_measures name (see ParseMeasure).
// A name is read as trec_eval's when its part before the first "." (or its printed form
// name_k) is a trec_eval measure name; "Rprec" means the same in both. A measure given twice is
// kept once, at its first place.
func ParseMeasures(names ...string) ([]Measure, error) {
	var out []Measure
	seen := map[Measure]bool{}
	add := func(ms []Measure) {
		for _, m := range ms {
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	for _, n := range names {
		s := strings.TrimSpace(n)
		if members, ok := TrecNickname(s, false); ok {
			for _, member := range members {
				ms, err := ParseTrecMeasure(member)
				if err != nil {
					return nil, err
				}
				add(ms)
			}
			continue
		}
		if isTrecName(s) {
			ms, err := ParseTrecMeasure(s)
			if err != nil {
				return nil, err
			}
			add(ms)
			continue
		}
		m, err := parseIR(n, s)
		if err != nil {
			return nil, err
		}
		add([]Measure{m})
	}
	return out, nil
}

// isTrecName reports whether name is to be read as a trec_eval measure name.
func isTrecName(s string) bool {
	if strings.ContainsAny(s, "(@") {
		return false
	}
	base, _, _ := strings.Cut(s, ".")
	if _, ok := trecByName(base); ok {
		return true
	}
	_, _, _, ok := printedTrecName(s)
	return ok
}

// TrecOrder sorts measures as trec_eval prints them: by its measure table (runid, num_q,
// num_ret, ..., map, gm_map, Rprec, bpref, recip_rank, iprec_at_recall, P, ..., rbp, rbp_resid,
// unj), the values of one measure by ascending cutoff; measures trec_eval does not have come
// after, in their given order. It returns a new slice.
func TrecOrder(measures []Measure) []Measure {
	out := slices.Clone(measures)
	key := func(m Measure) (int, float64) {
		i, ok := trecRow(m)
		if !ok {
			return len(trecTable), 0
		}
		switch trecTable[i].kind {
		case tkLongCutoffs:
			return i, float64(m.Cutoff)
		case tkDoubleCutoffs:
			v, _ := scan.Float([]byte(m.Param))
			return i, v
		}
		return i, 0
	}
	slices.SortStableFunc(out, func(a, b Measure) int {
		ia, va := key(a)
		ib, vb := key(b)
		if ia != ib {
			return ia - ib
		}
		switch {
		case va < vb:
			return -1
		case va > vb:
			return 1
		}
		return 0
	})
	return out
}
