package pool

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/ranklab/ranklab/eval"
)

// Pair is one query–document pair to judge.
type Pair struct {
	Query, Doc string
}

// contribution is what one run brings to a pool (see the package doc for each count).
type contribution struct {
	Run    string
	Top    int // new pairs in the run's top k (MTF: pairs taken from the run)
	Unique int // of those, pairs no other run has in its top k
	Added  int // of those, pairs no run given before it has in its top k (MTF: = Top)
}

// Pool is a pool of pairs to judge, in judging order, with each run's contribution (in the
// order the runs were given).
type Pool struct {
	Method  string // "depth" or "mtf"
	Depth   int    // k (0: whole runs)
	Pairs   []Pair
	Runs    []contribution
	Queries int // queries some run ranks
	Judged  int // pairs of those queries already judged (grade >= 0) in the top k of some run
}

// tops returns, for every query some run ranks (byte order), each run's top k docs in rank
// order (nil for a run without the query).
func tops(runs []eval.Run, k int) (queries []string, top map[string][][]string) {
	top = map[string][][]string{}
	for i, r := range runs {
		for q, docs := range r.Queries {
			if top[q] == nil {
				top[q] = make([][]string, len(runs))
				queries = append(queries, q)
			}
			ranked := eval.Rank(docs)
			if k > 0 && len(ranked) > k {
				ranked = ranked[:k]
			}
			ids := make([]string, len(ranked))
			for j, d := range ranked {
				ids[j] = d.Doc
			}
			top[q][i] = ids
		}
	}
	slices.Sort(queries)
	return queries, top
}

// isJudged reports whether judged gives doc a grade >= 0 for query q.
func isJudged(judged eval.Qrels, q, doc string) bool {
	g, ok := judged[q][doc]
	return ok && g >= 0
}

// names returns the runs' names: Name, else the run's tag, else "run N".
func names(runs []eval.Run) []contribution {
	out := make([]contribution, len(runs))
	for i, r := range runs {
		out[i].Run = r.Tag
		if out[i].Run == "" {
			out[i].Run = fmt.Sprintf("run %d", i+1)
		}
	}
	return out
}

// Depth returns the depth-k pool of runs less the pairs judged gives a grade >= 0 (nil: none
// judged), with each run's contribution; k = 0 pools whole runs. It panics when k < 0 (a caller
// bug).
func Depth(runs []eval.Run, k int, judged eval.Qrels) Pool {
	if k < 0 {
		panic(fmt.Sprintf("pool: depth %d is negative", k))
	}
	p := Pool{Method: "depth", Depth: k, Runs: names(runs)}
	queries, top := tops(runs, k)
	p.Queries = len(queries)
	for _, q := range queries {
		type entry struct {
			doc       string
			rank, run int   // best rank (0-based), the first run with it at that rank
			in        []int // the runs that have it in their top k
		}
		byDoc := map[string]*entry{}
		var entries []*entry
		for i, docs := range top[q] {
			for rank, d := range docs {
				e := byDoc[d]
				if e == nil {
					e = &entry{doc: d, rank: rank, run: i}
					byDoc[d] = e
					entries = append(entries, e)
				} else if rank < e.rank {
					e.rank, e.run = rank, i
				}
				if len(e.in) == 0 || e.in[len(e.in)-1] != i { // a doc listed twice by one run counts once
					e.in = append(e.in, i)
				}
			}
		}
		slices.SortFunc(entries, func(a, b *entry) int {
			return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.run, b.run), cmp.Compare(a.doc, b.doc))
		})
		for _, e := range entries {
			if isJudged(judged, q, e.doc) {
				p.Judged++
				continue
			}
			p.Pairs = append(p.Pairs, Pair{q, e.doc})
			for _, i := range e.in {
				p.Runs[i].Top++
			}
			if len(e.in) == 1 {
				p.Runs[e.in[0]].Unique++
			}
			p.Runs[e.in[0]].Added++ // e.in is in the order the runs were given
		}
	}
	return p
}
