package rag

import (
	"encoding/gob"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/ranklab/ranklab/eval"
)

// BudgetMeasure is a document measure cut by what a context of Tokens tokens holds rather than
// by a rank: R@512tok, nDCG@512tok, Success@512tok. Like eval.Measure it is a comparable value
// whose String is canonical (it parses back), so it keys a comparison's columns
// (compare.Measure) as eval.Measure does; EvaluateBudgets refuses one whose Name is not R, nDCG
// or Success or whose Tokens is below 1.
//
// With C_B the documents of the B-token context of a query (Context, then each document once at
// the place of its first chunk, so i = 1 is the document of the best chunk in the context), g(d)
// the qrels grade (0 when unjudged or negative), L the relevance level and R the query's number
// of judged documents with grade >= L:
//
//	R@Btok       = #{d ∈ C_B: g(d) >= L} / R                          (0 when R = 0)
//	Success@Btok = 1 if some d ∈ C_B has g(d) >= L, else 0
//	nDCG@Btok    = Σ_{i=1..|C_B|} g(d_i) / log2(i+1)  /  IDCG          (0 when IDCG = 0)
//	IDCG         = Σ_{j=1..n} g_j / log2(j+1) over ALL the query's positive judged grades
//	               sorted descending (trec_eval's uncut ndcg ideal)
//
// They are computed by the evaluator itself (package eval) on the context's document list:
// R@Btok is eval.Recall(0), nDCG@Btok eval.NDCG(0) and Success@Btok eval.Success(B) of
// the context run (a B-token context holds at most B documents, so the cutoff B cuts nothing). The
// ideal of nDCG@Btok does not depend on the budget or the system, so two systems at one budget
// differ by their DCG alone, and every value grows with B.
//
// Truncate changes what a context holds, as RAG systems build one: the first chunk (or whole
// document) that does not fit is cut to the tokens left and taken, and it ends the context; its
// document counts as in the context (document qrels cannot say whether the relevant part was
// cut away). Its String is "nDCG(trunc)@512tok". Without it a chunk counts only when it fits
// whole, so a first document longer than B leaves the context empty.
type BudgetMeasure struct {
	Name     string // "R", "nDCG" or "Success" (eval's names for the measures they apply)
	Tokens   int    // the budget B, at least 1
	Truncate bool   // cut the first chunk that does not fit to the tokens left, instead of stopping
}

// Names of the document budget measures: the evaluator's names of the measures they apply.
var (
	nameR       = eval.Recall(0).Name
	nameNDCG    = eval.NDCG(0).Name
	nameSuccess = eval.Success(1).Name
)

// recallAt returns R@Btok, the share of the relevant documents in a context of tokens tokens.
func recallAt(tokens int) BudgetMeasure { return BudgetMeasure{Name: nameR, Tokens: tokens} }

// NDCGAt returns nDCG@Btok of a context of tokens tokens.
func NDCGAt(tokens int) BudgetMeasure { return BudgetMeasure{Name: nameNDCG, Tokens: tokens} }

// successAt returns Success@Btok: 1 when a context of tokens tokens holds a relevant document.
func successAt(tokens int) BudgetMeasure {
	return BudgetMeasure{Name: nameSuccess, Tokens: tokens}
}

// BudgetMeasures returns nDCG, R and Success at each budget, budget-major.
func BudgetMeasures(budgets ...int) []BudgetMeasure {
	var out []BudgetMeasure
	for _, b := range budgets {
		out = append(out, NDCGAt(b), recallAt(b), successAt(b))
	}
	return out
}

// String returns "R@512tok", "nDCG@512tok" or "Success@512tok", with "(trunc)" after the name
// when Truncate is set: "nDCG(trunc)@512tok".
func (m BudgetMeasure) String() string {
	name := m.Name
	if m.Truncate {
		name += "(trunc)"
	}
	return name + "@" + strconv.Itoa(m.Tokens) + "tok"
}

// validate reports an error when Name is not R, nDCG or Success or Tokens is below 1.
func (m BudgetMeasure) validate() error {
	if m.Name != nameR && m.Name != nameNDCG && m.Name != nameSuccess {
		return fmt.Errorf("budget measure %q: want R, nDCG or Success", m.Name)
	}
	if m.Tokens < 1 {
		return fmt.Errorf("budget measure %s: the budget must be at least 1 token", m)
	}
	return nil
}

// parseBudgetMeasure reads "R@512tok", "nDCG@512tok" or "Success@512tok";
// parseBudgetMeasure(m.String()) == m.
func parseBudgetMeasure(s string) (BudgetMeasure, error) {
	name, rest, ok := strings.Cut(s, "@")
	digits, ok2 := strings.CutSuffix(rest, "tok")
	if !ok || !ok2 {
		return BudgetMeasure{}, fmt.Errorf("budget measure %q: want NAME@Btok, e.g. nDCG@512tok", s)
	}
	b, err := strconv.Atoi(digits)
	if err != nil || strconv.Itoa(b) != digits {
		return BudgetMeasure{}, fmt.Errorf("budget measure %q: %q is not a token count", s, digits)
	}
	trunc := false
	if n, ok := strings.CutSuffix(name, "(trunc)"); ok {
		name, trunc = n, true
	}
	m := BudgetMeasure{Name: name, Tokens: b, Truncate: trunc}
	return m, m.validate()
}

// docMeasure is the evaluator's measure that computes m on the context's document list.
func (m BudgetMeasure) docMeasure() eval.Measure {
	switch {
	case m.Name == nameR:
		return eval.Recall(0)
	case m.Name == nameNDCG:
		return eval.NDCG(0)
	}
	return eval.Success(m.Tokens)
}

// Context returns the chunks a context of budget tokens holds, from one query's chunk ranking
// (any order; it is ranked in trec_eval's order first): walking the ranking, a chunk whose span
// (document, start, end) equals one already taken is dropped at no cost (the deduplicated list);
// every other chunk costs its length, and chunks are taken while the running total stays within
// budget. The walk stops at the first chunk that does not fit, so the context is the longest
// prefix of the deduplicated list whose lengths sum to at most budget: exactly "the first budget
// tokens of the list, a chunk counting only when it fits whole". A first chunk longer than the
// budget leaves the context empty. Overlapping chunks of one document are paid in full, as a
// pipeline that concatenates chunk texts pays for them. It returns an error when a chunk is not
// in m or is listed twice.
func Context(chunks []eval.ScoredDoc, m ChunkMap, budget int) (ids []string, used int, err error) {
	cs, err := resolve("the chunk list", chunks, m)
	if err != nil {
		return nil, 0, err
	}
	taken := contextOf(cs, budget, false)
	ids = make([]string, len(taken))
	for i, c := range taken {
		ids[i] = c.id
		used += c.span.len()
	}
	return ids, used, nil
}

// contextOf is Context on resolved, ranked chunks.
// With truncate, the first chunk that does not fit is cut to the tokens left (its span ends
// there) and taken, and it ends the context.
func contextOf(cs []chunked, budget int, truncate bool) []chunked {
	seen := map[Span]bool{}
	var out []chunked
	used := 0
	for _, c := range cs {
		if seen[c.span] {
			continue
		}
		if c.span.len() > budget-used { // used <= budget: no overflow, whatever the span
			if truncate && budget > used {
				c.span.End = c.span.Start + budget - used
				out = append(out, c)
			}
			break
		}
		seen[c.span] = true
		used += c.span.len()
		out = append(out, c)
	}
	return out
}

// contextRun is the document run of what a context of budget tokens holds, for every query of a
// chunk run: Context, then each document once at the place of its first chunk, the i-th of n
// documents scored n − i (so every evaluator keeps that order). A query whose context is empty
// keeps an empty ranking. It returns an error naming the query and chunk when a chunk is not in m.
func contextRun(run eval.Run, m ChunkMap, budget int, truncate bool) (eval.Run, error) {
	if budget < 1 {
		return eval.Run{}, fmt.Errorf("rag: ContextRun: budget %d: must be at least 1 token", budget)
	}
	out := eval.Run{Tag: run.Tag, Queries: make(map[string][]eval.ScoredDoc, len(run.Queries))}
	for _, q := range slices.Sorted(maps.Keys(run.Queries)) {
		cs, err := resolve(queryName(q), run.Queries[q], m)
		if err != nil {
			return eval.Run{}, err
		}
		out.Queries[q] = positional(firstAppearance(contextOf(cs, budget, truncate)))
	}
	return out, nil
}

// BudgetMeasure values travel through encoding/gob inside a compare.Report (nb.Cache).
func init() { gob.Register(BudgetMeasure{}) }

// BudgetResult holds budget measures per query, laid out as eval.Result (Values[i][j]); Mean looks
// one up by measure.
type BudgetResult struct {
	Tag      string // the run's tag: the run's name in a comparison (Scores)
	Measures []BudgetMeasure
	Queries  []string    // every qrels query, byte order
	Values   [][]float64 // Values[i][j]: query i, measure j
	Means    []float64   // arithmetic mean of each measure over Queries
	Missing  []string    // qrels queries the run has no ranking for (scored 0)
	Ignored  []string    // run queries absent from the qrels (not evaluated)
}

func (r BudgetResult) column(m BudgetMeasure) int {
	if j := slices.Index(r.Measures, m); j >= 0 {
		return j
	}
	panic(fmt.Sprintf("rag: budget measure %s was not evaluated", m))
}

// Mean returns the mean of m over the queries. It panics when m was not evaluated.
func (r BudgetResult) Mean(m BudgetMeasure) float64 { return r.Means[r.column(m)] }

// EvaluateBudgets evaluates a chunk run on document qrels at token budgets: for each budget B of
// the measures, the documents of the B-token context run are evaluated by eval with opt (RelLevel
// applies; Depth must be 0) on every qrels query — a query the run lacks, or whose context is
// empty, scores 0 — and the measures are looked up in the result. Inputs are not modified.
func EvaluateBudgets(qrels eval.Qrels, run eval.Run, m ChunkMap, opt eval.Options, measures ...BudgetMeasure) (BudgetResult, error) {
	if len(measures) == 0 {
		return BudgetResult{}, fmt.Errorf("rag: EvaluateBudgets: no measure")
	}
	if opt.Depth != 0 {
		return BudgetResult{}, fmt.Errorf("rag: EvaluateBudgets: Depth %d: the budget is the cut, Depth must be 0", opt.Depth)
	}
	opt.AllQueries = true
	for _, bm := range measures {
		if err := bm.validate(); err != nil {
			return BudgetResult{}, err
		}
	}
	res := BudgetResult{Tag: run.Tag, Measures: slices.Clone(measures)}
	type context struct {
		tokens   int
		truncate bool
	}
	budgets := map[context][]int{} // context -> measure indices
	for j, bm := range measures {
		k := context{bm.Tokens, bm.Truncate}
		budgets[k] = append(budgets[k], j)
	}
	keys := slices.SortedFunc(maps.Keys(budgets), func(a, b context) int {
		if a.tokens != b.tokens {
			return a.tokens - b.tokens
		}
		if a.truncate == b.truncate {
			return 0
		} else if a.truncate {
			return 1
		}
		return -1
	})
	for _, b := range keys {
		ctx, err := contextRun(run, m, b.tokens, b.truncate)
		if err != nil {
			return BudgetResult{}, err
		}
		var ms []eval.Measure
		for _, j := range budgets[b] {
			ms = append(ms, measures[j].docMeasure())
		}
		er, err := opt.Evaluate(qrels, ctx, ms...)
		if err != nil {
			return BudgetResult{}, err
		}
		if res.Queries == nil {
			res.Queries, res.Missing, res.Ignored = er.Queries, er.Missing, er.Ignored
			res.Values = make([][]float64, len(er.Queries))
			for i := range res.Values {
				res.Values[i] = make([]float64, len(measures))
			}
		}
		for k, j := range budgets[b] {
			col := er.Column(ms[k])
			for i := range col {
				res.Values[i][j] = col[i]
			}
		}
	}
	res.Means = make([]float64, len(measures))
	for j := range measures {
		s := 0.0
		for i := range res.Queries {
			s += res.Values[i][j]
		}
		if len(res.Queries) > 0 {
			res.Means[j] = s / float64(len(res.Queries))
		}
	}
	return res, nil
}
