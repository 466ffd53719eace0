package conventions

import (
	"fmt"
	"strconv"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/measurename"
)

// source is where a rule is written: a repository, a file in it, and what the file decides.
type source struct {
	Repo string // GitHub owner/name
	File string // path in the repository (or in the released package)
	What string // the rule it fixes
}

// Convention is one tool, or one way of calling it, whose rules a run can be scored under.
type Convention struct {
	Name    string   // as the table prints it: "trec_eval 10.0 -c", "ranx 0.3.21"
	Package string   // the PyPI package the rules are checked against ("" for trec_eval's binary and ranklab)
	Sources []source // where each rule is written
	// variant returns the convention's rules for m and the tool's own name for it; ok is false
	// when the tool has no such measure (the table shows "—").
	variant func(m eval.Measure) (variant, bool)
}

// Reference is the name of ranklab's own row, the one every other cell is compared with.
const Reference = "ranklab (trec_eval 10.0 -c)"

// compared is the one table of the measures the conventions table compares, with each tool's
// name for them where it is not ir_measures' or trec_eval's (those come from eval): "" when the
// tool lacks the measure. CheckMeasure, every variant and the docs below read it.
var compared = map[string]struct {
	needsCut   bool   // P, R and Success are compared at a cutoff only
	ranx       string // ranx's metric
	beir       string // BEIR's key
	beirCustom bool   // computed by BEIR's custom_metrics.py, not pytrec_eval
	llama      string // LlamaIndex's metric
}{
	measurename.P:       {needsCut: true, ranx: "precision", beir: "P", llama: "precision"},
	measurename.R:       {needsCut: true, ranx: "recall", beir: "Recall", llama: "recall"},
	measurename.NDCG:    {ranx: "ndcg", beir: "NDCG", llama: "ndcg"},
	measurename.AP:      {ranx: "map", beir: "MAP", llama: "ap"},
	measurename.RR:      {ranx: "mrr", beir: "MRR", beirCustom: true, llama: "mrr"},
	measurename.Success: {needsCut: true, ranx: "hit_rate", beir: "Accuracy", beirCustom: true, llama: "hit_rate"},
}

// trecName returns trec_eval's name of m (eval's TrecName), with recip_rank for RR@k (trec_eval
// has no cut RR); ok is false for a measure the table does not compare.
func trecName(m eval.Measure) (name string, uncutRR bool, ok bool) {
	if _, ok := compared[m.Name]; !ok {
		return "", false, false
	}
	if m.Name == measurename.RR && m.Cutoff > 0 {
		return "recip_rank", true, true
	}
	name, ok = m.TrecName()
	return name, false, ok
}

var trecSources = []source{
	{"usnistgov/trec_eval", "form_res_rels.c", "ranking: score descending, ties by docno descending (comp_sim_docno); duplicates refused"},
	{"usnistgov/trec_eval", "trec_eval.c", "query set: every qrels query; one without results stops with exit 4 unless -c (average_complete_flag), run-only queries ignored"},
	{"usnistgov/trec_eval", "m_recip_rank.c", "recip_rank: first relevant doc anywhere in the ranking (no cutoff)"},
	{"usnistgov/trec_eval", "m_P.c, m_recall.c, m_ndcg_cut.c, m_map.c, m_map_cut.c, m_success.c", "P divides by k; recall by R; ndcg_cut gain = grade, ideal over all judged grades cut at k"},
	{"usnistgov/trec_eval", "trec_format.h", "10.0 keeps scores as double"},
}

// Conventions returns every convention ranklab scores a run under, in table order: ranklab's
// reference first, then trec_eval 10.0, trec_eval 10.0 -c, pytrec_eval (trec_eval 9.0.8),
// ir_measures, ranx, BEIR, BEIR's R_cap, ragas (ID-based) and LlamaIndex (default and granular).
// Versions are those the peer test checks (scripts/peers.sh).
func Conventions() []Convention {
	return []Convention{
		{
			Name:    Reference,
			Sources: []source{{"ranklab/ranklab", "eval/doc.go", "trec_eval 10.0's order and formulas, every qrels query averaged (-c), measures as named (RR@k is cut at k and ranked as ir_measures ranks it: float64 scores, ties by doc ID ascending)"}},
			variant: func(m eval.Measure) (variant, bool) {
				if m.Name == measurename.RR && m.Cutoff > 0 {
					return variant{Name: m.String(), Measure: m, Order: scoreDocAsc}, true // eval's RR@k (msmarco's order)
				}
				return variant{Name: m.String(), Measure: m}, true
			},
		},
		{
			Name:    "trec_eval 10.0",
			Sources: trecSources,
			variant: func(m eval.Measure) (variant, bool) {
				name, uncut, ok := trecName(m)
				return variant{Name: name, Measure: m, UncutRR: uncut, Queries: strictQrels}, ok
			},
		},
		{
			Name:    "trec_eval 10.0 -c",
			Sources: trecSources,
			variant: func(m eval.Measure) (variant, bool) {
				name, uncut, ok := trecName(m)
				return variant{Name: name, Measure: m, UncutRR: uncut}, ok
			},
		},
		{
			Name:    "pytrec_eval 0.5.11 (trec_eval 9.0.8)",
			Package: "pytrec-eval-terrier",
			Sources: []source{
				{"terrierteam/pytrec_eval", "src/pytrec_eval.cpp", "evaluate() returns values for run queries found in the qrels only (\"Query not found in relevance judgments; skipping\"); the caller averages that dict"},
				{"terrierteam/pytrec_eval", "setup.py + trec_eval submodule (usnistgov/trec_eval@de6a29f, 9.0.8)", "trec_format.h: float sim, so scores are rounded to float32 before ranking"},
				{"usnistgov/trec_eval@de6a29f", "form_res_rels.c", "ties by docno descending, as 10.0"},
			},
			variant: func(m eval.Measure) (variant, bool) {
				name, uncut, ok := trecName(m)
				return variant{Name: name, Measure: m, UncutRR: uncut, Float32: true, Queries: sharedQueries}, ok
			},
		},
		{
			Name:    "ir_measures 0.4.3",
			Package: "ir-measures",
			Sources: []source{
				{"terrierteam/ir_measures", "ir_measures/__init__.py", "DefaultPipeline: pytrec_eval first, then cwl_eval, compat, pyndeval, judged, msmarco, ..."},
				{"terrierteam/ir_measures", "ir_measures/providers/base.py", "Evaluator.iter_calc yields the measure's default (0) for every qrels query the provider did not score: the mean is over all qrels queries"},
				{"terrierteam/ir_measures", "ir_measures/providers/pytrec_eval_provider.py", "P, R, nDCG, AP, RR (no cutoff), Success go to pytrec_eval (float32 scores, docno descending)"},
				{"terrierteam/ir_measures", "ir_measures/providers/msmarco_provider.py", "RR@k goes to MS MARCO's script: sorted by (-score, doc_id), ties by doc ID ascending, float64 scores"},
			},
			variant: func(m eval.Measure) (variant, bool) {
				if _, _, ok := trecName(m); !ok {
					return variant{}, false
				}
				if m.Name == measurename.RR && m.Cutoff > 0 {
					return variant{Name: m.String() + " (msmarco)", Measure: m, Order: scoreDocAsc}, true
				}
				return variant{Name: m.String() + " (pytrec_eval)", Measure: m, Float32: true}, true
			},
		},
		{
			Name:    "ranx 0.3.21",
			Package: "ranx",
			Sources: []source{
				{"AmenRa/ranx", "ranx/meta/evaluate.py", "check_keys: qrels and run must have the same query IDs (AssertionError) unless make_comparable=True"},
				{"AmenRa/ranx", "ranx/data_structures/common.py", "create_and_sort: each query's docs in insertion (file) order, sorted by numba's np.argsort of -score (quicksort, not stable)"},
				{"numba/numba", "numba/misc/quicksort.py", "the quicksort: median of three, Hoare partition, insertion sort under 15 elements"},
				{"AmenRa/ranx", "ranx/metrics/ndcg.py, recall.py, precision.py, reciprocal_rank.py, average_precision.py, hit_rate.py", "ndcg = Järvelin's linear gain, ideal from the qrels cut at k; mrr@k cut at k; precision divides by k"},
			},
			variant: variantRanx,
		},
		{
			Name:    "BEIR 2.2.0",
			Package: "beir",
			Sources: []source{
				{"beir-cellar/beir", "beir/retrieval/evaluation.py", "evaluate(): ignore_identical_ids=True pops a doc whose ID equals the query ID (in place); NDCG/MAP/Recall/P through pytrec_eval, averaged over the queries pytrec_eval returns, rounded to 5 decimals"},
				{"beir-cellar/beir", "beir/retrieval/custom_metrics.py", "mrr, top_k_accuracy, recall_cap: sorted(..., reverse=True) keeps ties in insertion order; relevant = grade > 0; qrels[query_id] fails with KeyError on a run-only query; the sum is divided by len(qrels); rounded to 5 decimals"},
				{"beir-cellar/beir", "examples/retrieval/evaluation/lexical/evaluate_bm25.py", "evaluate is called before evaluate_custom on the same results, so the custom metrics see the popped results"},
			},
			variant: variantBEIR,
		},
		{
			Name:    "BEIR 2.2.0 R_cap",
			Package: "beir",
			Sources: []source{
				{"beir-cellar/beir", "beir/retrieval/custom_metrics.py", "recall_cap: relevant in the top k / min(R, k); a query without a relevant doc divides by zero (ZeroDivisionError)"},
			},
			variant: func(m eval.Measure) (variant, bool) {
				if m.Name != measurename.R || m.Cutoff == 0 {
					return variant{}, false
				}
				return variant{Name: "R_cap@" + strconv.Itoa(m.Cutoff), Measure: m, Order: scoreStable, DropSelf: true, CapRecall: true,
					RunOnlyFails: true, NoRelevant: failQuery, Round: 5, Raises: "KeyError / ZeroDivisionError"}, true
			},
		},
		{
			Name:    "ragas 0.4.3 (ID-based)",
			Package: "ragas",
			Sources: []source{
				{"explodinggradients/ragas", "src/ragas/metrics/_context_precision.py", "IDBasedContextPrecision: |set(retrieved) ∩ reference| / |set(retrieved)|; NaN when nothing is retrieved"},
				{"explodinggradients/ragas", "src/ragas/metrics/_context_recall.py", "IDBasedContextRecall: |set(reference) ∩ retrieved| / |set(reference)|; NaN without reference IDs"},
				{"explodinggradients/ragas", "src/ragas/dataset_schema.py, src/ragas/utils.py", "EvaluationResult averages with safe_nanmean: NaN samples are left out"},
			},
			variant: variantRagas,
		},
		{
			Name:    "LlamaIndex 0.14.25",
			Package: "llama-index-core",
			Sources: []source{
				{"run-llama/llama_index", "llama-index-core/llama_index/core/evaluation/retrieval/metrics.py", "HitRate, MRR, Precision (÷ |set(retrieved)|), Recall, AP, NDCG (binary gain; ideal over len(expected_ids) positions, not cut at k); every metric raises ValueError when expected or retrieved IDs are empty"},
				{"run-llama/llama_index", "llama-index-core/llama_index/core/evaluation/retrieval/base.py", "RetrieverEvaluator scores the retriever's list as returned (top k, in its order); the caller averages"},
			},
			variant: variantLlama,
		},
		{
			Name:    "LlamaIndex 0.14.25 granular",
			Package: "llama-index-core",
			Sources: []source{
				{"run-llama/llama_index", "llama-index-core/llama_index/core/evaluation/retrieval/metrics.py", "HitRate(use_granular_hit_rate=True): hits / len(expected_ids); MRR(use_granular_mrr=True): Σ 1/rank over the relevant docs retrieved / their number"},
			},
			variant: variantLlamaGranular,
		},
	}
}

// variantRanx: ranx's metric name, @k, its quicksort order and its refusal of differing query
// sets.
func variantRanx(m eval.Measure) (variant, bool) {
	name := compared[m.Name].ranx
	if name == "" {
		return variant{}, false
	}
	if m.Cutoff > 0 {
		name += "@" + strconv.Itoa(m.Cutoff)
	}
	return variant{Name: name, Measure: m, Order: scoreQuicksort, Queries: sameQueries}, true
}

// variantBEIR: pytrec_eval's measures (float32 scores, the queries it returns) or BEIR's custom
// metrics (stable sort, KeyError on a run-only query), with a cutoff, rounded to 5 decimals.
func variantBEIR(m eval.Measure) (variant, bool) {
	t := compared[m.Name]
	if m.Cutoff == 0 || t.beir == "" {
		return variant{}, false
	}
	name := t.beir + "@" + strconv.Itoa(m.Cutoff)
	if t.beirCustom {
		return variant{Name: name, Measure: m, Order: scoreStable, DropSelf: true, RunOnlyFails: true, Round: 5, Raises: "KeyError"}, true
	}
	return variant{Name: name, Measure: m, Float32: true, DropSelf: true, Queries: sharedQueries, Round: 5}, true
}

// variantLlama: LlamaIndex's metrics on the list as returned; precision divides by the
// retrieved, ndcg has binary gains and an uncut ideal.
func variantLlama(m eval.Measure) (variant, bool) {
	v := variant{Name: compared[m.Name].llama, Measure: m, Order: fileOrder, NoRelevant: failQuery, NoRetrieved: failQuery, Raises: "ValueError"}
	switch {
	case v.Name == "":
		return variant{}, false
	case m.Name == measurename.P:
		v.PerRetrieved = true
	case m.Name == measurename.NDCG:
		v.IdealUncut, v.BinaryGain = true, true
	}
	if m.Cutoff > 0 {
		v.Name += fmt.Sprintf(" (top %d)", m.Cutoff)
	}
	return v, true
}

// variantRagas: ragas' ID-based context precision and recall (sets of IDs, NaN samples left
// out), at a cutoff.
func variantRagas(m eval.Measure) (variant, bool) {
	if m.Cutoff == 0 {
		return variant{}, false
	}
	top := fmt.Sprintf(" (top %d)", m.Cutoff)
	switch m.Name {
	case measurename.P:
		return variant{Name: "id_based_context_precision" + top, Measure: m, Order: fileOrder, PerRetrieved: true, NoRetrieved: skipQuery}, true
	case measurename.R:
		return variant{Name: "id_based_context_recall" + top, Measure: m, Order: fileOrder, NoRelevant: skipQuery}, true
	}
	return variant{}, false
}

// variantLlamaGranular: LlamaIndex's granular hit rate (a recall) and MRR.
func variantLlamaGranular(m eval.Measure) (variant, bool) {
	v := variant{Measure: m, Order: fileOrder, NoRelevant: failQuery, NoRetrieved: failQuery, Raises: "ValueError"}
	switch m.Name {
	case measurename.R:
		v.Name = "hit_rate granular"
	case measurename.RR:
		v.Name, v.Granular = "mrr granular", true
	default:
		return variant{}, false
	}
	if m.Cutoff > 0 {
		v.Name += fmt.Sprintf(" (top %d)", m.Cutoff)
	}
	return v, true
}

// CheckMeasure reports a measure the conventions table does not compare: the table compares
// P@k, R@k, nDCG, nDCG@k, RR, RR@k, AP, AP@k and Success@k (compared), without rel= and with
// linear gain.
func CheckMeasure(m eval.Measure) error {
	if err := m.Validate(); err != nil {
		return err
	}
	switch {
	case m.Rel != 0:
		return fmt.Errorf("conventions: %s: rel= is not compared (the tools are compared at their default relevance level, grade >= 1)", m)
	case m.Exp:
		return fmt.Errorf("conventions: %s: exponential gain is not compared (trec_eval and pytrec_eval have none; use nDCG@k)", m)
	}
	t, ok := compared[m.Name]
	switch {
	case !ok || m.Param != "":
		return fmt.Errorf("conventions: %s is not compared; accepted: P@k, R@k, nDCG, nDCG@k, RR, RR@k (MRR@k), AP, AP@k, Success@k", m)
	case t.needsCut && m.Cutoff == 0:
		return fmt.Errorf("conventions: %s needs a cutoff", m)
	}
	return nil
}
