package rerank

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ranklab/ranklab/compare"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/retrieval"
)

// Options set a reranking; the zero value replaces the first stage's scores with the
// reranker's, at depth 0 (nothing reranked).
type Options struct {
	// Depth is the number of first-stage candidates reranked per query (Rerank; a sweep sets
	// it per row). 0 keeps the first stage.
	Depth int
	// Mix is the first stage's weight W in the interpolation of min-max normalised scores (see
	// the package doc): 0 replaces the first stage's scores, 1 keeps its order.
	Mix float64
	// Name names the reranker in the runs' tags, <first tag>-<Name><depth>[-mix<W>]; "" means
	// "rerank".
	Name string
	// Tag is Rerank's run tag; "" means the tag Name describes. A sweep always builds tags.
	Tag string

	// K is the sweep's cut-off: nDCG@K, R@K and the losses to the top K; 0 means 10.
	K int
	// Compare sets the sweep's paired tests (seed, draws, level); its Eval.AllQueries is always
	// set: every judged query is compared, a query a run misses scores 0.
	Compare compare.Options
	// Progress, when set, is called after each depth of a sweep with its row, before the losses
	// are counted (they need the deepest depth): a caller can read an embed.Cache's counters per
	// depth, or say how far a long sweep has come.
	Progress func(SweepRow)
}

// validate reports options Rerank cannot use.
func (opt Options) validate() error {
	if opt.Depth < 0 {
		return fmt.Errorf("rerank: depth %d: must be 0 or more", opt.Depth)
	}
	if !(opt.Mix >= 0 && opt.Mix <= 1) {
		return fmt.Errorf("rerank: mix %v: the first stage's weight must be in [0, 1]", opt.Mix)
	}
	if opt.K < 0 {
		return fmt.Errorf("rerank: K %d: must be 1 or more (0 means 10)", opt.K)
	}
	if strings.ContainsAny(opt.Name+opt.Tag, " \t\r\n") {
		return fmt.Errorf("rerank: name %q, tag %q: a run tag has no white space", opt.Name, opt.Tag)
	}
	return nil
}

// tag is the reranked run's tag.
func (opt Options) tag(first string) string {
	if opt.Tag != "" {
		return opt.Tag
	}
	if opt.Depth == 0 && first != "" {
		return first
	}
	name := cmpOr(opt.Name, "rerank")
	t := name + strconv.Itoa(opt.Depth)
	if first != "" {
		t = first + "-" + t
	}
	if opt.Mix != 0 {
		t += "-mix" + strconv.FormatFloat(opt.Mix, 'g', -1, 64)
	}
	return t
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Rerank returns first with each query's first opt.Depth candidates reordered by r (the package
// doc gives the scores). The texts come from c: a query of first that c lacks, or a document
// not in c's corpus, is an error naming it. first is not modified; its queries are reranked in
// byte order of their IDs.
func Rerank(c retrieval.Collection, first eval.Run, r Reranker, opt Options) (eval.Run, error) {
	out, _, err := rerank(newTexts(c), first, r, opt)
	return out, err
}

// texts holds a collection's query and document texts by ID.
type texts struct {
	queries, docs map[string]string
}

func newTexts(c retrieval.Collection) texts {
	t := texts{queries: make(map[string]string, len(c.Queries)), docs: make(map[string]string, len(c.Docs))}
	for _, q := range c.Queries {
		t.queries[q.ID] = q.Text
	}
	for _, d := range c.Docs {
		t.docs[d.ID] = d.DenseText()
	}
	return t
}

// cost is what one reranking spent: the documents given to the reranker and the process's CPU
// and wall time.
type cost struct {
	scored    int
	cpu, wall time.Duration
	measured  bool // false where the CPU time cannot be read
}

// rerank is Rerank with the texts looked up once, returning the cost.
func rerank(t texts, first eval.Run, r Reranker, opt Options) (eval.Run, cost, error) {
	if err := opt.validate(); err != nil {
		return eval.Run{}, cost{}, err
	}
	out := eval.Run{Tag: opt.tag(first.Tag), Queries: make(map[string][]eval.ScoredDoc, len(first.Queries))}
	qids := make([]string, 0, len(first.Queries))
	for q := range first.Queries {
		qids = append(qids, q)
	}
	slices.Sort(qids)
	var c cost
	cpu0, ok := cpuTime()
	wall0 := time.Now()
	if b, isBi := r.(*biEncoder); isBi && opt.Depth > 0 {
		if err := b.prefetch(prefetchTexts(t, first, qids, opt.Depth)); err != nil {
			return eval.Run{}, cost{}, fmt.Errorf("rerank: %w", err)
		}
	}
	for _, q := range qids {
		ranked := eval.Rank(first.Queries[q])
		n := min(opt.Depth, len(ranked))
		if n == 0 {
			out.Queries[q] = ranked
			continue
		}
		qtext, ok := t.queries[q]
		if !ok {
			return eval.Run{}, cost{}, fmt.Errorf("rerank: query %s of run %q is not among the collection's queries", q, first.Tag)
		}
		docs := make([]string, n)
		for i, d := range ranked[:n] {
			if docs[i], ok = t.docs[d.Doc]; !ok {
				return eval.Run{}, cost{}, fmt.Errorf("rerank: document %s (query %s, run %q) is not in the collection's corpus", d.Doc, q, first.Tag)
			}
		}
		s, err := r.Score(qtext, docs)
		if err != nil {
			return eval.Run{}, cost{}, fmt.Errorf("rerank: query %s: %w", q, err)
		}
		if len(s) != n {
			return eval.Run{}, cost{}, fmt.Errorf("rerank: query %s: the reranker gave %d scores for %d documents", q, len(s), n)
		}
		for i, v := range s {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return eval.Run{}, cost{}, fmt.Errorf("rerank: query %s: the reranker scored document %s %v", q, ranked[i].Doc, v)
			}
		}
		out.Queries[q] = eval.Rank(reorder(ranked, n, s, opt.Mix))
		c.scored += n
	}
	c.wall = time.Since(wall0)
	if cpu1, ok1 := cpuTime(); ok && ok1 {
		c.cpu, c.measured = cpu1-cpu0, true
	}
	return out, c, nil
}

// prefetchTexts lists the texts a reranking at depth n scores: each query's text and its first n
// candidates' (those the collection lacks are left to the scoring loop, which names them).
func prefetchTexts(t texts, first eval.Run, qids []string, n int) []string {
	var out []string
	for _, q := range qids {
		qt, ok := t.queries[q]
		if !ok {
			continue
		}
		out = append(out, qt)
		for _, d := range eval.Rank(first.Queries[q])[:min(n, len(first.Queries[q]))] {
			if dt, ok := t.docs[d.Doc]; ok {
				out = append(out, dt)
			}
		}
	}
	return out
}

// reorder returns ranked (in trec_eval's order) with the first n candidates scored from the
// reranker's scores s and the rest shifted below them (the package doc gives both formulas).
func reorder(ranked []eval.ScoredDoc, n int, s []float64, mix float64) []eval.ScoredDoc {
	out := make([]eval.ScoredDoc, len(ranked))
	news := s
	if mix != 0 {
		f := make([]float64, n)
		for i, d := range ranked[:n] {
			f[i] = d.Score
		}
		rs, fs := minMax(s), minMax(f)
		news = make([]float64, n)
		for i := range news {
			news[i] = (1-mix)*rs[i] + mix*fs[i]
		}
	}
	low := math.Inf(1)
	for i, d := range ranked[:n] {
		out[i] = eval.ScoredDoc{Doc: d.Doc, Score: news[i]}
		low = min(low, news[i])
	}
	if n < len(ranked) {
		top := ranked[n].Score
		for i, d := range ranked[n:] {
			out[n+i] = eval.ScoredDoc{Doc: d.Doc, Score: d.Score - top + low - 1}
		}
	}
	return out
}

// minMax returns (x − min x) / (max x − min x) for each x, 0 for all when they are equal.
func minMax(xs []float64) []float64 {
	lo, hi := slices.Min(xs), slices.Max(xs)
	out := make([]float64, len(xs))
	if hi > lo {
		for i, x := range xs {
			out[i] = (x - lo) / (hi - lo)
		}
	}
	return out
}
