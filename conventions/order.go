package conventions

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/ranklab/ranklab/eval"
)

// docOrder is how a tool puts one query's retrieved docs in order before it cuts them at k.
type docOrder int

const (
	// scoreDocDesc: score descending, ties by doc ID descending in byte order. trec_eval 10.0
	// (usnistgov/trec_eval, form_res_rels.c, comp_sim_docno) and the trec_eval 9.0.8 that
	// pytrec_eval embeds (same function; pytrec_eval's own pre-sort in src/pytrec_eval.cpp,
	// query_document_pair_compare, is overridden by it).
	scoreDocDesc docOrder = iota
	// scoreDocAsc: score descending, ties by doc ID ascending. ir_measures' MS MARCO provider,
	// which serves RR@k (terrierteam/ir_measures, ir_measures/providers/msmarco_provider.py:
	// sorted(run[q].items(), key=lambda x: (-x[1], x[0]))).
	scoreDocAsc
	// scoreStable: score descending, ties kept in the order the docs were given (file order):
	// Python's sorted(..., reverse=True) is stable. BEIR's custom metrics MRR@k, R_cap@k and
	// Accuracy@k (beir-cellar/beir, beir/retrieval/custom_metrics.py).
	scoreStable
	// scoreQuicksort: numba's np.argsort (an unstable quicksort) of the negated scores, the docs
	// entering in file order. ranx builds every Run this way (AmenRa/ranx,
	// ranx/data_structures/common.py: create_and_sort → sort_dict_by_value →
	// typed_list_argosrt); see quicksortArgsort.
	scoreQuicksort
	// fileOrder: not sorted; the docs as the run file lists them. Tools that take a list of
	// retrieved IDs (ragas, LlamaIndex) score the list they are given; ranklab gives them each
	// query's docs in file order, as a user reading the file into lists would.
	fileOrder
)

// String describes the order in a few words, as the reasons print it.
func (o docOrder) String() string {
	switch o {
	case scoreDocDesc:
		return "score, ties by doc ID descending"
	case scoreDocAsc:
		return "score, ties by doc ID ascending"
	case scoreStable:
		return "score, ties in file order (stable sort)"
	case scoreQuicksort:
		return "score, ties in numba quicksort order"
	case fileOrder:
		return "file order (not sorted)"
	}
	return "unknown order"
}

// arrange returns the docs (in file order) in the order o, as a new slice; with float32 the
// scores are first rounded to float32 (trec_eval 9.0.8 stores them as C floats), which can make
// near-equal scores tie. docs is not modified.
func arrange(docs []eval.ScoredDoc, o docOrder, float32Scores bool) []eval.ScoredDoc {
	out := slices.Clone(docs)
	if float32Scores {
		for i := range out {
			out[i].Score = float64(float32(out[i].Score))
		}
	}
	switch o {
	case scoreDocDesc:
		return eval.Rank(out)
	case scoreDocAsc:
		slices.SortFunc(out, func(a, b eval.ScoredDoc) int {
			return cmp.Or(cmp.Compare(b.Score, a.Score), strings.Compare(a.Doc, b.Doc))
		})
	case scoreStable:
		slices.SortStableFunc(out, func(a, b eval.ScoredDoc) int { return cmp.Compare(b.Score, a.Score) })
	case scoreQuicksort:
		keys := make([]float64, len(out))
		for i, d := range out {
			keys[i] = -d.Score
		}
		idx := quicksortArgsort(keys)
		sorted := make([]eval.ScoredDoc, len(out))
		for i, j := range idx {
			sorted[i] = out[j]
		}
		out = sorted
	case fileOrder:
	default:
		panic("conventions: unknown Order")
	}
	return out
}

// smallQuicksort is the span under which numba's quicksort switches to insertion sort.
const smallQuicksort = 15

// quicksortArgsort returns the permutation that numba's np.argsort(keys) (kind "quicksort",
// the default) returns: the indices of keys in ascending order, where equal keys come out in
// an order fixed by the algorithm, not by their positions. The algorithm is the one described
// in numba/numba, numba/misc/quicksort.py (make_quicksort_impl, run_quicksort1): an explicit
// stack of spans; a span of 15 or more elements is partitioned around the median of its first,
// middle and last element (those three are swapped into order first, then the pivot is parked
// at the end), with a Hoare partition that stops on elements equal to the pivot, and the larger
// side is pushed while the smaller is partitioned further; a span under 15 is finished by a
// stable insertion sort. Reproducing it lets ranklab predict ranx's tie order exactly; the peer
// test checks it against ranx itself.
func quicksortArgsort(keys []float64) []int {
	r := make([]int, len(keys))
	for i := range r {
		r[i] = i
	}
	if len(keys) < 2 {
		return r
	}
	less := func(a, b float64) bool { return a < b }
	key := func(i int) float64 { return keys[r[i]] }
	type span struct{ low, high int }
	stack := []span{{0, len(keys) - 1}}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		low, high := s.low, s.high
		for high-low >= smallQuicksort {
			mid := (low + high) >> 1
			if less(key(mid), key(low)) {
				r[low], r[mid] = r[mid], r[low]
			}
			if less(key(high), key(mid)) {
				r[high], r[mid] = r[mid], r[high]
			}
			if less(key(mid), key(low)) {
				r[low], r[mid] = r[mid], r[low]
			}
			pivot := key(mid)
			r[high], r[mid] = r[mid], r[high]
			i, j := low, high-1
			for {
				for i < high && less(key(i), pivot) {
					i++
				}
				for j >= low && less(pivot, key(j)) {
					j--
				}
				if i >= j {
					break
				}
				r[i], r[j] = r[j], r[i]
				i++
				j--
			}
			r[i], r[high] = r[high], r[i]
			if high-i > i-low {
				if high > i {
					stack = append(stack, span{i + 1, high})
				}
				high = i - 1
			} else {
				if i > low {
					stack = append(stack, span{low, i - 1})
				}
				low = i + 1
			}
		}
		for i := low + 1; i <= high; i++ {
			k := r[i]
			v := keys[k]
			j := i
			for j > low && less(v, keys[r[j-1]]) {
				r[j] = r[j-1]
				j--
			}
			r[j] = k
		}
	}
	return r
}

// float32Tie reports whether a and b differ as float64 but are equal as float32.
func float32Tie(a, b float64) bool {
	return a != b && float32(a) == float32(b) && !math.IsNaN(a)
}
