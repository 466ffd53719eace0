package compare

import (
	"slices"
	"sort"

	"github.com/ranklab/ranklab/stats"
)

// compactLetters gives each of m systems a string of letters such that two systems share a
// letter exactly when their pair is not significant (P > alpha in pairs): the compact letter
// display, built with Piepho's (2004) insert-and-absorb algorithm. Start with one group holding
// every system; for each significant pair, split every group holding both into one without
// either member of the pair; drop any group contained in another. Letters go to the groups in
// the order of their best system by mean (means[j] descending), so the best system has "a".
// pairs come from stats.TukeyHSD or stats.RandomizedTukey (AllPairs.Pairs).
func compactLetters(means []float64, pairs []stats.Pair, alpha float64) []string {
	m := len(means)
	all := make([]bool, m)
	for j := range all {
		all[j] = true
	}
	groups := [][]bool{all}
	for _, p := range pairs {
		if p.P > alpha {
			continue
		}
		var next [][]bool
		for _, g := range groups {
			if !g[p.A] || !g[p.B] {
				next = append(next, g)
				continue
			}
			ga, gb := slices.Clone(g), slices.Clone(g)
			ga[p.B], gb[p.A] = false, false // ga keeps A, gb keeps B
			next = append(next, ga, gb)
		}
		groups = absorb(next)
	}
	order := make([]int, m) // systems by mean, best first (ties by index)
	for j := range order {
		order[j] = j
	}
	sort.SliceStable(order, func(a, b int) bool { return means[order[a]] > means[order[b]] })
	rank := make([]int, m)
	for r, j := range order {
		rank[j] = r
	}
	first := func(g []bool) int {
		best := m
		for j, in := range g {
			if in && rank[j] < best {
				best = rank[j]
			}
		}
		return best
	}
	sort.SliceStable(groups, func(a, b int) bool { return first(groups[a]) < first(groups[b]) })
	out := make([]string, m)
	for k, g := range groups {
		letter := string(rune('a' + k%26))
		if k >= 26 {
			letter = string(rune('A'+k/26-1)) + letter
		}
		for j, in := range g {
			if in {
				out[j] += letter
			}
		}
	}
	return out
}

// absorb drops every group contained in another (and all but one of equal groups).
func absorb(groups [][]bool) [][]bool {
	var out [][]bool
	for a, g := range groups {
		keep := true
		for b, h := range groups {
			if a != b && subset(g, h) && (!subset(h, g) || b < a) {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, g)
		}
	}
	return out
}

// subset reports whether every member of g is in h.
func subset(g, h []bool) bool {
	for j, in := range g {
		if in && !h[j] {
			return false
		}
	}
	return true
}
