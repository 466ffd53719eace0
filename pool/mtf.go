package pool

import (
	"fmt"

	"github.com/ranklab/ranklab/eval"
)

// mtfStep is one pair the move-to-front replay of a query reached: the run it came from, and
// its grade (Grade is meaningless when Next is true: the pair is not judged yet).
type mtfStep struct {
	Pair
	Run   int  // index of the run in the order given
	Grade int  // the judged grade
	Next  bool // the pair to judge next
}

// MoveToFront returns the move-to-front pool of runs (each limited to its top k; k = 0: whole
// runs) given the grades so far (judged, nil: none): for each query the next pair to judge, as
// the package doc's steps choose it, or none when every pair of the runs' top k is judged.
// Docs with a grade >= relLevel are relevant (relLevel <= 0 means 1). It panics when k < 0.
func MoveToFront(runs []eval.Run, k int, judged eval.Qrels, relLevel int) Pool {
	if k < 0 {
		panic(fmt.Sprintf("pool: depth %d is negative", k))
	}
	p := Pool{Method: "mtf", Depth: k, Runs: names(runs)}
	queries, top := tops(runs, k)
	p.Queries = len(queries)
	for _, q := range queries {
		steps := mtfReplay(top[q], q, judged, relLevel)
		in := map[string]int{} // doc → number of runs with it in their top k
		for _, docs := range top[q] {
			for _, d := range docs {
				in[d]++
			}
		}
		for _, s := range steps {
			p.Runs[s.Run].Top++
			p.Runs[s.Run].Added++
			if in[s.Doc] == 1 {
				p.Runs[s.Run].Unique++
			}
			if s.Next {
				p.Pairs = append(p.Pairs, s.Pair)
			} else {
				p.Judged++
			}
		}
	}
	return p
}

// mtfReplay runs the move-to-front steps of the package doc for query q over lists (each run's
// top docs in rank order, in the order the runs were given; nil for a run without the query)
// with judged as the oracle, and returns every pair it reached: the judged ones in order, then
// the next pair to judge (Next), if any.
func mtfReplay(lists [][]string, q string, judged eval.Qrels, relLevel int) []mtfStep {
	if relLevel <= 0 {
		relLevel = 1
	}
	if len(lists) == 0 {
		return nil
	}
	n := len(lists)
	priority := make([]int, n)
	pos := make([]int, n) // next position to look at in each list
	reached := map[string]bool{}
	// advance moves run i past the docs this query has reached; it reports whether i has a doc left.
	advance := func(i int) bool {
		for pos[i] < len(lists[i]) && reached[lists[i][pos[i]]] {
			pos[i]++
		}
		return pos[i] < len(lists[i])
	}
	// best returns the run with the highest priority and docs left, except skip (-1: none),
	// ties by index; -1 when there is none.
	best := func(skip int) int {
		b := -1
		for i := range n {
			if i != skip && advance(i) && (b < 0 || priority[i] > priority[b]) {
				b = i
			}
		}
		return b
	}
	var steps []mtfStep
	c := best(-1)
	for c >= 0 {
		if !advance(c) {
			c = best(c)
			continue
		}
		doc := lists[c][pos[c]]
		reached[doc] = true
		g, ok := judged[q][doc]
		if !ok || g < 0 {
			return append(steps, mtfStep{Pair: Pair{q, doc}, Run: c, Next: true})
		}
		steps = append(steps, mtfStep{Pair: Pair{q, doc}, Run: c, Grade: g})
		if g >= relLevel {
			continue
		}
		priority[c]--
		if o := best(c); o >= 0 {
			c = o
		}
	}
	return steps
}
