package engine

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/sharedtest"
	"github.com/ranklab/ranklab/retrieval"
)

// The engine tests start the real engines: one JVM per kind, shared by every test of the
// package (started on first use, stopped by TestMain), and SciFact indexed once per kind and
// shard layout. Without Java or Maven they skip, unless RANKLAB_ENGINE_TESTS=1 (as
// scripts/test-all.sh sets it in CI), where a cluster that does not start fails the test.

var (
	clustersMu sync.Mutex
	clusters   = map[string]*Cluster{}
	startErrs  = map[string]error{}
)

func TestMain(m *testing.M) {
	code := m.Run()
	clustersMu.Lock()
	for _, c := range clusters {
		c.Stop()
	}
	clustersMu.Unlock()
	os.Exit(code)
}

// cluster returns the shared local cluster of kind (2 nodes, so indexes of 2 shards spread over
// two nodes), starting it on first use.
func cluster(t testing.TB, kind string) *Client {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the engine tests run in the full pass")
	}
	if u := os.Getenv("RANKLAB_ENGINE_TEST_" + strings.ToUpper(kind)); u != "" { // a cluster started by hand, for development
		cl, err := Connect(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		return cl
	}
	clustersMu.Lock()
	c, err := clusters[kind], startErrs[kind]
	if c == nil && err == nil {
		t0 := time.Now()
		c, err = Start(context.Background(), Options{Kind: kind, Nodes: 2})
		if err != nil {
			startErrs[kind] = err
		} else {
			clusters[kind] = c
			fmt.Fprintf(os.Stderr, "engine tests: %s with 2 nodes ready at %s in %.1f s\n", kind, c.URL, time.Since(t0).Seconds())
		}
	}
	clustersMu.Unlock()
	if err != nil {
		if os.Getenv("RANKLAB_ENGINE_TESTS") == "1" {
			t.Fatalf("RANKLAB_ENGINE_TESTS=1 but the %s cluster did not start: %v", kind, err)
		}
		t.Skipf("no local %s cluster (set RANKLAB_ENGINE_TESTS=1 to make this a failure): %v", kind, err)
	}
	cl, err := Connect(context.Background(), c.URL)
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

// scifactFixture is SciFact indexed on one engine three ways.
type scifactFixture struct {
	client              *Client
	coll                retrieval.Collection
	one, local2, exact2 *Index
}

var (
	fixturesMu sync.Mutex
	fixtures   = map[string]*scifactFixture{}
)

// scifact returns SciFact (test split) indexed on kind's cluster in one shard, in two shards
// with per-shard statistics and in two shards with distributed statistics.
func scifact(t testing.TB, kind string) *scifactFixture {
	t.Helper()
	cl := cluster(t, kind)
	fixturesMu.Lock()
	defer fixturesMu.Unlock()
	if f := fixtures[kind]; f != nil {
		return f
	}
	coll, err := retrieval.ReadCollection(sharedtest.Path(t, "data", "scifact"), "test")
	if err != nil {
		t.Fatal(err)
	}
	f := &scifactFixture{client: cl, coll: coll}
	ctx := context.Background()
	for _, x := range []struct {
		ix     **Index
		name   string
		shards int
		exact  bool
	}{{&f.one, "scifact-1", 1, false}, {&f.local2, "scifact-2-local", 2, false}, {&f.exact2, "scifact-2-exact", 2, true}} {
		if *x.ix, err = cl.CreateIndex(ctx, x.name, coll.Docs, IndexOptions{Shards: x.shards, ExactStats: x.exact, Replace: true}); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(os.Stderr, "engine tests: %s: %s indexed (%d units) in %.1f s\n", kind, x.name, (*x.ix).Units, (*x.ix).Indexing.Seconds())
	}
	fixtures[kind] = f
	return f
}

// evaluate returns the means of nDCG@10 and R@100 over every qrels query (-c).
func evaluate(t testing.TB, qrels eval.Qrels, run eval.Run) (ndcg, recall float64, res eval.Result) {
	t.Helper()
	res, err := eval.Options{AllQueries: true}.Evaluate(qrels, run, eval.NDCG(10), eval.Recall(100))
	if err != nil {
		t.Fatal(err)
	}
	return res.Mean(eval.NDCG(10)), res.Mean(eval.Recall(100)), res
}

// TestSciFactBM25 holds both engines to Anserini's published BM25 figures on SciFact (nDCG@10
// 0.6789, R@100 0.9253, ../shared/data/README.md) in one shard, and to one shard's scores
// exactly in two shards with distributed statistics; it measures what per-shard statistics
// change.
func TestSciFactBM25(t *testing.T) {
	for _, kind := range []string{"solr", "opensearch"} {
		t.Run(kind, func(t *testing.T) {
			f := scifact(t, kind)
			ctx := context.Background()
			runs := map[string]eval.Run{}
			for name, ix := range map[string]*Index{"1 shard": f.one, "2 shards, per-shard statistics": f.local2, "2 shards, distributed statistics": f.exact2} {
				r, err := ix.Run(ctx, f.coll.Queries, RunOptions{Depth: 100, ChunkDepth: -1, Tag: "bm25"})
				if err != nil {
					t.Fatal(err)
				}
				runs[name] = r.Docs
			}
			ndcg, recall, one := evaluate(t, f.coll.Qrels, runs["1 shard"])
			t.Logf("%s, 1 shard: nDCG@10 %.4f, R@100 %.4f", kind, ndcg, recall)
			if fmt.Sprintf("%.4f %.4f", ndcg, recall) != "0.6789 0.9253" {
				t.Errorf("%s, 1 shard: nDCG@10 %.6f, R@100 %.6f; Anserini's are 0.6789 and 0.9253", kind, ndcg, recall)
			}
			if d := diffScores(runs["1 shard"], runs["2 shards, distributed statistics"]); d != "" {
				t.Errorf("%s: 2 shards with distributed statistics differ from 1 shard: %s", kind, d)
			}
			ndcg2, recall2, local := evaluate(t, f.coll.Qrels, runs["2 shards, per-shard statistics"])
			changed, most := 0, 0.0
			for q, v := range one.PerQuery(eval.NDCG(10)) {
				if d := math.Abs(local.PerQuery(eval.NDCG(10))[q] - v); d > 1e-12 {
					changed++
					most = max(most, d)
				}
			}
			t.Logf("%s, 2 shards, per-shard statistics: nDCG@10 %.4f, R@100 %.4f; nDCG@10 changed for %d of %d queries (at most by %.4f)",
				kind, ndcg2, recall2, changed, len(f.coll.Queries), most)
			if diffScores(runs["1 shard"], runs["2 shards, per-shard statistics"]) == "" {
				t.Errorf("%s: 2 shards with per-shard statistics score exactly as 1 shard: the statistics mode is not in force", kind)
			}
		})
	}
}

// diffScores returns "" when a and b give every query the same scores rank by rank and the same
// documents at every score above the last one kept (documents tied at the cut-off may differ:
// which of them an engine keeps depends on its internal order), else the first difference.
func diffScores(a, b eval.Run) string {
	if len(a.Queries) != len(b.Queries) {
		return fmt.Sprintf("%d queries against %d", len(a.Queries), len(b.Queries))
	}
	for q, da := range a.Queries {
		db := b.Queries[q]
		if len(da) != len(db) {
			return fmt.Sprintf("query %s: %d docs against %d", q, len(da), len(db))
		}
		for i := range da {
			if da[i].Score != db[i].Score {
				return fmt.Sprintf("query %s rank %d: score %v against %v", q, i+1, da[i].Score, db[i].Score)
			}
			if da[i].Doc != db[i].Doc && da[i].Score != da[len(da)-1].Score {
				return fmt.Sprintf("query %s rank %d: %v against %v", q, i+1, da[i], db[i])
			}
		}
	}
	return ""
}
