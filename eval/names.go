package eval

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// String returns m in ir_measures' canonical form: the name, then the parameters that differ
// from their defaults in parentheses (rel=N, dcg=exp-log2), then @cutoff when there is one:
// "P@5", "P(rel=2)@5", "nDCG(dcg=exp-log2)@10", "RR", "AP@100". ParseMeasure(m.String()) == m
// for every valid m.
func (m Measure) String() string {
	var b strings.Builder
	b.WriteString(m.Name)
	var params []string
	if m.Rel != 0 {
		params = append(params, "rel="+strconv.Itoa(m.Rel))
	}
	if m.Exp {
		params = append(params, "dcg=exp-log2")
	}
	if len(params) > 0 {
		b.WriteString("(" + strings.Join(params, ",") + ")")
	}
	if m.Cutoff != 0 {
		b.WriteString("@" + strconv.Itoa(m.Cutoff))
	}
	return b.String()
}

// acceptedNames is the list given in the error about an unknown measure name.
const acceptedNames = `accepted: ir_measures names P@k, R@k, R, RR, RR@k, AP, AP@k, nDCG, nDCG@k, ` +
	`nDCG(dcg=exp-log2)@k, Rprec, Bpref, Success@k, Judged@k, NumQ, NumRet, NumRel, NumRelRet ` +
	`(binary measures take (rel=N)), or trec_eval names P, P.5,10, recall.k, recip_rank, map, ` +
	`map_cut.k, ndcg, ndcg_cut.k, Rprec, bpref, success.k, num_q, num_ret, num_rel, num_rel_ret`

// irNames maps the accepted ir_measures names (and a few aliases) to Measure names.
var irNames = map[string]string{
	"P": NameP, "R": NameR, "Recall": NameR, "RR": NameRR, "MRR": NameRR, "AP": NameAP, "MAP": NameAP,
	"nDCG": NameNDCG, "NDCG": NameNDCG, "Rprec": NameRprec, "RPrec": NameRprec, "Bpref": NameBpref,
	"BPref": NameBpref, "Success": NameSuccess, "Judged": NameJudged, "NumQ": NameNumQ,
	"NumRet": NameNumRet, "NumRel": NameNumRel, "NumRelRet": NameNumRelRet,
}

// ParseMeasure parses one measure in ir_measures' grammar
//
//	Name [ "(" param=value { "," param=value } ")" ] [ "@" cutoff ]
//
// with the names listed on Measure, the parameters rel=N (minimum relevant grade, binary
// measures) and dcg=log2|exp-log2 (nDCG's gain: grade, or 2^grade-1), and a positive cutoff.
// ir_measures' NumRet(rel=N) is read as NumRelRet(rel=N). A name it does not know is an error
// that lists what is accepted.
func ParseMeasure(name string) (Measure, error) {
	s := strings.TrimSpace(name)
	var m Measure
	var cutoff string
	if i := strings.LastIndexByte(s, '@'); i >= 0 {
		s, cutoff = s[:i], s[i+1:]
	}
	var params string
	if i := strings.IndexByte(s, '('); i >= 0 {
		if !strings.HasSuffix(s, ")") {
			return Measure{}, fmt.Errorf("measure %q: unclosed parenthesis", name)
		}
		s, params = s[:i], s[i+1:len(s)-1]
	}
	n, ok := irNames[s]
	if !ok {
		return Measure{}, fmt.Errorf("unknown measure %q; %s", name, acceptedNames)
	}
	m.Name = n
	if cutoff != "" || strings.Contains(name, "@") {
		k, err := strconv.Atoi(cutoff)
		if err != nil || k <= 0 || cutoff[0] == '+' {
			return Measure{}, fmt.Errorf("measure %q: cutoff %q is not a positive integer", name, cutoff)
		}
		m.Cutoff = k
	}
	if strings.Contains(name, "(") {
		if strings.TrimSpace(params) == "" {
			return Measure{}, fmt.Errorf("measure %q: empty parameter list", name)
		}
		seen := map[string]bool{}
		for _, p := range strings.Split(params, ",") {
			key, val, ok := strings.Cut(strings.TrimSpace(p), "=")
			key, val = strings.TrimSpace(key), strings.TrimSpace(val)
			if !ok {
				return Measure{}, fmt.Errorf("measure %q: parameter %q is not key=value", name, p)
			}
			if seen[key] {
				return Measure{}, fmt.Errorf("measure %q: parameter %s given twice", name, key)
			}
			seen[key] = true
			switch key {
			case "rel":
				r, err := strconv.Atoi(val)
				if err != nil || r <= 0 || val[0] == '+' {
					return Measure{}, fmt.Errorf("measure %q: rel=%s is not a positive integer", name, val)
				}
				m.Rel = r
			case "dcg":
				switch val {
				case "log2":
				case "exp-log2":
					m.Exp = true
				default:
					return Measure{}, fmt.Errorf("measure %q: dcg=%s; accepted: dcg=log2 (gain = grade), dcg=exp-log2 (gain = 2^grade-1)", name, val)
				}
			default:
				return Measure{}, fmt.Errorf("measure %q: unknown parameter %q; accepted: rel=N (binary measures), dcg=log2|exp-log2 (nDCG)", name, key)
			}
		}
	}
	if m.Name == NameNumRet && m.Rel != 0 {
		m.Name = NameNumRelRet
	}
	if err := m.Validate(); err != nil {
		return Measure{}, fmt.Errorf("measure %q: %v", name, err)
	}
	return m, nil
}

// trecDefaultCutoffs are trec_eval's cutoffs for P, recall, ndcg_cut and map_cut when none are given.
var trecDefaultCutoffs = []int{5, 10, 15, 20, 30, 100, 200, 500, 1000}

// trecMeasure describes one trec_eval measure name.
type trecMeasure struct {
	name     string // trec_eval's name
	measure  string // Measure.Name
	cut      bool   // takes cutoffs (printed name_k)
	defaults []int  // default cutoffs
	order    int    // position in trec_eval's measure table: the output order
}

// trecMeasures lists the trec_eval measures ranklab computes, in trec_eval's output order.
var trecMeasures = []trecMeasure{
	{"num_q", NameNumQ, false, nil, 1},
	{"num_ret", NameNumRet, false, nil, 2},
	{"num_rel", NameNumRel, false, nil, 3},
	{"num_rel_ret", NameNumRelRet, false, nil, 4},
	{"map", NameAP, false, nil, 5},
	{"Rprec", NameRprec, false, nil, 7},
	{"bpref", NameBpref, false, nil, 8},
	{"recip_rank", NameRR, false, nil, 9},
	{"P", NameP, true, trecDefaultCutoffs, 11},
	{"recall", NameR, true, trecDefaultCutoffs, 13},
	{"ndcg", NameNDCG, false, nil, 23},
	{"ndcg_cut", NameNDCG, true, trecDefaultCutoffs, 26},
	{"map_cut", NameAP, true, trecDefaultCutoffs, 27},
	{"success", NameSuccess, true, []int{1, 5, 10}, 29},
}

// trecInfo returns the trec_eval measure m is, if any: trec_eval has no rel= per measure, no
// exponential gain, no cut reciprocal rank, no recall without cutoff and no Judged.
func trecInfo(m Measure) (trecMeasure, bool) {
	if m.Rel != 0 || m.Exp {
		return trecMeasure{}, false
	}
	for _, t := range trecMeasures {
		if t.measure == m.Name && t.cut == (m.Cutoff != 0) {
			return t, true
		}
	}
	return trecMeasure{}, false
}

// TrecName returns the name trec_eval prints for m ("P_5", "ndcg_cut_10", "recip_rank", "map");
// ok is false when trec_eval has no such measure (then ranklab prints m.String()).
func (m Measure) TrecName() (name string, ok bool) {
	t, ok := trecInfo(m)
	if !ok {
		return "", false
	}
	if t.cut {
		return t.name + "_" + strconv.Itoa(m.Cutoff), true
	}
	return t.name, true
}

// ParseTrecMeasure parses one trec_eval measure name: "P" (default cutoffs
// 5,10,15,20,30,100,200,500,1000), "P.5,10", "recall.100", "ndcg_cut.10", "map_cut.100",
// "success.1,5,10" (default 1,5,10), "recip_rank", "map", "ndcg", "Rprec", "bpref", "num_q",
// "num_ret", "num_rel", "num_rel_ret"; the printed forms "P_5", "ndcg_cut_10" are accepted too.
// Cutoffs come back ascending without duplicates, as trec_eval prints them.
func ParseTrecMeasure(name string) ([]Measure, error) {
	s := strings.TrimSpace(name)
	base, params, hasParams := strings.Cut(s, ".")
	var t trecMeasure
	found := false
	for _, c := range trecMeasures {
		if c.name == base {
			t, found = c, true
			break
		}
	}
	if !found && !hasParams {
		// The printed form name_k.
		if i := strings.LastIndexByte(s, '_'); i > 0 {
			for _, c := range trecMeasures {
				if c.cut && c.name == s[:i] {
					t, found, params, hasParams = c, true, s[i+1:], true
					break
				}
			}
		}
	}
	if !found {
		return nil, fmt.Errorf("unknown measure %q; %s", name, acceptedNames)
	}
	cutoffs := t.defaults
	if hasParams {
		if !t.cut {
			return nil, fmt.Errorf("measure %q: %s takes no parameters", name, t.name)
		}
		cutoffs = nil
		for _, p := range strings.Split(params, ",") {
			k, err := strconv.Atoi(p)
			if err != nil || k <= 0 || p[0] == '+' {
				return nil, fmt.Errorf("measure %q: cutoff %q is not a positive integer", name, p)
			}
			cutoffs = append(cutoffs, k)
		}
	}
	if !t.cut {
		return []Measure{{Name: t.measure}}, nil
	}
	cutoffs = slices.Clone(cutoffs)
	slices.Sort(cutoffs)
	cutoffs = slices.Compact(cutoffs)
	out := make([]Measure, len(cutoffs))
	for i, k := range cutoffs {
		out[i] = Measure{Name: t.measure, Cutoff: k}
	}
	return out, nil
}

// ParseMeasures parses measure names, each either a trec_eval name (P.5,10 gives P@5 and P@10;
// see ParseTrecMeasure) or an ir_measures name (see ParseMeasure). A name is read as trec_eval's
// when its part before the first "." (or its printed form name_k) is a trec_eval measure name;
// "Rprec" means the same in both. A measure given twice is kept once, at its first place.
func ParseMeasures(names ...string) ([]Measure, error) {
	var out []Measure
	seen := map[Measure]bool{}
	for _, n := range names {
		var ms []Measure
		if isTrecName(n) {
			var err error
			if ms, err = ParseTrecMeasure(n); err != nil {
				return nil, err
			}
		} else {
			m, err := ParseMeasure(n)
			if err != nil {
				return nil, err
			}
			ms = []Measure{m}
		}
		for _, m := range ms {
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	return out, nil
}

// isTrecName reports whether name is to be read as a trec_eval measure name.
func isTrecName(name string) bool {
	s := strings.TrimSpace(name)
	base, _, _ := strings.Cut(s, ".")
	for _, c := range trecMeasures {
		if c.name == base {
			return true
		}
		if c.cut && strings.HasPrefix(s, c.name+"_") && !strings.ContainsAny(s, "@(") {
			return true
		}
	}
	return false
}

// TrecOrder sorts measures as trec_eval prints them: by its measure table (num_q, num_ret,
// num_rel, num_rel_ret, map, Rprec, bpref, recip_rank, P, recall, ndcg, ndcg_cut, map_cut,
// success), cutoffs ascending within one measure; measures trec_eval does not have come after,
// in their given order. It returns a new slice.
func TrecOrder(measures []Measure) []Measure {
	out := slices.Clone(measures)
	key := func(m Measure) int {
		if t, ok := trecInfo(m); ok {
			return t.order
		}
		return 1000
	}
	slices.SortStableFunc(out, func(a, b Measure) int {
		ka, kb := key(a), key(b)
		if ka != kb {
			return ka - kb
		}
		if ka == 1000 {
			return 0
		}
		return a.Cutoff - b.Cutoff
	})
	return out
}
