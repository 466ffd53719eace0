package engine

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/sharedtest"
	"github.com/ranklab/ranklab/rag"
	"github.com/ranklab/ranklab/retrieval"
)

// TestChunkedBM25 indexes Cranfield on each engine in chunks of 128 cl100k_base tokens
// overlapping by 32 and holds the chunked path to what ranklab computes without the engine code:
//
//   - the Index's chunk map is the in-process searcher's (retrieval.Build's own chunker), the
//     engine counts every chunk of it, and every chunk of the chunk run is in it;
//   - the document run is rag.DocRun of the engine's own chunk run, document for document and
//     score for score, for MaxP and for FirstP;
//   - the engine holds the in-process chunks' texts: a one-word query matches the same chunks
//     on the engine and in-process (both analyzers keep these words and stem them alike);
//   - in one shard, the engine's MaxP nDCG@10 and R@100 are within 0.02 of in-process chunked
//     BM25 on the same chunks: the analyzers differ (Lucene's EnglishAnalyzer, bleve's), and on
//     whole documents the gap is 0.0079 and 0.0188 (0.3654 / 0.7224 against 0.3733 / 0.7412);
//   - two shards with distributed statistics give one shard's chunk and document runs score for
//     score (a document's chunks are routed to one shard, so collapsing them is exact), and the
//     two engines give the same document run.
func TestChunkedBM25(t *testing.T) {
	coll, err := retrieval.ReadCollection(sharedtest.Path(t, "data", "cranfield"), "test")
	if err != nil {
		t.Fatal(err)
	}
	ch := retrieval.Chunking{Chunk: 128, Overlap: 32}
	s, err := retrieval.Build(coll, ch, retrieval.Anserini, rag.MaxP)
	if err != nil {
		t.Fatal(err)
	}
	want := s.ChunkMap()
	const depth, chunkDepth, tol = 100, 1000, 0.02
	in := s.Run(coll.Queries, retrieval.RunOptions{Depth: depth, ChunkDepth: -1})
	inNDCG, inRecall, _ := evaluate(t, coll.Qrels, in.Docs)
	ctx := context.Background()
	docRuns := map[string]eval.Run{}
	for _, kind := range []string{"solr", "opensearch"} {
		t.Run(kind, func(t *testing.T) {
			c := cluster(t, kind)
			ix, err := c.CreateIndex(ctx, "cranfield-chunks-128-32", coll.Docs, IndexOptions{Chunking: ch, Replace: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d chunks of %d documents (%s) indexed in %.1f s", kind, ix.Units, len(coll.Docs), ch, ix.Indexing.Seconds())

			// The chunk map is the in-process one, and the engine holds every chunk of it.
			got, err := ix.ChunkMap("bm25")
			if err != nil {
				t.Fatal(err)
			}
			if d := diffMaps(want, got); d != "" {
				t.Errorf("%s: the Index's chunk map differs from retrieval.Build's: %s", kind, d)
			}
			if ix.Units != len(want) {
				t.Errorf("%s: the engine counts %d units, retrieval.Build cut %d chunks", kind, ix.Units, len(want))
			}

			// The document run is rag's aggregation of the engine's own chunk run.
			runs := map[rag.Aggregation]retrieval.Runs{}
			for _, agg := range []rag.Aggregation{rag.MaxP, rag.FirstP} {
				r, err := ix.Run(ctx, coll.Queries, RunOptions{Depth: depth, ChunkDepth: chunkDepth, Aggregation: agg, Tag: "bm25-128"})
				if err != nil {
					t.Fatal(err)
				}
				runs[agg] = r
				for q, cs := range r.Chunks.Queries {
					for _, c := range cs {
						if _, ok := want[c.Doc]; !ok {
							t.Fatalf("%s: query %s: chunk %q of the chunk run is not in the chunk map", kind, q, c.Doc)
						}
					}
				}
				docs, err := rag.DocRun(r.Chunks, want, agg)
				if err != nil {
					t.Fatal(err)
				}
				checked, total, d := diffAggregated(r.Docs, docs, r.Chunks, depth, chunkDepth)
				if d != "" {
					t.Errorf("%s %s: the document run is not rag.DocRun of the chunk run: %s", kind, agg.Label(), d)
				} else if checked < total {
					t.Errorf("%s %s: %d chunks decide %d of the document run's %d ranks: raise chunkDepth", kind, agg.Label(), chunkDepth, checked, total)
				}
				t.Logf("%s %s: document run = rag.DocRun(chunk run) at all %d ranks (%d queries)", kind, agg.Label(), total, len(r.Docs.Queries))
			}

			// The same chunk texts: a word matches the same chunks on the engine and in-process.
			for _, word := range []string{"boundary", "supersonic", "flutter", "heat", "cone", "wing"} {
				q := []retrieval.Query{{ID: word, Text: word}}
				e, err := ix.Run(ctx, q, RunOptions{Depth: 1, ChunkDepth: len(want)})
				if err != nil {
					t.Fatal(err)
				}
				p := s.Run(q, retrieval.RunOptions{Depth: 1, ChunkDepth: len(want)})
				a, b := chunkSet(e.Chunks.Queries[word]), chunkSet(p.Chunks.Queries[word])
				if !slices.Equal(a, b) {
					t.Errorf("%s: %q matches %d chunks on the engine and %d in-process (not the same): the engine holds other texts", kind, word, len(a), len(b))
				}
			}

			// Against in-process chunked BM25.
			r := runs[rag.MaxP]
			ndcg, recall, _ := evaluate(t, coll.Qrels, r.Docs)
			t.Logf("%s, 1 shard, %s MaxP: nDCG@10 %.4f, R@100 %.4f; in-process %.4f, %.4f (Δ %+.4f, %+.4f)",
				kind, ch, ndcg, recall, inNDCG, inRecall, ndcg-inNDCG, recall-inRecall)
			if math.Abs(ndcg-inNDCG) > tol || math.Abs(recall-inRecall) > tol {
				t.Errorf("%s: chunked nDCG@10 %.4f, R@100 %.4f; in-process %.4f, %.4f: more than %.2f apart (whole documents: 0.0079, 0.0188)",
					kind, ndcg, recall, inNDCG, inRecall, tol)
			}
			docRuns[kind] = r.Docs

			// Two shards with distributed statistics: one shard's runs, score for score.
			ix2, err := c.CreateIndex(ctx, "cranfield-chunks-128-32-2", coll.Docs, IndexOptions{Chunking: ch, Shards: 2, ExactStats: true, Replace: true})
			if err != nil {
				t.Fatal(err)
			}
			r2, err := ix2.Run(ctx, coll.Queries, RunOptions{Depth: depth, ChunkDepth: chunkDepth, Aggregation: rag.MaxP, Tag: "bm25-128"})
			if err != nil {
				t.Fatal(err)
			}
			if d := diffScores(r.Chunks, r2.Chunks); d != "" {
				t.Errorf("%s: 2 shards with distributed statistics: the chunk run differs from 1 shard's: %s", kind, d)
			}
			if d := diffScores(r.Docs, r2.Docs); d != "" {
				t.Errorf("%s: 2 shards with distributed statistics: the document run differs from 1 shard's: %s", kind, d)
			}
		})
	}
	if len(docRuns) == 2 {
		if d := diffScores(docRuns["solr"], docRuns["opensearch"]); d != "" {
			t.Errorf("Solr's and OpenSearch's chunked document runs differ: %s", d)
		}
	}
}

// chunkSet returns the IDs of a ranking, sorted.
func chunkSet(docs []eval.ScoredDoc) []string {
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = d.Doc
	}
	slices.Sort(out)
	return out
}

// diffMaps returns "" when a (in-process) and b map the same chunk IDs to the same spans, else the first
// difference in chunk ID order.
func diffMaps(a, b rag.ChunkMap) string {
	for _, id := range slices.Sorted(maps.Keys(a)) {
		if s, ok := b[id]; !ok {
			return fmt.Sprintf("chunk %s (%v) missing", id, a[id])
		} else if s != a[id] {
			return fmt.Sprintf("chunk %s: %v against the in-process %v", id, s, a[id])
		}
	}
	for _, id := range slices.Sorted(maps.Keys(b)) {
		if _, ok := a[id]; !ok {
			return fmt.Sprintf("chunk %s (%v) not in the in-process map", id, b[id])
		}
	}
	return ""
}

// diffAggregated compares docs (a document run cut at depth) with agg, the document run
// aggregated from a chunk run cut at chunkDepth, at every rank the chunk run decides: a
// document whose score is above the last chunk's has its exact score in agg (MaxP: its best
// chunk is in the run; FirstP: its first), and every document above it too; when a query's chunk run holds fewer than chunkDepth chunks (every
// match), agg is complete. Documents tied at docs' cut-off may differ (which of them an engine
// keeps depends on its internal order). It returns the ranks checked, the ranks in docs and ""
// or the first difference.
func diffAggregated(docs, agg, chunks eval.Run, depth, chunkDepth int) (checked, total int, diff string) {
	for _, q := range slices.Sorted(maps.Keys(docs.Queries)) {
		dq, aq, cq := docs.Queries[q], agg.Queries[q], chunks.Queries[q]
		total += len(dq)
		cut := math.Inf(-1)
		if len(cq) >= chunkDepth {
			cut = cq[len(cq)-1].Score
		} else if len(dq) != min(len(aq), depth) {
			return checked, total, fmt.Sprintf("query %s: %d documents, the aggregated complete chunk run has %d", q, len(dq), len(aq))
		}
		for i, d := range dq {
			if i >= len(aq) || aq[i].Score <= cut {
				break
			}
			if d.Score != aq[i].Score {
				return checked, total, fmt.Sprintf("query %s rank %d: score %v against %v", q, i+1, d.Score, aq[i].Score)
			}
			if d.Doc != aq[i].Doc && d.Score != dq[len(dq)-1].Score {
				return checked, total, fmt.Sprintf("query %s rank %d: %v against %v", q, i+1, d, aq[i])
			}
			checked++
		}
	}
	return checked, total, ""
}
