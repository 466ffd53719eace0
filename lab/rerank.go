package lab

import (
	"cmp"
	"fmt"
	"slices"
)

// RerankOrder returns the ranking after prefix reranking: order[i] is the index in candidates
// (the first-stage ranking) of the item at rank i+1. The first depth candidates are reordered by
// RerankScore descending, equal reranker scores keeping their first-stage order; the candidates
// beyond depth keep their first-stage order, and nothing outside the list can enter. depth 0
// keeps the first-stage order. candidates is not modified. RerankOrder panics when depth is
// outside 0..len(candidates) (State.Validate reports that as an error first).
func RerankOrder(candidates []Candidate, depth int) []int {
	if depth < 0 || depth > len(candidates) {
		panic(fmt.Sprintf("lab: RerankOrder: depth %d outside 0..%d", depth, len(candidates)))
	}
	order := make([]int, len(candidates))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order[:depth], func(a, b int) int {
		return cmp.Compare(candidates[b].RerankScore, candidates[a].RerankScore)
	})
	return order
}
