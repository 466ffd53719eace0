package rerank

import (
	"errors"
	"math"
	"os"
	"testing"

	"github.com/ranklab/ranklab/embed"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/sharedtest"
	"github.com/ranklab/ranklab/retrieval"
)

// minilm returns all-MiniLM-L6-v2 as a BiEncoder behind the tests' vector cache (shared with
// retrieval's and cmd/ranklab's dense tests under make test), skipping when the model is not
// installed unless RANKLAB_PEERS=1 or RANKLAB_DENSE=1 say the set-up ran.
func minilm(t *testing.T) (Reranker, *embed.Cache) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: embedding Cranfield runs in the full pass (about 60 CPU-seconds cold)")
	}
	m, err := embed.Open(embed.Options{})
	if err != nil {
		if errors.Is(err, embed.ErrNotInstalled) && os.Getenv("RANKLAB_PEERS") != "1" && os.Getenv("RANKLAB_DENSE") != "1" {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	c := &embed.Cache{Inner: m, Dir: sharedtest.VectorCache(t)}
	return BiEncoder(c), c
}

// TestMiniLMRerankingEverythingIsDenseRetrieval: a first stage that returns every Cranfield
// document (all scored 0) reranked at full depth by the bi-encoder is exact dense search, so it
// must score what the reference implementation's dense run scores (sentence-transformers with
// torch, ../shared/anchors/dense/README.md): nDCG@10 0.3995 and R@100 0.7724 within ±0.0005.
func TestMiniLMRerankingEverythingIsDenseRetrieval(t *testing.T) {
	b, _ := minilm(t)
	c, err := retrieval.ReadCollection(sharedtest.Path(t, "data", "cranfield"), "test")
	if err != nil {
		t.Fatal(err)
	}
	all := eval.Run{Tag: "all", Queries: map[string][]eval.ScoredDoc{}}
	for _, q := range c.Queries {
		for _, d := range c.Docs {
			all.Queries[q.ID] = append(all.Queries[q.ID], eval.ScoredDoc{Doc: d.ID})
		}
	}
	run, err := Rerank(c, all, b, Options{Depth: len(c.Docs)})
	if err != nil {
		t.Fatal(err)
	}
	res, err := eval.Options{AllQueries: true, Depth: 100}.Evaluate(c.Qrels, run, eval.NDCG(10), eval.Recall(100))
	if err != nil {
		t.Fatal(err)
	}
	for m, want := range map[eval.Measure]float64{eval.NDCG(10): 0.3995, eval.Recall(100): 0.7724} {
		if got := res.Mean(m); math.Abs(got-want) > 0.0005 {
			t.Errorf("%s %.4f, reference %.4f", m, got, want)
		}
	}
}

// TestMiniLMSweepCranfield: BM25 reranked by MiniLM on Cranfield at the sweep's depths. What
// must hold whatever the model: the ceiling is the first stage's R@N; reranking N ≤ K documents
// leaves R@K as it was; the documents past N never grow with N; the deepest reranking loses
// nothing; and the sweep embeds each text once (reranking at 1000 embeds no more than one dense
// run: at most every document and query).
func TestMiniLMSweepCranfield(t *testing.T) {
	b, cache := minilm(t)
	c, err := retrieval.ReadCollection(sharedtest.Path(t, "data", "cranfield"), "test")
	if err != nil {
		t.Fatal(err)
	}
	first, err := retrieval.BM25Run(c, 1000, "bm25")
	if err != nil {
		t.Fatal(err)
	}
	h0, m0 := cache.Hits.Load(), cache.Misses.Load()
	sw, err := RunSweep(c, first, b, Options{Name: "minilm"}, 5, 10, 20, 50, 100, 200, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if n := cache.Hits.Load() - h0 + cache.Misses.Load() - m0; n > int64(len(c.Docs)+len(c.Queries)) {
		t.Errorf("%d texts looked up, more than the %d documents and %d queries", n, len(c.Docs), len(c.Queries))
	}
	ceil, err := eval.Options{AllQueries: true}.Evaluate(c.Qrels, first, eval.Recall(10), eval.Recall(20), eval.Recall(1000))
	if err != nil {
		t.Fatal(err)
	}
	r10 := eval.Recall(10)
	for i, r := range sw.Rows {
		t.Logf("N %4d nDCG@10 %.4f R@10 %.4f ceiling %.4f scored/q %.1f past %d (%d queries) lost %d (%d queries) CPU/q %v",
			r.Depth, r.Result.Mean(eval.NDCG(10)), r.Result.Mean(r10), r.Ceiling, r.Scored, r.Past, r.PastQueries, r.Lost, len(r.LostQueries), r.CPU)
		if r.Depth <= 10 && r.Result.Mean(r10) != sw.Rows[0].Result.Mean(r10) {
			t.Errorf("depth %d changed R@10: %.4f, first stage %.4f", r.Depth, r.Result.Mean(r10), sw.Rows[0].Result.Mean(r10))
		}
		if r.Depth == 20 && r.Ceiling != ceil.Mean(eval.Recall(20)) || r.Depth == 1000 && r.Ceiling != ceil.Mean(eval.Recall(1000)) {
			t.Errorf("depth %d: ceiling %.4f is not the first stage's R@N", r.Depth, r.Ceiling)
		}
		if r.Depth >= 10 && r.Result.Mean(r10) > r.Ceiling+1e-12 {
			t.Errorf("depth %d: R@10 %.4f above the ceiling %.4f", r.Depth, r.Result.Mean(r10), r.Ceiling)
		}
		if i > 0 && r.Past > sw.Rows[i-1].Past {
			t.Errorf("depth %d: %d relevant documents past it, more than past depth %d", r.Depth, r.Past, sw.Rows[i-1].Depth)
		}
	}
	if last := sw.Rows[len(sw.Rows)-1]; last.Lost != 0 || last.Past != 0 {
		t.Errorf("depth 1000 of a 1000-deep run: past %d, lost %d; want 0 and 0", last.Past, last.Lost)
	}
	if sw.Report.Family != 14 {
		t.Errorf("family of %d comparisons, want 7 depths × 2 measures = 14", sw.Report.Family)
	}
}
