package conventions

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ranklab/ranklab/eval"
)

// An aspect is one way a variant can depart from the reference. explain takes the reference
// with this one aspect changed to the variant's and says, from the data, what that changes.
type aspect struct {
	order   bool // the aspect is the order within ties (the reference's own order varies by measure)
	differs func(v variant) bool
	set     func(r *variant, v variant)
	explain func(d *dataset, v variant, base, with outcome) string // "" when nothing changes
}

// explain returns one line per aspect of v that moves the number on this data, in a fixed
// order: query set, score precision, order, dropped docs, formula, rounding. Each aspect is
// measured alone against the reference (trec_eval 10.0 -c); when none moves anything, the
// line says so rather than inventing a cause.
func explain(d *dataset, v variant, o outcome) []string {
	ref := referenceVariant(v.Measure)
	base := ref.evaluate(d)
	var out []string
	for _, a := range aspects {
		if a.differs(v) == a.differs(ref) && !(a.order && v.Order != ref.Order) {
			continue
		}
		r := ref
		a.set(&r, v)
		with := r.evaluate(d)
		if with.err != nil {
			continue
		}
		if line := a.explain(d, r, base, with); line != "" {
			out = append(out, line)
		}
	}
	if len(out) == 0 {
		out = append(out, fmt.Sprintf("differs by %.2g for a reason ranklab does not name (please report it)", o.mean-base.mean))
	}
	return out
}

// changed returns the queries scored by both outcomes whose values differ.
func changed(base, with outcome) []string {
	var qs []string
	for _, q := range with.queries {
		b, ok := base.values[q]
		if ok && math.Abs(b-with.values[q]) > 1e-12 {
			qs = append(qs, q)
		}
	}
	return qs
}

// countQueries prints "1 query" or "N queries".
func countQueries(n int) string {
	if n == 1 {
		return "1 query"
	}
	return strconv.Itoa(n) + " queries"
}

// firstDifference returns the first rank (0-based, below limit; limit 0 = whole list) where
// the two orders put different docs, or -1.
func firstDifference(a, b []eval.ScoredDoc, limit int) int {
	n := min(len(a), len(b))
	if limit > 0 {
		n = min(n, limit)
	}
	for i := 0; i < n; i++ {
		if a[i].Doc != b[i].Doc {
			return i
		}
	}
	return -1
}

func relevantCount(d *dataset, q string) int {
	n := 0
	for _, g := range d.qrels[q] {
		if g >= 1 {
			n++
		}
	}
	return n
}

var aspects = []aspect{
	{ // which queries are averaged
		differs: func(v variant) bool {
			return v.Queries == sharedQueries || v.NoRelevant == skipQuery || v.NoRetrieved == skipQuery
		},
		set: func(r *variant, v variant) {
			r.Queries, r.NoRelevant, r.NoRetrieved = v.Queries, v.NoRelevant, v.NoRetrieved
			if r.Queries != sharedQueries {
				r.Queries = allQrels
			}
			if r.NoRelevant == failQuery {
				r.NoRelevant = scoreZero
			}
			if r.NoRetrieved == failQuery {
				r.NoRetrieved = scoreZero
			}
			r.DropSelf = v.DropSelf // what "retrieves nothing" means depends on the dropped docs
		},
		explain: func(d *dataset, v variant, base, with outcome) string {
			kept := map[string]bool{}
			for _, q := range with.queries {
				kept[q] = true
			}
			var noRanking, noRelevant, nothing []string
			for _, q := range base.queries {
				if kept[q] {
					continue
				}
				_, ranked := d.run.Queries[q]
				switch {
				case !ranked:
					noRanking = append(noRanking, q)
				case relevantCount(d, q) == 0:
					noRelevant = append(noRelevant, q)
				default:
					nothing = append(nothing, q)
				}
			}
			var causes []string
			if len(noRanking) > 0 {
				causes = append(causes, quoteIDs(noRanking)+" "+has(len(noRanking))+" no ranking")
			}
			if len(noRelevant) > 0 {
				causes = append(causes, quoteIDs(noRelevant)+" "+has(len(noRelevant))+" no relevant doc")
			}
			if len(nothing) > 0 {
				causes = append(causes, quoteIDs(nothing)+" "+retrieve(len(nothing))+" nothing once docs are dropped")
			}
			if len(causes) == 0 {
				return ""
			}
			how := "left out"
			if v.NoRelevant == skipQuery || v.NoRetrieved == skipQuery {
				how = "scored NaN, left out by nanmean"
			}
			return fmt.Sprintf("%s: %s, averaged over %d queries, not %d", strings.Join(causes, "; "), how, len(with.queries), len(base.queries))
		},
	},
	{ // scores as float32
		differs: func(v variant) bool { return v.Float32 },
		set:     func(r *variant, v variant) { r.Float32 = true },
		explain: func(d *dataset, v variant, base, with outcome) string {
			qs := changed(base, with)
			if len(qs) == 0 {
				return ""
			}
			q := qs[0]
			ranked := eval.Rank(d.run.Queries[q])
			example := ""
			for i := 1; i < len(ranked); i++ {
				if float32Tie(ranked[i-1].Score, ranked[i].Score) {
					example = fmt.Sprintf("scores %s and %s tie at rank %d", fmtScore(ranked[i-1].Score), fmtScore(ranked[i].Score), i)
					break
				}
			}
			return fmt.Sprintf("scores read as float32 (C float in trec_eval 9.0.8): near-equal scores tie, changing %s (query %q: %s, broken by doc ID)", countQueries(len(qs)), q, example)
		},
	},
	{ // order within ties, or no sorting at all
		order:   true,
		differs: func(v variant) bool { return v.Order != scoreDocDesc },
		set:     func(r *variant, v variant) { r.Order = v.Order },
		explain: func(d *dataset, v variant, base, with outcome) string {
			qs := changed(base, with)
			if len(qs) == 0 {
				return ""
			}
			q := qs[0]
			ref := referenceVariant(v.Measure).ranking(d, q)
			got := v.ranking(d, q)
			i := firstDifference(ref, got, 0)
			where := ""
			if i >= 0 {
				if ref[i].Score == got[i].Score {
					where = fmt.Sprintf("tie at rank %d", i+1)
				} else {
					where = fmt.Sprintf("file order is not score order at rank %d", i+1)
				}
			}
			var what string
			switch v.Order {
			case scoreDocDesc:
				what = "ties broken by doc ID descending, not ascending"
			case scoreDocAsc:
				what = "ties broken by doc ID ascending, not descending"
			case scoreStable:
				what = "ties kept in file order (Python's stable sort), not broken by doc ID"
			case scoreQuicksort:
				what = "ties in numba's quicksort order (ranx), not broken by doc ID"
			case fileOrder:
				what = "the list is taken in file order, not sorted by score with ties by doc ID"
			}
			return fmt.Sprintf("%s: changes %s (query %q: %s)", what, countQueries(len(qs)), q, where)
		},
	},
	{ // docs whose ID is the query's
		differs: func(v variant) bool { return v.DropSelf },
		set:     func(r *variant, v variant) { r.DropSelf = true },
		explain: func(d *dataset, v variant, base, with outcome) string {
			qs := changed(base, with)
			if len(qs) == 0 {
				return ""
			}
			q := qs[0]
			rank := 0
			for i, sd := range eval.Rank(d.run.Queries[q]) {
				if sd.Doc == q {
					rank = i + 1
				}
			}
			return fmt.Sprintf("a doc with the query's own ID is dropped (ignore_identical_ids): changes %s (query %q: doc %q at rank %d)", countQueries(len(qs)), q, q, rank)
		},
	},
	{ // recip_rank not cut at k
		differs: func(v variant) bool { return v.UncutRR },
		set:     func(r *variant, v variant) { r.UncutRR = true },
		explain: func(d *dataset, v variant, base, with outcome) string {
			qs := changed(base, with)
			if len(qs) == 0 {
				return ""
			}
			q := qs[0]
			first := 0
			for i, g := range d.qrels.Grades(q, eval.Rank(d.run.Queries[q])) {
				if g >= level(v.Measure) {
					first = i + 1
					break
				}
			}
			return fmt.Sprintf("recip_rank is not cut at %d: %s %s %s first relevant doc below rank %d (query %q: rank %d)", v.Measure.Cutoff, countQueries(len(qs)), has(len(qs)), verb(len(qs), "its", "their"), v.Measure.Cutoff, q, first)
		},
	},
	{ // recall divided by min(R, k)
		differs: func(v variant) bool { return v.CapRecall },
		set:     func(r *variant, v variant) { r.CapRecall = true },
		explain: func(d *dataset, v variant, base, with outcome) string {
			qs := changed(base, with)
			if len(qs) == 0 {
				return ""
			}
			return fmt.Sprintf("capped at min(R, k): %s %s R > k = %d (query %q: R = %d)", countQueries(len(qs)), has(len(qs)), v.Measure.Cutoff, qs[0], relevantCount(d, qs[0]))
		},
	},
	{ // precision divided by the docs retrieved
		differs: func(v variant) bool { return v.PerRetrieved },
		set:     func(r *variant, v variant) { r.PerRetrieved = true },
		explain: func(d *dataset, v variant, base, with outcome) string {
			qs := changed(base, with)
			if len(qs) == 0 {
				return ""
			}
			return fmt.Sprintf("divides by the docs retrieved, not k = %d: %s %s fewer (query %q: %d)", v.Measure.Cutoff, countQueries(len(qs)), retrieve(len(qs)), qs[0], len(v.ranking(d, qs[0])))
		},
	},
	{ // ideal DCG over all relevant docs
		differs: func(v variant) bool { return v.IdealUncut },
		set:     func(r *variant, v variant) { r.IdealUncut = true },
		explain: func(d *dataset, v variant, base, with outcome) string {
			qs := changed(base, with)
			if len(qs) == 0 {
				return ""
			}
			return fmt.Sprintf("ideal DCG over all R relevant docs, not the first k = %d: %s %s R > k (query %q: R = %d)", v.Measure.Cutoff, countQueries(len(qs)), has(len(qs)), qs[0], relevantCount(d, qs[0]))
		},
	},
	{ // gain 1 for every relevant doc
		differs: func(v variant) bool { return v.BinaryGain },
		set:     func(r *variant, v variant) { r.BinaryGain = true },
		explain: func(d *dataset, v variant, base, with outcome) string {
			qs := changed(base, with)
			if len(qs) == 0 {
				return ""
			}
			top := 0
			for _, g := range d.qrels[qs[0]] {
				top = max(top, g)
			}
			return fmt.Sprintf("gain 1 for every relevant doc, not the grade: %s %s grades above 1 (query %q: up to %d)", countQueries(len(qs)), has(len(qs)), qs[0], top)
		},
	},
	{ // granular MRR
		differs: func(v variant) bool { return v.Granular },
		set:     func(r *variant, v variant) { r.Granular = true },
		explain: func(d *dataset, v variant, base, with outcome) string {
			qs := changed(base, with)
			if len(qs) == 0 {
				return ""
			}
			grades := d.qrels.Grades(qs[0], eval.Rank(d.run.Queries[qs[0]]))
			if k := v.Measure.Cutoff; k > 0 && len(grades) > k {
				grades = grades[:k]
			}
			n := 0
			for _, g := range grades {
				if g >= 1 {
					n++
				}
			}
			in := "the ranking"
			if v.Measure.Cutoff > 0 {
				in = fmt.Sprintf("the top %d", v.Measure.Cutoff)
			}
			return fmt.Sprintf("granular: mean of 1/rank over every relevant doc in %s, not the first one's: changes %s (query %q: %d relevant)", in, countQueries(len(qs)), qs[0], n)
		},
	},
	{ // rounding of the mean
		differs: func(v variant) bool { return v.Round > 0 },
		set:     func(r *variant, v variant) { r.Round = v.Round },
		explain: func(d *dataset, v variant, base, with outcome) string {
			if math.Abs(base.mean-with.mean) <= 1e-15 {
				return ""
			}
			return fmt.Sprintf("the mean is rounded to %d decimals", v.Round)
		},
	},
}

func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func retrieve(n int) string {
	if n == 1 {
		return "retrieves"
	}
	return "retrieve"
}

// fmtScore prints a score in the shortest form that reads back to the same float64.
func fmtScore(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// referenceVariant is the reference convention's variant of m: eval's own rules (RR@k ranks ties
// by doc ID ascending, as ir_measures' msmarco provider does).
func referenceVariant(m eval.Measure) variant {
	v, _ := Conventions()[0].variant(m)
	return v
}
