package eval

import (
	"fmt"
	"math"
	"slices"
)

// Measure is one evaluation measure with its parameters, as ir_measures writes it: P@5,
// P(rel=2)@5, nDCG(dcg=exp-log2)@10, RR, AP@100. A Measure is a comparable value (usable as a
// map key); its String form is canonical and ParseMeasure(m.String()) == m.
//
// Name is one of
//
//	P        precision at Cutoff (required)
//	R        recall at Cutoff (0 = the whole ranking)
//	RR       reciprocal rank of the first relevant doc (Cutoff 0 = whole ranking, trec_eval's recip_rank)
//	AP       average precision (Cutoff 0 = trec_eval's map, else map_cut)
//	nDCG     normalized DCG (Cutoff 0 = trec_eval's ndcg, else ndcg_cut); Exp selects gain 2^g-1
//	Rprec    precision at rank R
//	Bpref    binary preference
//	Success  1 if a relevant doc is in the top Cutoff (required), else 0
//	Judged   share of the top Cutoff (required) that the qrels list
//	NumQ, NumRet, NumRel, NumRelRet   counts (trec_eval's num_q, num_ret, num_rel, num_rel_ret)
//
// Rel is the minimum grade counted as relevant (ir_measures' rel=); 0 means "the evaluation's
// relevance level" (Options.RelLevel, itself 1 by default). nDCG, Judged, NumQ and NumRet
// ignore it. Exp is meaningful for nDCG only (dcg=exp-log2).
type Measure struct {
	Name   string
	Cutoff int
	Rel    int
	Exp    bool
}

// Measure names, as ir_measures spells them.
const (
	NameP         = "P"
	NameR         = "R"
	NameRR        = "RR"
	NameAP        = "AP"
	NameNDCG      = "nDCG"
	NameRprec     = "Rprec"
	NameBpref     = "Bpref"
	NameSuccess   = "Success"
	NameJudged    = "Judged"
	NameNumQ      = "NumQ"
	NameNumRet    = "NumRet"
	NameNumRel    = "NumRel"
	NameNumRelRet = "NumRelRet"
)

// P returns precision at k (trec_eval's P_k).
func P(k int) Measure { return Measure{Name: NameP, Cutoff: k} }

// Recall returns recall at k (trec_eval's recall_k, ir_measures' R@k).
func Recall(k int) Measure { return Measure{Name: NameR, Cutoff: k} }

// RR returns the reciprocal rank over the whole ranking (trec_eval's recip_rank).
func RR() Measure { return Measure{Name: NameRR} }

// RRAt returns the reciprocal rank cut at k (MRR@k): 0 when no relevant doc is in the top k.
func RRAt(k int) Measure { return Measure{Name: NameRR, Cutoff: k} }

// AP returns average precision over the whole ranking (trec_eval's map).
func AP() Measure { return Measure{Name: NameAP} }

// APAt returns average precision cut at k (trec_eval's map_cut_k).
func APAt(k int) Measure { return Measure{Name: NameAP, Cutoff: k} }

// NDCG returns nDCG at k with linear gain (trec_eval's ndcg_cut_k; k = 0 is trec_eval's ndcg).
func NDCG(k int) Measure { return Measure{Name: NameNDCG, Cutoff: k} }

// NDCGExp returns nDCG at k with exponential gain 2^grade-1 (ir_measures' nDCG(dcg=exp-log2)@k).
func NDCGExp(k int) Measure { return Measure{Name: NameNDCG, Cutoff: k, Exp: true} }

// Rprec returns R-precision.
func Rprec() Measure { return Measure{Name: NameRprec} }

// Bpref returns trec_eval's bpref.
func Bpref() Measure { return Measure{Name: NameBpref} }

// Success returns success at k (trec_eval's success_k).
func Success(k int) Measure { return Measure{Name: NameSuccess, Cutoff: k} }

// Judged returns the share of the top k docs that the qrels list (ir_measures' Judged@k).
func Judged(k int) Measure { return Measure{Name: NameJudged, Cutoff: k} }

// NumQ, NumRet, NumRel and NumRelRet return the count measures.
func NumQ() Measure      { return Measure{Name: NameNumQ} }
func NumRet() Measure    { return Measure{Name: NameNumRet} }
func NumRel() Measure    { return Measure{Name: NameNumRel} }
func NumRelRet() Measure { return Measure{Name: NameNumRelRet} }

// WithRel returns m with the minimum relevant grade set to level (ir_measures' rel=level).
func (m Measure) WithRel(level int) Measure {
	m.Rel = level
	return m
}

// IsCount reports whether m is a count (NumQ, NumRet, NumRel, NumRelRet): trec_eval prints
// counts as integers and its "all" line holds their sum, not their mean.
func (m Measure) IsCount() bool {
	switch m.Name {
	case NameNumQ, NameNumRet, NameNumRel, NameNumRelRet:
		return true
	}
	return false
}

// usesRel reports whether the relevance level changes m.
func (m Measure) usesRel() bool {
	switch m.Name {
	case NameNDCG, NameJudged, NameNumQ, NameNumRet:
		return false
	}
	return true
}

// Validate reports whether m is a measure Compute knows, with parameters it accepts.
func (m Measure) Validate() error {
	switch m.Name {
	case NameP, NameSuccess, NameJudged:
		if m.Cutoff <= 0 {
			return fmt.Errorf("measure %s needs a positive cutoff (%s@k)", m.Name, m.Name)
		}
	case NameR, NameRR, NameAP, NameNDCG:
		if m.Cutoff < 0 {
			return fmt.Errorf("measure %s: cutoff %d is negative", m.Name, m.Cutoff)
		}
	case NameRprec, NameBpref, NameNumQ, NameNumRet, NameNumRel, NameNumRelRet:
		if m.Cutoff != 0 {
			return fmt.Errorf("measure %s takes no cutoff", m.Name)
		}
	default:
		return fmt.Errorf("unknown measure name %q", m.Name)
	}
	if m.Rel < 0 {
		return fmt.Errorf("measure %s: rel=%d is negative", m.Name, m.Rel)
	}
	if m.Rel != 0 && !m.usesRel() {
		return fmt.Errorf("measure %s takes no rel= (it does not use a relevance level)", m.Name)
	}
	if m.Exp && m.Name != NameNDCG {
		return fmt.Errorf("measure %s takes no dcg= (only nDCG does)", m.Name)
	}
	return nil
}

// level returns the minimum relevant grade m uses: Rel, or 1 when Rel is 0.
func (m Measure) level() int {
	if m.Rel > 0 {
		return m.Rel
	}
	return 1
}

// Compute evaluates m on one query. ranked holds the grades of the ranked docs in rank order
// (Unjudged for docs the qrels do not list); judged holds the grades of every judged doc of the
// query, retrieved or not. Neither slice is modified. With L the relevance level (Rel, or 1),
// n = len(ranked), rel(i) = 1 when ranked[i] >= L, and R = #{judged grades >= L}:
//
//	P@k       = Σ_{i<min(k,n)} rel(i) / k
//	R@k       = Σ_{i<min(k,n)} rel(i) / R                         (0 when R = 0)
//	RR@k      = 1 / (first i with rel(i), counted from 1) if it is <= k, else 0
//	AP@k      = Σ_{i<min(k,n), rel(i)} P@(i+1) / R                 (0 when R = 0)
//	nDCG@k    = DCG@k / IDCG@k, DCG@k = Σ_{i<min(k,n)} gain(ranked[i]) / log2(i+2),
//	            IDCG@k = the same sum over all judged gains sorted descending, cut at k
//	            (0 when IDCG = 0); gain(g) = g (linear) or 2^g-1 (Exp) for g > 0, else 0
//	Rprec     = Σ_{i<min(R,n)} rel(i) / R                          (0 when R = 0)
//	Bpref     = Σ_{i: rel(i)} (1 - min(N_i, R)/min(N, R)) / R, N_i = judged non-relevant
//	            (0 <= grade < L) ranked above i, N = #{judged 0 <= grade < L}; a term is 1 when N_i = 0
//	Success@k = 1 if Σ_{i<min(k,n)} rel(i) > 0, else 0
//	Judged@k  = #{i < min(k,n): ranked[i] != Unjudged} / k
//	NumQ = 1, NumRet = n, NumRel = R, NumRelRet = Σ_i rel(i)
//
// A cutoff of 0 means the whole ranking. Compute panics on a measure that fails Validate.
func (m Measure) Compute(ranked, judged []int) float64 {
	L := m.level()
	n := len(ranked)
	top := n
	if m.Cutoff > 0 && m.Cutoff < n {
		top = m.Cutoff
	}
	countRel := func(limit int) int {
		c := 0
		for _, g := range ranked[:limit] {
			if g >= L {
				c++
			}
		}
		return c
	}
	numRel := func() int {
		c := 0
		for _, g := range judged {
			if g >= L {
				c++
			}
		}
		return c
	}
	switch m.Name {
	case NameP:
		if m.Cutoff <= 0 {
			break
		}
		return float64(countRel(top)) / float64(m.Cutoff)
	case NameR:
		if m.Cutoff < 0 {
			break
		}
		R := numRel()
		if R == 0 {
			return 0
		}
		return float64(countRel(top)) / float64(R)
	case NameRR:
		if m.Cutoff < 0 {
			break
		}
		for i, g := range ranked[:top] {
			if g >= L {
				return 1 / float64(i+1)
			}
		}
		return 0
	case NameAP:
		if m.Cutoff < 0 {
			break
		}
		R := numRel()
		if R == 0 {
			return 0
		}
		sum, seen := 0.0, 0
		for i, g := range ranked[:top] {
			if g >= L {
				seen++
				sum += float64(seen) / float64(i+1)
			}
		}
		return sum / float64(R)
	case NameNDCG:
		if m.Cutoff < 0 {
			break
		}
		return ndcg(ranked[:top], judged, m.Cutoff, m.Exp)
	case NameRprec:
		R := numRel()
		if R == 0 {
			return 0
		}
		return float64(countRel(min(R, n))) / float64(R)
	case NameBpref:
		return bpref(ranked, judged, L)
	case NameSuccess:
		if m.Cutoff <= 0 {
			break
		}
		if countRel(top) > 0 {
			return 1
		}
		return 0
	case NameJudged:
		if m.Cutoff <= 0 {
			break
		}
		c := 0
		for _, g := range ranked[:top] {
			if g != Unjudged {
				c++
			}
		}
		return float64(c) / float64(m.Cutoff)
	case NameNumQ:
		return 1
	case NameNumRet:
		return float64(n)
	case NameNumRel:
		return float64(numRel())
	case NameNumRelRet:
		return float64(countRel(n))
	}
	panic(fmt.Sprintf("lab: Compute on invalid measure %#v", m))
}

// gain returns the gain of grade g: g (linear) or 2^g-1 (exp) when g > 0, else 0.
func gain(g int, exp bool) float64 {
	if g <= 0 {
		return 0
	}
	if exp {
		return math.Exp2(float64(g)) - 1
	}
	return float64(g)
}

// ndcg computes DCG(ranked)/IDCG where the ideal ranking sorts the positive judged grades
// descending and is cut at k (k = 0: not cut). ranked is already cut.
func ndcg(ranked, judged []int, k int, exp bool) float64 {
	dcg := 0.0
	for i, g := range ranked {
		if g > 0 {
			dcg += gain(g, exp) / math.Log2(float64(i+2))
		}
	}
	if dcg == 0 {
		return 0
	}
	ideal := make([]int, 0, len(judged))
	for _, g := range judged {
		if g > 0 {
			ideal = append(ideal, g)
		}
	}
	slices.Sort(ideal)
	slices.Reverse(ideal)
	if k > 0 && k < len(ideal) {
		ideal = ideal[:k]
	}
	best := idcg(ideal, exp)
	if best == 0 {
		return 0
	}
	return dcg / best
}

// idcg sums the gains of grades (sorted descending) with the log2(rank+1) discount.
func idcg(grades []int, exp bool) float64 {
	sum := 0.0
	for i, g := range grades {
		sum += gain(g, exp) / math.Log2(float64(i+2))
	}
	return sum
}

// bpref follows trec_eval: docs absent from the qrels and negative grades are skipped.
func bpref(ranked, judged []int, L int) float64 {
	R, N := 0, 0
	for _, g := range judged {
		switch {
		case g >= L:
			R++
		case g >= 0:
			N++
		}
	}
	if R == 0 {
		return 0
	}
	sum, nonrel := 0.0, 0
	for _, g := range ranked {
		switch {
		case g < 0:
			continue
		case g < L:
			nonrel++
		default:
			if nonrel > 0 && N > 0 {
				sum += 1 - float64(min(nonrel, R))/float64(min(N, R))
			} else {
				sum++
			}
		}
	}
	return sum / float64(R)
}
