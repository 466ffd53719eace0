package fusion

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/ranklab/ranklab/eval"
)

// Method is how the (normalised) per-run values of a document are combined.
type Method int

const (
	// RRF is reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009): each run gives a
	// document w_i / (k + rank_i(d)), and the fused score is the sum over the runs that hold the
	// document. Ranks only; scores play no part (Norm must be the zero value, none).
	RRF Method = iota
	// CombSUM (Fox & Shaw, TREC-2 1993) sums the runs' normalised scores w_i · x_i(d) over the
	// runs that hold the document. With weights other than 1 it is the weighted sum.
	CombSUM
	// CombMNZ (Fox & Shaw 1993) is CombSUM multiplied by the number of runs that hold the
	// document.
	CombMNZ
)

// String returns "rrf", "combsum" or "combmnz".
func (m Method) String() string {
	switch m {
	case RRF:
		return "rrf"
	case CombSUM:
		return "combsum"
	case CombMNZ:
		return "combmnz"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// Norm is how one run's scores for one query are put on a common scale before CombSUM or
// CombMNZ. With s the document's score, the query's n documents of the run (after Depth), their
// minimum, maximum, mean μ = Σ s / n and population standard deviation σ = sqrt(Σ (s − μ)² / n),
// and rank(d) its place in trec_eval's order (1 = first):
//
//	none    x = s           (the zero value)
//	MinMax  x = (s − min) / max(max − min, 1e-9)
//	ZScore  x = (s − μ) / max(σ, 1e-9)
//	Rank    x = 1 − (rank(d) − 1) / n
//
// The 1e-9 floor is ranx's (0.3.21): a query whose scores are all equal normalises to 0 under
// MinMax and ZScore rather than dividing by zero.
type Norm int

const (
	noNorm Norm = iota // "none", the zero value
	MinMax
	ZScore
	Rank
)

// String returns "none", "minmax", "zscore" or "rank".
func (n Norm) String() string {
	switch n {
	case noNorm:
		return "none"
	case MinMax:
		return "minmax"
	case ZScore:
		return "zscore"
	case Rank:
		return "rank"
	}
	return fmt.Sprintf("Norm(%d)", int(n))
}

// DefaultK is RRF's k of Cormack et al. 2009, the value Options.K = 0 stands for.
const DefaultK = 60

// floor is ranx's smallest denominator of MinMax and ZScore.
const floor = 1e-9

// Options configure Fuse. The zero value is RRF with k = 60, every weight 1, every document of
// every run, all fused documents kept, tag "fused".
type Options struct {
	Method  Method
	Norm    Norm      // CombSUM and CombMNZ only; zero value: none; RRF refuses any other
	K       float64   // RRF's k; 0 means DefaultK (60); must not be negative
	Weights []float64 // one per run, finite; nil means 1 for every run
	Depth   int       // each input ranking is cut to its first Depth documents first; 0 keeps all
	Top     int       // each fused ranking keeps its first Top documents; 0 keeps all
	Tag     string    // tag of the fused run; "" means "fused"
}

// Fuse combines runs query by query. For query q, run i ranks its documents in trec_eval's order
// (eval.Rank: score descending, then doc ID descending), cut to Depth; rank_i(d) counts from 1.
// With w_i the run's weight, x_i(d) its normalised score (Norm) and H(d) the runs whose ranking of
// q holds d:
//
//	RRF      F(d) = Σ_{i ∈ H(d)} w_i / (k + rank_i(d))
//	CombSUM  F(d) = Σ_{i ∈ H(d)} w_i · x_i(d)
//	CombMNZ  F(d) = |H(d)| · Σ_{i ∈ H(d)} w_i · x_i(d)
//
// summed in the order of runs. A document missing from a run contributes nothing to its sum
// (and does not count in |H(d)|); a query missing from a run is fused from the other runs. The
// queries of the fused run are the union of the runs' queries. Its documents are ranked in
// trec_eval's order, so tied fused scores are ordered by doc ID descending, as trec_eval will
// read them; scores are kept at full float64 precision (eval.WriteRun writes the shortest form
// that reads back exactly).
//
// It returns an error for fewer than 2 runs, an invalid method, norm, k, weight, depth or top,
// a norm with RRF, a score that is not finite or a document listed twice for one query of a run
// (naming the run by its index and the query). The runs are not modified.
func Fuse(runs []eval.Run, opt Options) (eval.Run, error) {
	if err := opt.check(len(runs)); err != nil {
		return eval.Run{}, err
	}
	k := opt.K
	if k == 0 {
		k = DefaultK
	}
	tag := opt.Tag
	if tag == "" {
		tag = "fused"
	}
	queries := map[string]bool{}
	for i, r := range runs {
		for q, docs := range r.Queries {
			queries[q] = true
			if err := checkDocs(docs); err != nil {
				return eval.Run{}, fmt.Errorf("fusion: run %d, query %q: %v", i+1, q, err)
			}
		}
	}
	out := eval.Run{Tag: tag, Queries: make(map[string][]eval.ScoredDoc, len(queries))}
	for _, q := range slices.Sorted(maps.Keys(queries)) {
		sum := map[string]float64{}
		hits := map[string]int{}
		for i, r := range runs {
			docs, ok := r.Queries[q]
			if !ok {
				continue
			}
			ranked := eval.Rank(docs)
			if opt.Depth > 0 && len(ranked) > opt.Depth {
				ranked = ranked[:opt.Depth]
			}
			w := 1.0
			if opt.Weights != nil {
				w = opt.Weights[i]
			}
			x := values(ranked, opt.Method, opt.Norm, k)
			for j, d := range ranked {
				sum[d.Doc] += w * x[j]
				hits[d.Doc]++
			}
		}
		fused := make([]eval.ScoredDoc, 0, len(sum))
		for doc, s := range sum {
			if opt.Method == CombMNZ {
				s *= float64(hits[doc])
			}
			fused = append(fused, eval.ScoredDoc{Doc: doc, Score: s})
		}
		fused = eval.Rank(fused)
		if opt.Top > 0 && len(fused) > opt.Top {
			fused = fused[:opt.Top:opt.Top]
		}
		out.Queries[q] = fused
	}
	return out, nil
}

// values returns each ranked document's contribution before weighting: 1/(k + rank) for RRF,
// the normalised score otherwise.
func values(ranked []eval.ScoredDoc, m Method, n Norm, k float64) []float64 {
	x := make([]float64, len(ranked))
	if m == RRF {
		for j := range ranked {
			x[j] = 1 / (k + float64(j+1))
		}
		return x
	}
	switch n {
	case noNorm:
		for j, d := range ranked {
			x[j] = d.Score
		}
	case MinMax:
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, d := range ranked {
			lo, hi = min(lo, d.Score), max(hi, d.Score)
		}
		den := max(hi-lo, floor)
		for j, d := range ranked {
			x[j] = (d.Score - lo) / den
		}
	case ZScore:
		mu := 0.0
		for _, d := range ranked {
			mu += d.Score
		}
		mu /= float64(len(ranked))
		ss := 0.0
		for _, d := range ranked {
			ss += (d.Score - mu) * (d.Score - mu)
		}
		den := max(math.Sqrt(ss/float64(len(ranked))), floor)
		for j, d := range ranked {
			x[j] = (d.Score - mu) / den
		}
	case Rank:
		n := float64(len(ranked))
		for j := range ranked {
			x[j] = 1 - float64(j)/n
		}
	}
	return x
}

func (opt Options) check(runs int) error {
	switch {
	case runs < 2:
		return fmt.Errorf("fusion: need at least 2 runs, got %d", runs)
	case opt.Method < RRF || opt.Method > CombMNZ:
		return fmt.Errorf("fusion: invalid %v", opt.Method)
	case opt.Norm < noNorm || opt.Norm > Rank:
		return fmt.Errorf("fusion: invalid %v", opt.Norm)
	case opt.Method == RRF && opt.Norm != noNorm:
		return fmt.Errorf("fusion: rrf uses ranks only; normalisation %v applies to combsum and combmnz", opt.Norm)
	case opt.K < 0 || math.IsNaN(opt.K) || math.IsInf(opt.K, 0):
		return fmt.Errorf("fusion: k = %v: want a finite k >= 0 (0 means %d)", opt.K, DefaultK)
	case opt.Depth < 0 || opt.Top < 0:
		return fmt.Errorf("fusion: depth %d, top %d: want 0 (all) or more", opt.Depth, opt.Top)
	case opt.Weights != nil && len(opt.Weights) != runs:
		return fmt.Errorf("fusion: %d weights for %d runs", len(opt.Weights), runs)
	}
	for i, w := range opt.Weights {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return fmt.Errorf("fusion: weight %d is %v, not a finite number", i+1, w)
		}
	}
	return nil
}

// checkDocs refuses non-finite scores and a document listed twice.
func checkDocs(docs []eval.ScoredDoc) error {
	seen := make(map[string]bool, len(docs))
	for _, d := range docs {
		if math.IsNaN(d.Score) || math.IsInf(d.Score, 0) {
			return fmt.Errorf("document %q: score %v is not finite", d.Doc, d.Score)
		}
		if seen[d.Doc] {
			return fmt.Errorf("document %q listed twice", d.Doc)
		}
		seen[d.Doc] = true
	}
	return nil
}
