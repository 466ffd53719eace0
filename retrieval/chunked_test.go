package retrieval

import (
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/rag"
	"math"
	"slices"
	"testing"
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
	for _, agg := range []Aggregation{MaxP, rag.FirstP, rag.SumP} {
		t.Run(agg.String(), func(t *testing.T) {
			s := newSearcher(a, Anserini, docs, chunks, Chunking{Chunk: 8}, agg)
			unit, _ := s.index.Scores(a.Terms(q.Text))
			var want []eval.ScoredDoc
			switch agg {
			case MaxP:
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
	s := newSearcher(mustEnglish(t), Anserini, docs, chunks, Whole, MaxP)
	got := s.Search(Query{Text: "words"}, 0)
	var ids []string
	for _, d := range got {
		ids = append(ids, d.Doc)
	}
	if !slices.Equal(ids, []string{"d9", "d10", "d1"}) || got[0].Score != got[2].Score {
		t.Errorf("ranking %v (%v), want d9 d10 d1 with equal scores", ids, got)
	}
}
