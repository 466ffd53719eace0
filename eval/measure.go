package eval

import (
	"fmt"
	"strconv"

	"github.com/ranklab/ranklab/internal/measurename"
)

// Measure is one evaluation measure with its parameters: P@5, P(rel=2)@5, nDCG@10, IPrec@0.5,
// or trec_eval's spelling of one value for the measures ir_measures lacks (gm_map,
// relative_P.5). It is a comparable value (a map key); String is canonical and
// ParseMeasure(m.String()) == m. The package doc lists every measure with its formula.
//
// Name is the family: ir_measures' name ("P", "nDCG", ...) or trec_eval's. Cutoff is the rank
// cutoff k (0: none). Rel is the minimum relevant grade (ir_measures' rel=; 0: Options.RelLevel),
// for the binary measures. Exp selects nDCG's gain 2^grade − 1 (dcg=exp-log2). Param holds
// the other parameters as text: IPrec's recall level ("0.1"), trec_eval's parameter string as
// written (utility "2,-1,0,0", gain tables "1=3,2=9", rbp "p=0.8"), "relative=True" for SetP;
// "" is the default. Build measures with the constructors or ParseMeasure, which check Param.
type Measure struct {
	Name   string
	Cutoff int
	Rel    int
	Exp    bool
	Param  string
}

// The values of Measure.Name that the module's packages switch on (package internal/measurename;
// every family is listed in the package doc).
const (
	nameP         = measurename.P
	nameR         = measurename.R
	nameRR        = measurename.RR
	nameAP        = measurename.AP
	nameNDCG      = measurename.NDCG
	nameRprec     = measurename.Rprec
	nameBpref     = measurename.Bpref
	nameSuccess   = measurename.Success
	nameJudged    = measurename.Judged
	nameNumQ      = measurename.NumQ
	nameNumRet    = measurename.NumRet
	nameNumRel    = measurename.NumRel
	nameNumRelRet = measurename.NumRelRet
)

// The other families ir_measures names.
const (
	nameIPrec = "IPrec"
	nameInfAP = "infAP"
	nameSetP  = "SetP"
	nameSetR  = "SetR"
	nameSetAP = "SetAP"
	nameSetF  = "SetF"
	nameRBP   = "RBP"
	nameERR   = "ERR"
)

// The families named as in trec_eval (reached through ParseMeasure).
const (
	nameRunID              = "runid"
	nameGMAP               = "gm_map"
	nameGMBpref            = "gm_bpref"
	nameRelString          = "relstring"
	nameRprecMult          = "Rprec_mult"
	nameUtility            = "utility"
	name11ptAvg            = "11pt_avg"
	nameBinG               = "binG"
	nameG                  = "G"
	nameDCG                = "dcg"
	nameIdealDCG           = "ideal_dcg"
	nameNDCGRel            = "ndcg_rel"
	nameRNDCG              = "Rndcg"
	nameRelativeP          = "relative_P"
	nameNumNonrelJudgedRet = "num_nonrel_judged_ret"
	nameYAAP               = "yaap"
	nameRBPResid           = "rbp_resid"
	nameUnj                = "unj"
	nameMAPAvgJG           = "map_avgjg"
	namePAvgJG             = "P_avgjg"
	nameRprecMultAvgJG     = "Rprec_mult_avgjg"
)

// The constructors of the measures most used; every other measure is reached with
// ParseMeasure, and the package doc gives every formula.

// P returns precision at k, P@k (trec_eval P_k).
func P(k int) Measure { return Measure{Name: nameP, Cutoff: k} }

// Recall returns recall at k, R@k (trec_eval recall_k); k = 0: the whole ranking.
func Recall(k int) Measure { return Measure{Name: nameR, Cutoff: k} }

// RR returns the reciprocal rank of the first relevant doc (trec_eval recip_rank).
func RR() Measure { return Measure{Name: nameRR} }

// RRAt returns the reciprocal rank cut at k, RR@k (MRR@k; trec_eval has none), ranked as
// ir_measures ranks it: float64 scores, ties by doc ID ascending, under every option.
func RRAt(k int) Measure { return Measure{Name: nameRR, Cutoff: k} }

// AP returns average precision (trec_eval map).
func AP() Measure { return Measure{Name: nameAP} }

// APAt returns average precision cut at k, AP@k (trec_eval map_cut_k).
func APAt(k int) Measure { return Measure{Name: nameAP, Cutoff: k} }

// NDCG returns nDCG@k with linear gain (trec_eval ndcg_cut_k); k = 0 is trec_eval's ndcg.
func NDCG(k int) Measure { return Measure{Name: nameNDCG, Cutoff: k} }

// NDCGExp returns nDCG@k with gain 2^g − 1, nDCG(dcg=exp-log2)@k (no trec_eval name),
// ranked by float64 scores as gdeval ranks, under every option.
func NDCGExp(k int) Measure { return Measure{Name: nameNDCG, Cutoff: k, Exp: true} }

// Rprec returns R-precision (trec_eval Rprec).
func Rprec() Measure { return Measure{Name: nameRprec} }

// Bpref returns binary preference (trec_eval bpref).
func Bpref() Measure { return Measure{Name: nameBpref} }

// Success returns success at k, Success@k (trec_eval success_k).
func Success(k int) Measure { return Measure{Name: nameSuccess, Cutoff: k} }

// Judged returns ir_measures' Judged@k, the share of the top k the qrels list.
func Judged(k int) Measure { return Measure{Name: nameJudged, Cutoff: k} }

// ERR returns expected reciprocal rank at k (Chapelle et al. 2009), ir_measures' ERR@k.
func ERR(k int) Measure { return Measure{Name: nameERR, Cutoff: k} }

// IPrec returns interpolated precision at recall r, IPrec@r (trec_eval iprec_at_recall).
func IPrec(r float64) Measure { return Measure{Name: nameIPrec, Param: formatNumber(r)} }

// ElevenPtAvg returns trec_eval's 11pt_avg at the recall levels given ("" = 0,0.1,...,1).
func ElevenPtAvg(levels string) Measure { return Measure{Name: name11ptAvg, Param: levels} }

// InfAP returns inferred AP (trec_eval infAP).
func InfAP() Measure { return Measure{Name: nameInfAP} }

// WithRel returns m with the minimum relevant grade set to level (ir_measures' rel=level).
func (m Measure) WithRel(level int) Measure {
	m.Rel = level
	return m
}

// IsCount reports whether m is a count (NumRet, NumRel, ...): printed as an integer, summed on
// trec_eval's "all" line.
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
