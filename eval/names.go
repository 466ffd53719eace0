package eval

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ranklab/ranklab/internal/scan"
)

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
		if m.Name == nameSetP && t.template.Param != m.Param {
			continue
		}
		if m.Name == nameNDCG && m.Cutoff > 0 && m.Param != "" {
			continue
		}
		return i, true
	}
	return 0, false
}

// trecNickname returns the trec_eval measure names that trec_eval's nickname name stands for,
// in table order (with v9, trec_eval 9.0.8's sets: no rbp, rbp_resid, unj); ok is false for
// another name.
func trecNickname(name string, v9 bool) (names []string, ok bool) {
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

// TrecName returns the name trec_eval prints for m ("P_5", "ndcg_cut_10", "recip_rank"); ok
// is false when trec_eval has no such measure.
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
// parameters that differ from their defaults in alphabetical order ("P(rel=2)@5",
// "nDCG(dcg=exp-log2)@10", "RBP(p=0.9)"), trec_eval's -m spelling otherwise ("gm_map",
// "relative_P.5", "ndcg.1=3,2=9"). ParseMeasure(m.String()) == m for every valid m.
func (m Measure) String() string {
	if s, ok := m.trecSpelling(); ok {
		return s
	}
	var params []string
	switch m.Name {
	case nameSetF:
		if m.Param != "" {
			params = append(params, "beta="+m.Param)
		}
	case nameRBP:
		if m.Param != "p=0.8" {
			params = append(params, m.Param)
		}
	case nameSetP:
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
	case m.Name == nameIPrec:
		b.WriteString("@" + m.Param)
	case m.Cutoff != 0:
		b.WriteString("@" + strconv.Itoa(m.Cutoff))
	}
	return b.String()
}

// trecSpelling returns trec_eval's -m spelling of m when m is spelled that way.
func (m Measure) trecSpelling() (string, bool) {
	name := ""
	switch {
	case families[m.Name] == nil || !families[m.Name].ir:
		i, ok := trecRow(m)
		if !ok {
			return "", false
		}
		name = trecTable[i].name
	case m.Name == nameNDCG && m.Param != "":
		name = "ndcg"
	case m.Name == nameSetF && strings.Contains(m.Param, ","):
		name = "set_F"
	case m.Name == nameRBP && (m.Param == "" || !isSingleP(m.Param)):
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

// acceptedNames is the list given in the error about an unknown measure name, derived from
// familyList.
var acceptedNames = func() string {
	var ir []string
	for _, f := range familyList {
		if f.ir {
			ir = append(ir, irForms(f)...)
		}
	}
	return "accepted: ir_measures names (" + strings.Join(ir, ", ") + "; binary measures take (rel=N), " +
		"nDCG (dcg=exp-log2), SetP (relative=True), SetF (beta=x), RBP (p=x)), trec_eval names with their " +
		"parameters (P.5,10, map, ndcg_cut.10, iprec_at_recall..1,.2, utility.2,-1,0,0, ndcg.1=3,2=9, rbp.p=0.8, ...: " +
		"ranklab eval -h lists them) and trec_eval's nicknames (official, all_trec, set)"
}()

// irForms are the ways an ir_measures family is written, in the help: "P@k", "R", "R@k".
func irForms(f family) []string {
	switch {
	case f.name == nameIPrec:
		return []string{"IPrec@r"}
	case f.cut == cutRequired:
		return []string{f.name + "@k"}
	case f.cut == cutOptional:
		return []string{f.name, f.name + "@k"}
	}
	return []string{f.name}
}

// ParseMeasure parses one measure: ir_measures' grammar
//
//	Name [ "(" key=value { "," key=value } ")" ] [ "@" cutoff ]
//
// (keys rel=N, dcg=log2|exp-log2 quoted or not, beta=x, p=x, relative=True; IPrec's cutoff is a
// recall level) or trec_eval's spelling of one value (map, ndcg_cut.10, P_5, utility.2,-1,0,0).
// NumRet(rel=N) is read as NumRelRet(rel=N). An unknown name is an error that lists what is accepted.
func ParseMeasure(name string) (Measure, error) {
	s := strings.TrimSpace(name)
	if isTrecName(s) {
		ms, err := parseTrecMeasure(s)
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
	if m.Name == nameRBP {
		m.Param = "p=0.8" // ir_measures' default persistence
	}
	if hasCut {
		if m.Name == nameIPrec {
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
			case key == "dcg" && m.Name == nameNDCG:
				switch val {
				case "log2":
				case "exp-log2":
					m.Exp = true
				default:
					return Measure{}, bad("accepted: dcg=log2 (gain = grade), dcg=exp-log2 (gain = 2^grade-1)")
				}
			case key == "beta" && m.Name == nameSetF:
				if !scan.IsDecimal([]byte(val)) {
					return Measure{}, bad("not a number")
				}
				m.Param = val
			case key == "p" && m.Name == nameRBP:
				if !scan.IsDecimal([]byte(val)) {
					return Measure{}, bad("not a number")
				}
				m.Param = "p=" + val
			case key == "relative" && m.Name == nameSetP:
				switch val {
				case "True", "true", "1":
					m.Param = "relative=True"
				case "False", "false", "0":
				default:
					return Measure{}, bad("accepted: True, False")
				}
			case key == "recall" && m.Name == nameIPrec && !hasCut:
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
	if m.Name == nameIPrec && m.Param == "" {
		return Measure{}, fmt.Errorf("measure %s: IPrec needs a recall level (IPrec@0.5)", quoteString(name))
	}
	if m.Name == nameNumRet && m.Rel != 0 {
		m.Name = nameNumRelRet
	}
	if err := m.Validate(); err != nil {
		return Measure{}, err
	}
	return m, nil
}

// errNoParameters is returned by parseTrecMeasure for parameters given to a measure that takes
// none (trec_eval ignores them).
var errNoParameters = errors.New("takes no parameters")

// parseTrecMeasure parses one trec_eval -m argument "name[.params]" into its values, as
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
// that takes none is an error wrapping errNoParameters.
func parseTrecMeasure(name string) ([]Measure, error) {
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
			return nil, fmt.Errorf("measure %s: %s %w", quoteString(name), t.name, errNoParameters)
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

// ParseMeasures parses measure names as ParseMeasure, and trec_eval's names of several values
// (P.5,10 gives P@5 and P@10; no parameters, its defaults) and nicknames (official, all_trec,
// set, all_prefs, prefs, qrels_jg). A measure given twice is kept once, at its first place.
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
		if members, ok := trecNickname(s, false); ok {
			for _, member := range members {
				ms, err := parseTrecMeasure(member)
				if err != nil {
					return nil, err
				}
				add(ms)
			}
			continue
		}
		if isTrecName(s) {
			ms, err := parseTrecMeasure(s)
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

// trecOrder sorts measures as trec_eval prints them: by its measure table (runid, num_q,
// num_ret, ..., map, gm_map, Rprec, bpref, recip_rank, iprec_at_recall, P, ..., rbp, rbp_resid,
// unj), the values of one measure by ascending cutoff; measures trec_eval does not have come
// after, in their given order. It returns a new slice.
func trecOrder(measures []Measure) []Measure {
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
