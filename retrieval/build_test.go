package retrieval

import (
	"math"
	"slices"
	"testing"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/sharedtest"
	"github.com/ranklab/ranklab/rag"
)

// smallCollection is a four-document collection with three judged queries.
func smallCollection(t *testing.T) Collection {
	t.Helper()
	c, err := ReadCollection(sharedtest.SmallBEIR(t), "test")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestSearcherAgreesWithRag: the searcher's document run equals rag.DocRun of its own complete
// chunk run, for every aggregation and chunking, so the one aggregation (rag.Aggregation.Score)
// is applied alike to chunks in memory and to a chunk run read from a file.
func TestSearcherAgreesWithRag(t *testing.T) {
	c := smallCollection(t)
	for _, ch := range []Chunking{Whole, {Chunk: 4}, {Chunk: 8, Overlap: 3}} {
		for _, agg := range []rag.Aggregation{rag.MaxP, rag.FirstP, rag.SumP} {
			s, err := Build(c, ch, nil, agg)
			if err != nil {
				t.Fatal(err)
			}
			runs := s.Run(c.Queries, RunOptions{Depth: 100, ChunkDepth: 100})
			fromChunks, err := rag.DocRun(runs.Chunks, s.ChunkMap(), agg)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range c.Queries {
				if !slices.Equal(runs.Docs.Queries[q.ID], fromChunks.Queries[q.ID]) {
					t.Errorf("%v %v query %s: searcher %v, rag.DocRun %v", ch, agg, q.ID, runs.Docs.Queries[q.ID], fromChunks.Queries[q.ID])
				}
			}
		}
	}
}

func TestChunkMapAndRunCut(t *testing.T) {
	c := smallCollection(t)
	s, err := Build(c, Chunking{Chunk: 8, Overlap: 2}, nil, rag.MaxP)
	if err != nil {
		t.Fatal(err)
	}
	m := s.ChunkMap()
	tok := mustTokenizer(t)
	lengths := Tokenize(tok, c.Docs).lengths()
	// Chunk IDs number each document's windows from 0; the spans are the footprint windows.
	if m["d1#0"] != (rag.Span{Doc: "d1", Start: 0, End: 8}) || m["d1#1"] != (rag.Span{Doc: "d1", Start: 6, End: 14}) {
		t.Errorf("chunk map: d1#0 %v, d1#1 %v", m["d1#0"], m["d1#1"])
	}
	total := 0
	for _, sp := range m {
		total += sp.End - sp.Start
	}
	if len(m) != s.index.Len() || total != s.indexedTokens() {
		t.Errorf("map: %d chunks, %d tokens; searcher %d, %d", len(m), total, s.index.Len(), s.indexedTokens())
	}
	if _, ok := m["d4#0"]; ok || lengths[3] != 0 {
		t.Error("the empty document has a chunk")
	}
	// ChunkTokens cuts each chunk ranking after the first chunk that takes it past the budget.
	full := s.Run(c.Queries, RunOptions{ChunkDepth: 1000})
	cut := s.Run(c.Queries, RunOptions{ChunkDepth: 1000, ChunkTokens: 20})
	for _, q := range c.Queries {
		f, k := full.Chunks.Queries[q.ID], cut.Chunks.Queries[q.ID]
		used, n := 0, 0
		for n < len(f) && used <= 20 {
			sp := m[f[n].Doc]
			used += sp.End - sp.Start
			n++
		}
		if !slices.Equal(k, f[:n]) {
			t.Errorf("query %s: cut ranking %v, want the first %d of %v", q.ID, k, n, f)
		}
	}
}

// TestQLScores checks Lucene's LMDirichletSimilarity by hand on a four-unit index.
func TestQLScores(t *testing.T) {
	ix := newIndexAnalyzed(Anserini, []unitTerms{
		analyzedUnit("x", "y", "x"),
		analyzedUnit("y", "z"),
		analyzedUnit("z", "z", "z", "z"),
		analyzedUnit("w"),
	})
	const mu = 10.0
	total := 3.0 + 2 + 4 + 1 // |C|
	pc := func(cf float64) float64 { return (cf + 1) / (total + 1) }
	term := func(tf, cf, dl float64) float64 {
		return math.Max(0, math.Log(1+tf/(mu*pc(cf)))+math.Log(mu/(dl+mu)))
	}
	// Query "z x z": z counts twice (boost 2), cf(z) = 5, cf(x) = 2.
	scores, matched := ix.QLScores([]string{"z", "x", "z"}, QLDirichlet{Mu: mu})
	want := []float64{
		term(2, 2, 3),
		math.Max(0, 2*(math.Log(1+1/(mu*pc(5)))+math.Log(mu/(2+mu)))),
		math.Max(0, 2*(math.Log(1+4/(mu*pc(5)))+math.Log(mu/(4+mu)))),
		0,
	}
	if !slices.Equal(matched, []int32{0, 1, 2}) {
		t.Errorf("matched = %v, want [0 1 2]", matched)
	}
	for i := range want {
		if math.Abs(scores[i]-want[i]) > 1e-12 {
			t.Errorf("score[%d] = %.15g, want %.15g", i, scores[i], want[i])
		}
	}
	// A negative contribution is cut to 0: in unit 0 below, b has tf 1, dl 7, p(b|C) = 8/14, so
	// ln(1 + 1/(μ·8/14)) < ln((7 + μ)/μ) for any μ (since 14/8 < 7); the unit still matches.
	neg := newIndexAnalyzed(Anserini, []unitTerms{
		analyzedUnit("a", "a", "a", "a", "a", "a", "b"),
		analyzedUnit("b", "b", "b", "b", "b", "b"),
	})
	ns, nm := neg.QLScores([]string{"b"}, QLDirichlet{Mu: mu})
	if raw := math.Log(1+1/(mu*8.0/14)) + math.Log(mu/(7+mu)); raw >= 0 || ns[0] != 0 || !slices.Equal(nm, []int32{0, 1}) || ns[1] <= 0 {
		t.Errorf("clamp: raw %v, scores %v, matched %v; want unit 0 matched with score 0", raw, ns, nm)
	}
	if (QLDirichlet{Mu: 1000}).String() != "qld mu=1000" || Anserini.String() != "bm25 k1=0.9 b=0.4" {
		t.Errorf("model names %q, %q", AnseriniQL, Anserini)
	}
}

// TestQLSearcher: a query-likelihood searcher ranks by QLScores and its budget results follow.
func TestQLSearcher(t *testing.T) {
	c := smallCollection(t)
	s, err := Build(c, Whole, AnseriniQL, rag.MaxP)
	if err != nil {
		t.Fatal(err)
	}
	an := mustEnglish(t)
	unit, _ := s.index.QLScores(an.Terms("silicon mineral"), AnseriniQL)
	got := s.Search(Query{ID: "2", Text: "silicon mineral"}, 0)
	if len(got) != 1 || got[0].Doc != "d2" || got[0].Score != unit[1] {
		t.Errorf("QL search = %v, want d2 with %v", got, unit[1])
	}
	// A copy of a BM25 searcher with the QL model scores the same index as a QL build does.
	bm, err := Build(c, Whole, Anserini, rag.MaxP)
	if err != nil {
		t.Fatal(err)
	}
	copyQL := *bm
	copyQL.Model = AnseriniQL
	for _, q := range c.Queries {
		if a, b := copyQL.Search(q, 0), s.Search(q, 0); !slices.Equal(a, b) {
			t.Errorf("query %s: QL on a copy %v, QL build %v", q.ID, a, b)
		}
	}
	if _, err := Build(c, Whole, QLDirichlet{}, rag.MaxP); err == nil {
		t.Error("mu = 0: want an error")
	}
	res, err := eval.Evaluate(c.Qrels, s.Run(c.Queries, RunOptions{}).Docs, eval.NDCG(10))
	if err != nil || res.Mean(eval.NDCG(10)) <= 0 {
		t.Errorf("QL nDCG@10 = %v, %v", res, err)
	}
}
