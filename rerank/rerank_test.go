package rerank

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/retrieval"
)

// table is a Reranker that scores a document by the number its text gives in scores (the
// test's stand-in for a model: the arithmetic under test is the prefix's, not the model's).
type table struct {
	scores map[string]float64
	calls  [][]string // the documents of each call
}

func (t *table) Score(query string, docs []string) ([]float64, error) {
	t.calls = append(t.calls, docs)
	out := make([]float64, len(docs))
	for i, d := range docs {
		s, ok := t.scores[d]
		if !ok {
			return nil, fmt.Errorf("no score for %q", d)
		}
		out[i] = s
	}
	return out, nil
}

// tiny is a collection of one query and documents d1..d5 whose DenseText is their ID.
func tiny() retrieval.Collection {
	c := retrieval.Collection{Queries: []retrieval.Query{{ID: "q1", Text: "a query"}},
		Qrels: eval.Qrels{"q1": {"d2": 1, "d4": 1, "d5": 1, "d1": 0}}}
	for _, id := range []string{"d1", "d2", "d3", "d4", "d5"} {
		c.Docs = append(c.Docs, retrieval.Document{ID: id, Text: id})
	}
	return c
}

// firstStage ranks d1 (3.0), d2 (2.0), d3 (1.0), d4 (0.5); d5 is not retrieved. Its lines are
// in file order, not ranked.
func firstStage() eval.Run {
	return eval.Run{Tag: "bm25", Queries: map[string][]eval.ScoredDoc{"q1": {
		{Doc: "d3", Score: 1.0}, {Doc: "d1", Score: 3.0}, {Doc: "d4", Score: 0.5}, {Doc: "d2", Score: 2.0}}}}
}

// sd is one ranked line.
func sd(doc string, score float64) eval.ScoredDoc { return eval.ScoredDoc{Doc: doc, Score: score} }

var reranker = map[string]float64{"d1": 0.1, "d2": 0.9, "d3": 0.5, "d4": 0.99, "d5": 0.7}

func TestRerank(t *testing.T) {
	cases := []struct {
		name string
		opt  Options
		want []eval.ScoredDoc
		tag  string
	}{
		{"depth 0 keeps the first stage", Options{}, []eval.ScoredDoc{sd("d1", 3), sd("d2", 2), sd("d3", 1), sd("d4", 0.5)}, "bm25"},
		{"depth 2 reorders d1 d2, the rest 1 below the prefix's lowest (0.1)", Options{Depth: 2},
			[]eval.ScoredDoc{sd("d2", 0.9), sd("d1", 0.1), sd("d3", 1.0-1.0+0.1-1), sd("d4", 0.5-1.0+0.1-1)}, "bm25-rerank2"},
		{"depth beyond the candidates reranks all of them", Options{Depth: 10, Name: "minilm"},
			[]eval.ScoredDoc{sd("d4", 0.99), sd("d2", 0.9), sd("d3", 0.5), sd("d1", 0.1)}, "bm25-minilm10"},
		// reranker over d1 d2 d3: (0.1, 0.9, 0.5) → (0, 1, 0.5); first (3, 2, 1) → (1, 0.5, 0).
		{"mix 0.5 at depth 3", Options{Depth: 3, Mix: 0.5},
			[]eval.ScoredDoc{sd("d2", 0.5*1+0.5*0.5), sd("d1", 0.5*0+0.5*1), sd("d3", 0.5*0.5+0.5*0), sd("d4", 0.5-0.5+0.25-1)}, "bm25-rerank3-mix0.5"},
		// mix 0.25: d1 0.75·0 + 0.25·1 = 0.25; d2 0.75·1 + 0.25·0.5 = 0.875; d3 0.75·0.5 + 0 = 0.375.
		{"mix 0.25 at depth 3", Options{Depth: 3, Mix: 0.25},
			[]eval.ScoredDoc{sd("d2", 0.75*1+0.25*0.5), sd("d3", 0.75*0.5), sd("d1", 0.25*1), sd("d4", 0.5-0.5+0.25-1)}, "bm25-rerank3-mix0.25"},
		{"mix 1 keeps the prefix's first-stage order", Options{Depth: 4, Mix: 1},
			[]eval.ScoredDoc{sd("d1", 1), sd("d2", (2-0.5)/2.5), sd("d3", (1-0.5)/2.5), sd("d4", 0)}, "bm25-rerank4-mix1"},
		{"a tag given is kept", Options{Depth: 1, Tag: "mine"}, []eval.ScoredDoc{sd("d1", 0.1), sd("d2", 2-2+0.1-1), sd("d3", 1-2+0.1-1), sd("d4", 0.5-2+0.1-1)}, "mine"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			first := firstStage()
			before := fmt.Sprint(first)
			got, err := Rerank(tiny(), first, &table{scores: reranker}, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(first) != before {
				t.Errorf("the first stage changed: %v, was %v", first, before)
			}
			if got.Tag != c.tag {
				t.Errorf("tag %q, want %q", got.Tag, c.tag)
			}
			g := got.Queries["q1"]
			if len(g) != len(c.want) {
				t.Fatalf("got %v, want %v", g, c.want)
			}
			for i := range g {
				if g[i].Doc != c.want[i].Doc || math.Abs(g[i].Score-c.want[i].Score) > 1e-12 {
					t.Fatalf("got %v, want %v", g, c.want)
				}
			}
			// Written and read back, the run ranks the same.
			var b bytes.Buffer
			if err := eval.WriteRun(&b, got); err != nil {
				t.Fatal(err)
			}
			back, err := eval.ReadRun(&b, "reranked")
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(eval.Rank(back.Queries["q1"]), g) {
				t.Errorf("read back %v, written %v", eval.Rank(back.Queries["q1"]), g)
			}
		})
	}
}

// TestRerankScoresOnlyThePrefix: the reranker sees the first N candidates' texts in the first
// stage's order, and nothing past N.
func TestRerankScoresOnlyThePrefix(t *testing.T) {
	r := &table{scores: reranker}
	if _, err := Rerank(tiny(), firstStage(), r, Options{Depth: 3}); err != nil {
		t.Fatal(err)
	}
	if want := [][]string{{"d1", "d2", "d3"}}; !reflect.DeepEqual(r.calls, want) {
		t.Errorf("reranker called with %v, want %v", r.calls, want)
	}
}

// TestRerankTies: equal new scores are ordered by trec_eval's rule (doc ID descending), as the
// run file will be read, not by first-stage rank.
func TestRerankTies(t *testing.T) {
	r := &table{scores: map[string]float64{"d1": 0.5, "d2": 0.5, "d3": 0.5}}
	got, err := Rerank(tiny(), firstStage(), r, Options{Depth: 3})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, d := range got.Queries["q1"] {
		order = append(order, d.Doc)
	}
	if want := []string{"d3", "d2", "d1", "d4"}; !reflect.DeepEqual(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
}

type failing struct{ scores []float64 }

func (f failing) Score(string, []string) ([]float64, error) { return f.scores, nil }

func TestRerankErrors(t *testing.T) {
	unknownDoc := firstStage()
	unknownDoc.Queries["q1"] = append(unknownDoc.Queries["q1"], eval.ScoredDoc{Doc: "d9", Score: 4})
	unknownQuery := eval.Run{Tag: "x", Queries: map[string][]eval.ScoredDoc{"q7": {{Doc: "d1", Score: 1}}}}
	cases := []struct {
		name  string
		first eval.Run
		r     Reranker
		opt   Options
		want  string
	}{
		{"negative depth", firstStage(), &table{scores: reranker}, Options{Depth: -1}, "depth -1"},
		{"mix above 1", firstStage(), &table{scores: reranker}, Options{Depth: 1, Mix: 1.5}, "mix 1.5"},
		{"mix NaN", firstStage(), &table{scores: reranker}, Options{Depth: 1, Mix: math.NaN()}, "mix NaN"},
		{"a tag with a space", firstStage(), &table{scores: reranker}, Options{Depth: 1, Tag: "a b"}, "white space"},
		{"a document not in the corpus", unknownDoc, &table{scores: reranker}, Options{Depth: 2}, "document d9 (query q1"},
		{"a query not in the collection", unknownQuery, &table{scores: reranker}, Options{Depth: 1}, "query q7"},
		{"too few scores", firstStage(), failing{[]float64{1}}, Options{Depth: 2}, "gave 1 scores for 2 documents"},
		{"a NaN score", firstStage(), failing{[]float64{1, math.NaN()}}, Options{Depth: 2}, "scored document d2 NaN"},
		{"an infinite score", firstStage(), failing{[]float64{math.Inf(1), 1}}, Options{Depth: 2}, "scored document d1 +Inf"},
		{"the reranker's error", firstStage(), &table{scores: map[string]float64{}}, Options{Depth: 2}, `query q1: no score for "d1"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Rerank(tiny(), c.first, c.r, c.opt)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}
