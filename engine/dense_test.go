package engine

import (
	"context"
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/ranklab/ranklab/dense"
	"github.com/ranklab/ranklab/embed"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/fusion"
	"github.com/ranklab/ranklab/internal/sharedtest"
	"github.com/ranklab/ranklab/rag"
	"github.com/ranklab/ranklab/retrieval"
)

// openModel opens all-MiniLM-L6-v2 behind the vector cache, skipping without the model unless
// RANKLAB_ENGINE_TESTS=1.
func openModel(t *testing.T) *embed.Cache {
	t.Helper()
	m, err := embed.Open(embed.Options{})
	if err != nil {
		if os.Getenv("RANKLAB_ENGINE_TESTS") == "1" {
			t.Fatalf("RANKLAB_ENGINE_TESTS=1 but the dense model does not open: %v", err)
		}
		t.Skipf("no dense model: %v", err)
	}
	t.Cleanup(m.Close)
	return &embed.Cache{Inner: m}
}

// recallOfExact is the mean over queries of |got's top k ∩ exact's top k| / |exact's top k|.
func recallOfExact(exact, got eval.Run, k int) float64 {
	sum, n := 0.0, 0
	for q, ex := range exact.Queries {
		ex = eval.Rank(ex)[:min(k, len(ex))]
		if len(ex) == 0 {
			continue
		}
		in := map[string]bool{}
		for _, d := range eval.Rank(got.Queries[q])[:min(k, len(got.Queries[q]))] {
			in[d.Doc] = true
		}
		hit := 0
		for _, d := range ex {
			if in[d.Doc] {
				hit++
			}
		}
		sum += float64(hit) / float64(len(ex))
		n++
	}
	return sum / float64(n)
}

// TestKNNAndHybrid indexes Cranfield with ranklab's own vectors on each engine and holds its HNSW
// search to ranklab's exact search: the same documents get the same cosine (the same vectors),
// recall@10 of the exact top 10 grows with the search width and is near 1 at width 100. The
// engine's hybrid equals ranklab's fusion (CombSUM, no normalisation, weights 1 − w and w) of the
// engine's own BM25 and kNN runs.
func TestKNNAndHybrid(t *testing.T) {
	model := openModel(t)
	coll, err := retrieval.ReadCollection(sharedtest.Path(t, "data", "cranfield"), "test")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ds, err := dense.Build(coll.Docs, model, retrieval.Whole, rag.MaxP)
	if err != nil {
		t.Fatal(err)
	}
	exact, err := ds.Run(coll.Queries, retrieval.RunOptions{Depth: 100, ChunkDepth: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"solr", "opensearch"} {
		t.Run(kind, func(t *testing.T) {
			c := cluster(t, kind)
			ix, err := c.CreateIndex(ctx, "cranfield-vectors", coll.Docs, IndexOptions{Embedder: model, Replace: true})
			if err != nil {
				t.Fatal(err)
			}
			prev := 0.0
			for _, width := range []int{10, 100} {
				r, err := ix.Run(ctx, coll.Queries, RunOptions{Mode: "knn", Depth: 10, Width: width, ChunkDepth: -1})
				if err != nil {
					t.Fatal(err)
				}
				rec := recallOfExact(exact.Docs, r.Docs, 10)
				t.Logf("%s kNN, width %d: recall@10 of the exact top 10 = %.4f", kind, width, rec)
				if rec < prev {
					t.Errorf("width %d: recall %.4f below the narrower search's %.4f", width, rec, prev)
				}
				prev = rec
				if width == 100 {
					if rec < 0.95 {
						t.Errorf("width 100 over 1,398 vectors: recall@10 %.4f, want near 1", rec)
					}
					checkSameCosine(t, exact.Docs, r.Docs)
				}
			}
			// The hybrid against ranklab's fusion of the engine's own two runs.
			const w, width = 0.3, 100
			hyb, err := ix.Run(ctx, coll.Queries, RunOptions{Mode: "hybrid", Weight: w, Depth: 100, Width: width, ChunkDepth: -1})
			if err != nil {
				t.Fatal(err)
			}
			lex, err := ix.Run(ctx, coll.Queries, RunOptions{Mode: "bm25", Depth: len(coll.Docs), ChunkDepth: -1})
			if err != nil {
				t.Fatal(err)
			}
			knn, err := ix.Run(ctx, coll.Queries, RunOptions{Mode: "knn", Depth: width, Width: width, ChunkDepth: -1})
			if err != nil {
				t.Fatal(err)
			}
			for _, docs := range knn.Docs.Queries { // the engine's own kNN score, (1 + cos) / 2
				for i := range docs {
					docs[i].Score = (docs[i].Score + 1) / 2
				}
			}
			fused, err := fusion.Fuse([]eval.Run{lex.Docs, knn.Docs}, fusion.Options{Method: fusion.CombSUM, Weights: []float64{1 - w, w}, Top: 100})
			if err != nil {
				t.Fatal(err)
			}
			if d := diffClose(fused, hyb.Docs, 1e-5); d != "" {
				t.Errorf("%s hybrid differs from ranklab's CombSUM of the engine's two runs: %s", kind, d)
			}
			t.Logf("%s hybrid w=%.1f equals ranklab's fusion of its BM25 and kNN runs (scores within 1e-5)", kind, w)
		})
	}
}

// checkSameCosine: every document both runs return for a query has the same score (cosine)
// within float32 rounding: the engine searches ranklab's own vectors.
func checkSameCosine(t *testing.T, exact, got eval.Run) {
	t.Helper()
	worst := 0.0
	for q, docs := range got.Queries {
		ex := map[string]float64{}
		for _, d := range exact.Queries[q] {
			ex[d.Doc] = d.Score
		}
		for _, d := range docs {
			if s, ok := ex[d.Doc]; ok {
				worst = max(worst, math.Abs(s-d.Score))
			}
		}
	}
	if worst > 1e-5 {
		t.Errorf("the engine's cosine differs from ranklab's by up to %g: not the same vectors", worst)
	}
}

// diffClose is diffScores with a tolerance on scores (relative to the larger) and tied or
// nearly tied documents allowed to swap.
func diffClose(a, b eval.Run, tol float64) string {
	for q, da := range a.Queries {
		db := b.Queries[q]
		if len(da) != len(db) {
			return fmt.Sprintf("query %s: %d docs against %d", q, len(da), len(db))
		}
		sb := map[string]float64{}
		for _, d := range db {
			sb[d.Doc] = d.Score
		}
		last := da[len(da)-1].Score
		for i := range da {
			if math.Abs(da[i].Score-db[i].Score) > tol*max(1, math.Abs(da[i].Score)) {
				return fmt.Sprintf("query %s rank %d: score %v against %v", q, i+1, da[i].Score, db[i].Score)
			}
			s, ok := sb[da[i].Doc]
			if !ok && math.Abs(da[i].Score-last) > tol*max(1, math.Abs(last)) {
				return fmt.Sprintf("query %s: %v missing from the second run", q, da[i])
			}
			if ok && math.Abs(s-da[i].Score) > tol*max(1, math.Abs(s)) {
				return fmt.Sprintf("query %s: %s scores %v against %v", q, da[i].Doc, da[i].Score, s)
			}
		}
	}
	return ""
}
