package eval

import (
	"fmt"
	"strconv"
)

// Measure is one evaluation measure with its parameters: P@5, P(rel=2)@5, nDCG@10, IPrec@0.5,
// RBP(p=0.8), SetF(beta=0.5), or, for the measures ir_measures does not have, trec_eval's
// spelling of one value (gm_map, relative_P.5, utility.2,-1,0,0, ndcg.1=3,2=9). A Measure is a
// comparable value (usable as a map key); its String form is canonical and
// ParseMeasure(m.String()) == m.
//
// Name is the measure's family: ir_measures' name where ir_measures has the measure (P, R, RR,
// AP, nDCG, Rprec, Bpref, Success, Judged, IPrec, infAP, SetP, SetR, SetAP, SetF, RBP, NumQ,
// NumRet, NumRel, NumRelRet), trec_eval's name otherwise (runid, gm_map, gm_bpref, relstring,
// Rprec_mult, utility, 11pt_avg, binG, G, dcg, ideal_dcg, ndcg_rel, Rndcg, relative_P,
// num_nonrel_judged_ret, yaap, rbp_resid, unj, the prefs_* measures, map_avgjg, P_avgjg,
// Rprec_mult_avgjg). The constructors below give each family's formula.
//
// Cutoff is an integer rank cutoff k (@k); 0 means none (the whole ranking).
//
// Rel is the minimum grade counted as relevant (ir_measures' rel=); 0 means "the evaluation's
// relevance level" (Options.RelLevel, itself 1 by default). Only the binary measures named as
// in ir_measures take it.
//
// Exp selects nDCG's exponential gain 2^grade-1 (ir_measures' dcg=exp-log2).
//
// Param holds the family's other parameters as text: the real-valued cutoff of IPrec,
// Rprec_mult and Rprec_mult_avgjg in canonical form ("0.1"); for the families trec_eval names
// by their parameter string (relstring, utility, 11pt_avg, set_F, the gain measures G, dcg,
// ideal_dcg, ndcg, ndcg_rel, Rndcg, and rbp, rbp_resid) that string as written, since
// trec_eval prints it as written ("11pt_avg_.25,.5,.75"); "relative=True" for SetP. "" means
// the family's default. Build measures with the constructors or ParseMeasure, which check
// Param.
type Measure struct {
	Name   string
	Cutoff int
	Rel    int
	Exp    bool
	Param  string
}

// The values of Measure.Name (documented on Measure). The first group is spelled as in
// ir_measures, the second as in trec_eval.
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
	NameIPrec     = "IPrec"
	NameInfAP     = "infAP"
	NameSetP      = "SetP"
	NameSetR      = "SetR"
	NameSetAP     = "SetAP"
	NameSetF      = "SetF"
	NameRBP       = "RBP"

	NameRunID              = "runid"
	NameGMAP               = "gm_map"
	NameGMBpref            = "gm_bpref"
	NameRelString          = "relstring"
	NameRprecMult          = "Rprec_mult"
	NameUtility            = "utility"
	Name11ptAvg            = "11pt_avg"
	NameBinG               = "binG"
	NameG                  = "G"
	NameDCG                = "dcg"
	NameIdealDCG           = "ideal_dcg"
	NameNDCGRel            = "ndcg_rel"
	NameRNDCG              = "Rndcg"
	NameRelativeP          = "relative_P"
	NameNumNonrelJudgedRet = "num_nonrel_judged_ret"
	NameYAAP               = "yaap"
	NameRBPResid           = "rbp_resid"
	NameUnj                = "unj"
	NameMAPAvgJG           = "map_avgjg"
	NamePAvgJG             = "P_avgjg"
	NameRprecMultAvgJG     = "Rprec_mult_avgjg"
)

// Notation of the formulas below, for one query: the ranking has n docs (after Options.Depth and
// Options.JudgedOnly); g(i) is the grade of the doc at rank i (from 1), NP when the qrels do not
// list it (trec_eval's -1) and UJ when its grade is negative (trec_eval's -2, "in the pool,
// unjudged"); L is the relevance level; rel(i) = 1 when g(i) >= L; R = #{judged docs of the
// query with grade >= L}, retrieved or not; RR_n = Σ_{i<=n} rel(i) (trec_eval's num_rel_ret);
// rel@k = Σ_{i<=min(k,n)} rel(i).

// P returns precision at k: rel@k / k (the ranking is filled with non-relevant docs beyond n).
// trec_eval: P_k; ir_measures: P@k.
func P(k int) Measure { return Measure{Name: NameP, Cutoff: k} }

// Recall returns recall at k: rel@k / R, 0 when R = 0 (k = 0: the whole ranking).
// trec_eval: recall_k; ir_measures: R@k.
func Recall(k int) Measure { return Measure{Name: NameR, Cutoff: k} }

// RR returns the reciprocal rank of the first relevant doc, 1/min{i: rel(i)}, 0 when none.
// trec_eval: recip_rank; ir_measures: RR.
func RR() Measure { return Measure{Name: NameRR} }

// RRAt returns the reciprocal rank cut at k (MRR@k): 0 when no relevant doc is in the top k. As
// ir_measures computes RR@k (its msmarco provider), the ranking is by float64 score with ties
// broken by doc ID ascending, under every option. ir_measures: RR@k (trec_eval has no cut
// reciprocal rank).
func RRAt(k int) Measure { return Measure{Name: NameRR, Cutoff: k} }

// AP returns average precision: Σ_{i: rel(i)} (rel@i / i) / R, 0 when R = 0.
// trec_eval: map; ir_measures: AP.
func AP() Measure { return Measure{Name: NameAP} }

// APAt returns average precision cut at k: Σ_{i<=min(k,n), rel(i)} (rel@i / i) / R, 0 when
// R = 0. trec_eval: map_cut_k; ir_measures: AP@k.
func APAt(k int) Measure { return Measure{Name: NameAP, Cutoff: k} }

// GMAP returns AP aggregated by its geometric mean: each query's value is
// log(max(AP, 0.00001)) (what trec_eval and pytrec_eval store), Result.Mean is
// exp(mean of those logs). trec_eval: gm_map (no ir_measures name).
func GMAP() Measure { return Measure{Name: NameGMAP} }

// NDCG returns nDCG at k with linear gain (the grade): DCG@k / IDCG@k with
// DCG@k = Σ_{i<=min(k,n), g(i)>0} g(i) / log2(i+1) and IDCG@k the same sum over every judged
// doc of the query with a positive grade, sorted by grade descending; 0 when IDCG = 0. The
// relevance level plays no part. trec_eval: ndcg_cut_k; ir_measures: nDCG@k. With k = 0 it is
// trec_eval's ndcg (ir_measures' nDCG): the whole ranking against the whole ideal ranking,
// computed with trec_eval's gain table (see NDCGGains).
func NDCG(k int) Measure { return Measure{Name: NameNDCG, Cutoff: k} }

// NDCGExp returns nDCG at k with exponential gain 2^g-1 (ir_measures' nDCG(dcg='exp-log2')@k,
// which it computes with gdeval; no trec_eval name); otherwise as NDCG. As gdeval ranks, the
// scores are float64 under every option (Options.TrecEval9 too).
func NDCGExp(k int) Measure { return Measure{Name: NameNDCG, Cutoff: k, Exp: true} }

// NDCGGains returns trec_eval's ndcg with a gain table ("1=3,2=9,4=4.5": grade 1 has gain 3,
// grade 2 gain 9, grade 4 gain 4.5, other grades their own value; see DCG for the formula).
// trec_eval: ndcg.1=3,2=9,4=4.5, printed ndcg_1=3,2=9,4=4.5. ParseMeasure checks the table.
func NDCGGains(gains string) Measure { return Measure{Name: NameNDCG, Param: gains} }

// DCG returns trec_eval's dcg: Σ_{i<=n} gain(g(i)) / log2(i+1), where gain(grade) = the grade
// for grades >= 0 unless the gain table (Param, "1=3,2=9") gives another, and gain(NP) =
// gain(UJ) = 0 unless the table names -1 or -2. ideal_dcg is the same sum over the judged docs
// of the query sorted by gain descending, stopping at the first gain <= 0 (trec_eval sorts the
// table by gain compared after truncation to an integer, as it does). ndcg = dcg / ideal_dcg
// (0 when ideal_dcg = 0). No ir_measures name.
func DCG() Measure { return Measure{Name: NameDCG} }

// IdealDCG returns trec_eval's ideal_dcg (see DCG).
func IdealDCG() Measure { return Measure{Name: NameIdealDCG} }

// Rprec returns R-precision: rel@R / R, 0 when R = 0. trec_eval: Rprec; ir_measures: Rprec.
func Rprec() Measure { return Measure{Name: NameRprec} }

// Bpref returns binary preference:
//
//	Σ_{i: rel(i)} (1 - min(N_i, R) / min(N, R)) / R    (a term is 1 when N_i = 0; 0 when R = 0)
//
// where N_i = #{judged non-relevant docs (0 <= grade < L) ranked above i} and N = #{judged
// docs of the query with 0 <= grade < L}; NP and UJ docs are skipped.
// trec_eval: bpref; ir_measures: Bpref.
func Bpref() Measure { return Measure{Name: NameBpref} }

// GMBpref returns Bpref aggregated by its geometric mean, stored as log(max(bpref, 0.00001))
// per query like GMAP. trec_eval: gm_bpref.
func GMBpref() Measure { return Measure{Name: NameGMBpref} }

// Success returns success at k: 1 when rel@k > 0, else 0.
// trec_eval: success_k; ir_measures: Success@k.
func Success(k int) Measure { return Measure{Name: NameSuccess, Cutoff: k} }

// Judged returns ir_measures' Judged@k: the share of the top min(k, n) docs that the qrels list
// (any grade, negative ones too), #{i <= min(k,n): g(i) != NP} / min(k, n), with ties ranked
// by doc ID ascending as ir_measures ranks them; 0 for an empty ranking (ir_measures raises
// an error). Compare trec_eval's unj (Unj). ir_measures: Judged@k.
func Judged(k int) Measure { return Measure{Name: NameJudged, Cutoff: k} }

// Unj returns trec_eval's unj_k: the share of the top k that is not judged,
// #{i <= min(k,n): g(i) is NP or UJ} / k (divided by k even when n < k). No ir_measures name.
func Unj(k int) Measure { return Measure{Name: NameUnj, Cutoff: k} }

// NumQ, NumRet, NumRel and NumRelRet return the counts: 1 per query, n, R and RR_n.
// trec_eval: num_q, num_ret, num_rel, num_rel_ret; ir_measures: NumQ, NumRet, NumRel,
// NumRelRet (NumRet(rel=N)). trec_eval's "all" line holds their sum (Result.All).
func NumQ() Measure      { return Measure{Name: NameNumQ} }
func NumRet() Measure    { return Measure{Name: NameNumRet} }
func NumRel() Measure    { return Measure{Name: NameNumRel} }
func NumRelRet() Measure { return Measure{Name: NameNumRelRet} }

// NumNonrelJudgedRet returns the number of retrieved judged non-relevant docs (0 <= grade < L):
// n - #NP - #UJ - RR_n. trec_eval: num_nonrel_judged_ret (summed on the "all" line).
func NumNonrelJudgedRet() Measure { return Measure{Name: NameNumNonrelJudgedRet} }

// IPrec returns the interpolated precision at recall r: with K = round(r·R) (half away from
// zero; Options.TrecEval9: trunc(r·R + 0.9)), the largest precision RR_j / j over the ranks j
// at or below the rank of the K-th relevant retrieved doc (K = 0: over the whole ranking);
// 0 when K > RR_n; NaN when n = 0. trec_eval: iprec_at_recall_%.2f; ir_measures: IPrec@r.
func IPrec(r float64) Measure { return Measure{Name: NameIPrec, Param: formatNumber(r)} }

// ElevenPtAvg returns trec_eval's 11pt_avg: the mean of IPrec at the recall levels of its
// parameter ("" = 0,0.1,...,1; "0.25,0.5,0.75" as written), computed with trec_eval's single
// pass over the levels from the last. No ir_measures name.
func ElevenPtAvg(levels string) Measure { return Measure{Name: Name11ptAvg, Param: levels} }

// InfAP returns inferred AP (trec_eval's infAP, ir_measures' infAP): with r_j, u_j, nr_j the
// relevant, UJ and judged non-relevant docs ranked above rank j (NP docs skipped),
//
//	Σ_{j: rel(j)} [ j = 1 ? 1 : 1/j + ((j-1)/j) · ((r_j+nr_j+u_j)/(j-1)) · ((r_j+ε)/(r_j+nr_j+2ε)) ] / R
//
// with ε = 0.00001 (the sum itself when R = 0).
func InfAP() Measure { return Measure{Name: NameInfAP} }

// RprecMult returns trec_eval's Rprec_mult at x: precision at rank K = trunc(x·R + 0.9),
// rel@K / K (0 when K = 0). No ir_measures name.
func RprecMult(x float64) Measure { return Measure{Name: NameRprecMult, Param: formatNumber(x)} }

// Utility returns trec_eval's utility with coefficients "a,b,c,d" ("" = 1,-1,0,0):
// a·RR_n + b·(n - RR_n) + c·(R - RR_n) + d·(N + RR_n - n - R), N = Options.NumDocs (-N).
// Its "all" value is the mean. No ir_measures name.
func Utility(coefficients string) Measure { return Measure{Name: NameUtility, Param: coefficients} }

// BinG returns trec_eval's binG: Σ_{i: rel(i)} 1 / log2(2 + #{non-relevant docs above i}) / R
// (0 when nothing relevant is retrieved). No ir_measures name.
func BinG() Measure { return Measure{Name: NameBinG} }

// G returns trec_eval's G with a gain table as DCG ("" = grades as gains): with S_i the sum of
// the gains of the docs at ranks <= i and C_i the sum of the ideal gains (at least 1 each) up
// to rank i, Σ_i gain(g(i)) / log2(2 + C_i - S_i) divided by the sum of all ideal gains.
// No ir_measures name.
func G(gains string) Measure { return Measure{Name: NameG, Param: gains} }

// NDCGRel returns trec_eval's ndcg_rel: the mean of the running nDCG at each retrieved doc
// with a positive gain, the relevant docs not retrieved counting the final nDCG; gain table as
// DCG. No ir_measures name.
func NDCGRel(gains string) Measure { return Measure{Name: NameNDCGRel, Param: gains} }

// RNDCG returns trec_eval's Rndcg: the mean of the running nDCG taken at each rank where the
// ideal gain changes (0 when R = 0; NaN when it never changes); gain table as DCG.
// No ir_measures name.
func RNDCG(gains string) Measure { return Measure{Name: NameRNDCG, Param: gains} }

// RelativeP returns trec_eval's relative_P_k: rel@k / min(k, R), 0 when R = 0.
// No ir_measures name.
func RelativeP(k int) Measure { return Measure{Name: NameRelativeP, Cutoff: k} }

// SetP returns the precision of the whole retrieved set, RR_n / n (0 when n = 0).
// trec_eval: set_P; ir_measures: SetP.
func SetP() Measure { return Measure{Name: NameSetP} }

// SetRelP returns RR_n / min(n, R) (0 when n = 0 or R = 0).
// trec_eval: set_relative_P; ir_measures: SetP(relative=True).
func SetRelP() Measure { return Measure{Name: NameSetP, Param: "relative=True"} }

// SetR returns the recall of the retrieved set, RR_n / R (0 when R = 0).
// trec_eval: set_recall; ir_measures: SetR.
func SetR() Measure { return Measure{Name: NameSetR} }

// SetAP returns RR_n² / (n·R) (0 when n = 0 or R = 0). trec_eval: set_map; ir_measures: SetAP.
func SetAP() Measure { return Measure{Name: NameSetAP} }

// SetF returns the F measure of the retrieved set: with P = RR_n/n and C = RR_n/R,
// (x+1)·P·C / (x·P + C), 0 when RR_n = 0, where x = beta as trec_eval and ir_measures take it
// (x is β² of the usual F_β). trec_eval: set_F (set_F.x); ir_measures: SetF(beta=x).
func SetF(beta float64) Measure {
	if beta == 1 {
		return Measure{Name: NameSetF}
	}
	return Measure{Name: NameSetF, Param: formatNumber(beta)}
}

// YAAP returns trec_eval's yaap: log((1 + S) / (1 + R - S)), S = Σ_{i: rel(i)} rel@i / i.
// No ir_measures name; in no trec_eval nickname.
func YAAP() Measure { return Measure{Name: NameYAAP} }

// RBP returns rank-biased precision with persistence p: (1-p) · Σ_{i<=n} gain(g(i)) · p^(i-1),
// where the gains are the grades (with Rel set: 1 for g(i) >= Rel, else 0), divided by the
// query's largest judged grade when that exceeds 1 (trec_eval 10.0's normalisation to [0,1]).
// trec_eval: rbp.p=p (rbp is p = 0.9, Measure{Name: "RBP"}); ir_measures: RBP(p=p) (its
// default p is 0.8: RBP), which ir_measures computes for binary relevance, RBP(rel=1,p=p).
func RBP(p float64) Measure { return Measure{Name: NameRBP, Param: "p=" + formatNumber(p)} }

// RBPResid returns trec_eval's rbp_resid with persistence p (0 = trec_eval's 0.9): when the
// top n holds an NP or UJ doc, p^n + (1-p) · Σ_{i<=n, g(i) is NP or UJ} p^(i-1) (the largest
// amount RBP could still gain), else 0. No ir_measures name.
func RBPResid(p float64) Measure {
	if p == 0 {
		return Measure{Name: NameRBPResid}
	}
	return Measure{Name: NameRBPResid, Param: "p=" + formatNumber(p)}
}

// RelString returns trec_eval's relstring: the grades of the top min(length, n) docs as text,
// one character each ('0'-'9', '>' above 9, '-' for NP, '.' for UJ); length 0 means 10.
// Its value is text (Result.RelString), printed per query only.
func RelString(length int) Measure {
	if length == 0 {
		return Measure{Name: NameRelString}
	}
	return Measure{Name: NameRelString, Param: strconv.Itoa(length)}
}

// RunID returns trec_eval's runid: the run's tag (the sixth field of its last line), printed
// on the "all" line only (Result.RunID). Its numeric value is 0.
func RunID() Measure { return Measure{Name: NameRunID} }

// WithRel returns m with the minimum relevant grade set to level (ir_measures' rel=level).
func (m Measure) WithRel(level int) Measure {
	m.Rel = level
	return m
}

// IsCount reports whether m is a count printed as an integer whose trec_eval "all" value is
// the sum over the queries (NumQ, NumRet, NumRel, NumRelRet, num_nonrel_judged_ret and the
// prefs_num_prefs_* counts).
func (m Measure) IsCount() bool {
	f, ok := families[m.Name]
	return ok && f.integer
}

// Validate reports whether m is a measure ranklab computes, with parameters it accepts.
func (m Measure) Validate() error {
	_, err := compileMeasure(m, Options{})
	return err
}

// formatNumber is the canonical text of a number parameter.
func formatNumber(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// errMeasure formats a measure error.
func errMeasure(m Measure, format string, args ...any) error {
	return fmt.Errorf("measure %s: %s", m, fmt.Sprintf(format, args...))
}
