package retrieval

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/ranking"
	"github.com/ranklab/ranklab/rag"
)

func TestSearcherAggregation(t *testing.T) {
	a := mustEnglish(t)
	docs := []Document{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	// Chunks given directly: a = [zebra][quartz zebra], b = [quartz][zebra zebra zebra], c = [lion].
	chunks := []textChunk{
		{Doc: 0, Text: "zebra"}, {Doc: 0, Text: "quartz zebra"},
		{Doc: 1, Text: "quartz"}, {Doc: 1, Text: "zebra zebra zebra"},
		{Doc: 2, Text: "lion"},
	}
	q := Query{ID: "q", Text: "zebra"}
	for _, agg := range []rag.Aggregation{rag.MaxP, rag.FirstP, rag.SumP} {
		t.Run(agg.String(), func(t *testing.T) {
			s := newSearcher(a, Anserini, docs, chunks, Chunking{Chunk: 8}, agg)
			unit, _ := s.index.Scores(a.Terms(q.Text))
			var want []eval.ScoredDoc
			switch agg {
			case rag.MaxP:
				want = []eval.ScoredDoc{{Doc: "b", Score: math.Max(unit[2], unit[3])}, {Doc: "a", Score: math.Max(unit[0], unit[1])}}
			case rag.FirstP: // b's first chunk has no zebra: b is not retrieved
				want = []eval.ScoredDoc{{Doc: "a", Score: unit[0]}}
			case rag.SumP:
				want = []eval.ScoredDoc{{Doc: "b", Score: unit[3]}, {Doc: "a", Score: unit[0] + unit[1]}}
				if want[1].Score > want[0].Score {
					want[0], want[1] = want[1], want[0]
				}
			}
			if got := s.Search(q, 0); !slices.Equal(got, want) {
				t.Errorf("Search = %v, want %v", got, want)
			}
			if got := s.Search(q, 1); len(got) != 1 || got[0] != want[0] {
				t.Errorf("Search k=1 = %v, want %v", got, want[:1])
			}
		})
	}
}

func TestSearcherTies(t *testing.T) {
	// Identical documents tie; trec_eval's order puts the greater doc ID first.
	docs := []Document{{ID: "d1", Text: "same words"}, {ID: "d10", Text: "same words"}, {ID: "d9", Text: "same words"}}
	tok := mustTokenizer(t)
	chunks, err := Tokenize(tok, docs).chunks(tok, Whole)
	if err != nil {
		t.Fatal(err)
	}
	s := newSearcher(mustEnglish(t), Anserini, docs, chunks, Whole, rag.MaxP)
	got := s.Search(Query{Text: "words"}, 0)
	var ids []string
	for _, d := range got {
		ids = append(ids, d.Doc)
	}
	if !slices.Equal(ids, []string{"d9", "d10", "d1"}) || got[0].Score != got[2].Score {
		t.Errorf("ranking %v (%v), want d9 d10 d1 with equal scores", ids, got)
	}
}

// TestChunksTokenCut checks Searcher.chunks' growing selection against a full sort and a cut
// by hand, on random unit lengths (long chunks ranked first make the first selection too short).
func TestChunksTokenCut(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		n := 1 + r.IntN(300)
		s := &Searcher{unitID: make([]string, n), window: make([][2]int32, n)}
		scores := make([]float64, n)
		var matched []int32
		for u := range n {
			s.unitID[u] = ranking.ChunkID("d", u)
			length := 1 + r.IntN(40)
			if trial%2 == 0 && u%5 == 0 {
				length = 1 // a few short chunks pull the average down
			}
			s.window[u] = [2]int32{0, int32(length)}
			s.indexed += length
			scores[u] = float64(r.IntN(20)) // many ties, broken by chunk ID
			if r.IntN(4) > 0 {
				matched = append(matched, int32(u))
			}
		}
		all := slices.Clone(matched)
		slices.SortFunc(all, func(a, b int32) int { return ranking.Compare(scores[a], s.unitID[a], scores[b], s.unitID[b]) })
		for _, tokens := range []int{1, 10, 50, 400, 100000} {
			for _, k := range []int{0, 3, 1000} {
				var want []string
				used := 0
				for i, u := range all {
					if (k > 0 && i >= k) || used > tokens {
						break
					}
					want = append(want, s.unitID[u])
					used += int(s.window[u][1])
				}
				var got []string
				for _, d := range s.chunks(scores, matched, k, tokens) {
					got = append(got, d.Doc)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("trial %d, tokens %d, k %d: %v, want %v", trial, tokens, k, got, want)
				}
			}
		}
	}
}
