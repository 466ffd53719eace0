package rerank

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/ranklab/ranklab/compare"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/retrieval"
)

// Sweep is a first stage reranked at several depths, evaluated and compared with the first
// stage (see the package doc).
type Sweep struct {
	Rows     []SweepRow     // one a depth, increasing; Rows[0] is depth 0, the first stage
	Measures []eval.Measure // nDCG@K and R@K
	K        int
	// Report compares every depth's run with depth 0's on Measures: one family of
	// (len(Rows) − 1) × 2 comparisons, Holm over it. Runs are named by their tags.
	Report compare.Report
	// Queries is the number of queries with a relevant document (grade ≥ 1) in the qrels: the
	// queries the losses are counted over. Relevant counts their relevant documents, Never those
	// the first stage did not return at all (out of reach at every depth).
	Queries, Relevant, Never int
}

// SweepRow is one depth of a Sweep.
type SweepRow struct {
	Depth  int
	Run    eval.Run
	Result eval.Result // Sweep.Measures over every judged query (a query the run misses scores 0)
	// Ceiling is the first stage's R@Depth: the share of relevant documents among the candidates,
	// the most any reranking of them can put in a top K ≤ Depth (NaN at depth 0).
	Ceiling float64
	// Scored is the mean number of documents the reranker scored per query of the first stage;
	// CPU and Wall are this depth's reranking time per query (CPU: the whole process, −1 where it
	// cannot be read; with a reranker that remembers, as BiEncoder's, only what smaller depths did
	// not compute). Cumulative is the CPU time per query of depths 0..Depth together.
	Scored                float64
	CPU, Wall, Cumulative time.Duration
	// Past counts the relevant documents the first stage ranked past Depth (but returned), and
	// PastQueries the queries with at least one: out of reach of this depth's reranker. Lost
	// counts those of them the sweep's deepest reranking puts in its top K and this depth's run
	// does not, and LostQueries names their queries (byte order): what this depth loses that the
	// deepest one found.
	Past, PastQueries int
	Lost              int
	LostQueries       []string
}

// RunSweep reranks first with r at each depth (in increasing order; depth 0, the first stage,
// is added when missing; a negative or repeated depth is an error) with opt's Mix and Name, and
// evaluates and compares every depth on c's qrels. opt.Depth and opt.Tag are not used.
func RunSweep(c retrieval.Collection, first eval.Run, r Reranker, opt Options, depths ...int) (Sweep, error) {
	if err := opt.validate(); err != nil {
		return Sweep{}, err
	}
	ds := slices.Clone(depths)
	slices.Sort(ds)
	for i, d := range ds {
		if d < 0 {
			return Sweep{}, fmt.Errorf("rerank: depth %d: must be 0 or more", d)
		}
		if i > 0 && d == ds[i-1] {
			return Sweep{}, fmt.Errorf("rerank: depth %d given twice", d)
		}
	}
	if len(ds) == 0 || ds[0] != 0 {
		ds = append([]int{0}, ds...)
	}
	k := opt.K
	if k == 0 {
		k = 10
	}
	sw := Sweep{Measures: []eval.Measure{eval.NDCG(k), eval.Recall(k)}, K: k}
	ev := eval.Options{AllQueries: true}
	ceilings := make([]eval.Measure, 0, len(ds))
	for _, d := range ds[1:] {
		ceilings = append(ceilings, eval.Recall(d))
	}
	ceiling, err := ev.Evaluate(c.Qrels, first, ceilings...)
	if err != nil {
		return Sweep{}, err
	}
	t := newTexts(c)
	nq := max(len(first.Queries), 1)
	var cum time.Duration
	runs := make([]eval.Run, 0, len(ds))
	for _, d := range ds {
		o := opt
		o.Depth, o.Tag = d, ""
		run, cst, err := rerank(t, first, r, o)
		if err != nil {
			return Sweep{}, err
		}
		res, err := ev.Evaluate(c.Qrels, run, sw.Measures...)
		if err != nil {
			return Sweep{}, err
		}
		row := SweepRow{Depth: d, Run: run, Result: res, Ceiling: math.NaN(), Scored: float64(cst.scored) / float64(nq),
			CPU: -1, Wall: cst.wall / time.Duration(nq), Cumulative: -1}
		if d > 0 {
			row.Ceiling = ceiling.Mean(eval.Recall(d))
		}
		if cst.measured {
			row.CPU = cst.cpu / time.Duration(nq)
			cum += row.CPU
			row.Cumulative = cum
		}
		sw.Rows = append(sw.Rows, row)
		runs = append(runs, run)
		if opt.Progress != nil {
			opt.Progress(row)
		}
	}
	sw.losses(c.Qrels, first)
	copt := opt.Compare
	copt.Eval.AllQueries = true
	copt.Baseline = ""
	if sw.Report, err = copt.Runs(c.Qrels, sw.Measures, runs...); err != nil {
		return Sweep{}, err
	}
	return sw, nil
}

// losses fills Queries, Relevant, Never and each row's Past and Lost from the first stage's
// ranks of the relevant documents and the rows' top K.
func (sw *Sweep) losses(qrels eval.Qrels, first eval.Run) {
	deepest := sw.Rows[len(sw.Rows)-1].Run
	for q, judged := range qrels {
		rank := map[string]int{}
		for i, d := range eval.Rank(first.Queries[q]) {
			rank[d.Doc] = i + 1
		}
		best := topK(deepest, q, sw.K)
		var found []string // relevant documents the first stage returned
		rel := 0
		for doc, g := range judged {
			if g < 1 {
				continue
			}
			rel++
			if _, ok := rank[doc]; ok {
				found = append(found, doc)
			} else {
				sw.Never++
			}
		}
		if rel == 0 {
			continue
		}
		sw.Queries++
		sw.Relevant += rel
		for i := range sw.Rows {
			row := &sw.Rows[i]
			top := topK(row.Run, q, sw.K)
			past, lost := 0, 0
			for _, doc := range found {
				if rank[doc] > row.Depth {
					past++
					if best[doc] && !top[doc] {
						lost++
					}
				}
			}
			row.Past += past
			row.Lost += lost
			if past > 0 {
				row.PastQueries++
			}
			if lost > 0 {
				row.LostQueries = append(row.LostQueries, q)
			}
		}
	}
	for i := range sw.Rows {
		slices.Sort(sw.Rows[i].LostQueries)
	}
}

// topK is the set of run's first k documents for query q.
func topK(run eval.Run, q string, k int) map[string]bool {
	ranked := eval.Rank(run.Queries[q])
	top := make(map[string]bool, k)
	for _, d := range ranked[:min(k, len(ranked))] {
		top[d.Doc] = true
	}
	return top
}
