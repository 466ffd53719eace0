package ppi

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// coverage is what Simulate finds for one way of estimating: how often its interval held the
// truth, and how wide it was on average.
type coverage struct {
	Covered float64 // the share of draws whose interval holds the truth
	Width   float64 // the mean of High − Low over the draws
}

// Simulation is what Simulate finds.
type Simulation struct {
	Truth             float64 // the mean of truth over every query
	Level             float64
	Draws, Queries, N int      // draws; human-judged queries per draw; queries per collection
	PPI, Classic      coverage // Mean (λ tuned) and meanLambda with λ = 1
	Naive, HumanOnly  coverage // CLT of the automatic values of the collection; of the human sample
	EquivalentQueries float64  // human-only queries for the width of PPI: n·(HumanOnly.Width/PPI.Width)²
}

// pcgStream is the second PCG seed word, the one packages stats and agree use.
const pcgStream = 0x9e3779b97f4a7c15

// Simulate checks the intervals' coverage where the truth is known: truth[i] and auto[i] are a
// query's measure under complete human judgments and under the automatic judge, and the queries
// stand for the population of queries. Each of draws draws builds a collection of N = len(truth)
// queries drawn with replacement (the automatic values of all of them are the unlabeled set),
// gives n of them, chosen at random, human labels, and computes the PPI, naive and human-only
// intervals of the mean at level; an interval covers when it holds the mean of truth. Randomness
// comes from PCG(seed, 0x9e3779b97f4a7c15). It panics when the lengths differ, n is not in
// [2, len(truth)], draws < 1 or level is not in (0, 1).
func Simulate(truth, auto []float64, n, draws int, level float64, seed uint64) Simulation {
	N := len(truth)
	if len(auto) != N {
		panic(fmt.Sprintf("ppi: %d true values against %d automatic ones", N, len(auto)))
	}
	if n < 2 || n >= N || draws < 1 {
		panic(fmt.Sprintf("ppi: %d human queries of %d, %d draws", n, N, draws))
	}
	checkLevel(level)
	s := Simulation{Truth: mean(truth), Level: level, Draws: draws, Queries: n, N: N}
	r := rand.New(rand.NewPCG(seed, pcgStream))
	coll := make([]int, N)
	unl := make([]float64, N-n)
	y, yh := make([]float64, n), make([]float64, n)
	tally := func(c *coverage, iv Interval) {
		if iv.Low <= s.Truth && s.Truth <= iv.High {
			c.Covered++
		}
		c.Width += iv.High - iv.Low
	}
	all := make([]float64, N)
	for range draws {
		for i := range coll {
			coll[i] = r.IntN(N)
			all[i] = auto[coll[i]]
		}
		// People judge n positions of the collection, chosen at random; the judge alone the rest.
		perm := r.Perm(N)
		for k, p := range perm[:n] {
			y[k], yh[k] = truth[coll[p]], auto[coll[p]]
		}
		for k, p := range perm[n:] {
			unl[k] = auto[coll[p]]
		}
		tally(&s.PPI, Mean(y, yh, unl, level))
		tally(&s.Classic, meanLambda(y, yh, unl, level, 1))
		tally(&s.Naive, CLT(all, level))
		tally(&s.HumanOnly, CLT(y, level))
	}
	for _, c := range []*coverage{&s.PPI, &s.Classic, &s.Naive, &s.HumanOnly} {
		c.Covered /= float64(draws)
		c.Width /= float64(draws)
	}
	s.EquivalentQueries = math.NaN()
	if s.PPI.Width > 0 {
		ratio := s.HumanOnly.Width / s.PPI.Width
		s.EquivalentQueries = float64(n) * ratio * ratio
	}
	return s
}
