package lab

import (
	"github.com/ranklab/ranklab/chunking"
	"strings"
	"testing"
)

func TestMetricReading(t *testing.T) {
	lift := cands([]int{0, 1, 0, 3, 0}, []float64{0.1, 0.5, 0.2, 0.9, 0.3})
	cases := []struct {
		name string
		s    State
		syn  Synthetic
		want []string // substrings, in the order of the sentences they belong to
	}{
		{
			name: "default",
			s:    DefaultState(),
			want: []string{
				"3 of the top 5 items have grade >= 1: precision@5 = 3/5 = 0.600.",
				"The top 5 recover 3 of the 8 relevant items: recall@5 = 3/8 = 0.375. R = 8 is the qrels' count of items with grade >= 1: this is recall against the judged relevant items, not against every relevant item in the knowledge base (unjudged ones are not counted).",
				"3 items were judged relevant but never retrieved (d21, d22, d23), so recall stays at most 5/8 even at k = 20.",
				"The first relevant item, d03, sits at rank 1: its reciprocal rank RR@5 = 1/1 = 1.000 is MRR@5 for this one query (MRR is the mean of RR over queries).",
				"RR ignores everything after the first relevant item: the 2 other relevant items in the top 5 do not change it.",
				"the top 5 hold grades (3, 1, 0, 0, 1) against the ideal (3, 2, 2, 1, 1)",
				"the threshold does not change nDCG",
				"It moved d09 (grade 1, from rank 9), d10 (grade 0, from rank 10) into the top 5 and d05 (grade 0, to rank 6), d01 (grade 0, to rank 10) out of it.",
				"Against the first stage: precision@5 0.400 → 0.600, recall@5 0.250 → 0.375, nDCG@5 0.368 → 0.715, MRR@5 0.500 → 1.000.",
			},
		},
		{
			name: "k beyond the list",
			s:    handState(5, 0, 1, 0),
			syn:  Synthetic{Candidates: cands([]int{1, 0, 3}, nil)},
			want: []string{"k = 5 is beyond the 3 candidates: the 2 empty positions count as not relevant, so precision@5 is at most 2/5.",
				"Reranking is off (depth 0)"},
		},
		{
			name: "no relevant item",
			s:    handState(2, 0, 1, 0),
			syn:  Synthetic{Candidates: cands([]int{0, 0, 0}, nil)},
			want: []string{"No judged item has grade >= 1, so there is nothing to recover: recall@2 = 0 by convention.",
				"No item in the ranking has grade >= 1: the reciprocal rank RR@2 = 0, and so is MRR@2 for this one query (MRR is the mean of RR over queries).",
				"nDCG@2 = 0: no judged item has a positive grade."},
		},
		{
			name: "first relevant below k",
			s:    handState(2, 0, 1, 0),
			syn:  Synthetic{Candidates: cands([]int{0, 0, 2}, nil)},
			want: []string{"R = 1 is the qrels' count of items with grade >= 1",
				"No relevant item in the top 2 (the first one, c, is at rank 3): RR@2 = 0, and so is MRR@2 for this one query (MRR is the mean of RR over queries)."},
		},
		{
			name: "raised denominator",
			s:    handState(2, 0, 1, 10),
			syn:  Synthetic{Candidates: cands([]int{3, 0, 1}, nil), Missed: missedOf(2)},
			want: []string{"recall@2 = 1/10 = 0.100",
				"The denominator is raised to 10 (the qrels hold 3 items with grade >= 1): it counts 7 relevant items nobody judged, so recall falls; a raised denominator adds no grades, so nDCG's ideal still comes from the judged grades only.",
				"1 item was judged relevant but never retrieved (m1), so recall stays at most 2/10 even at k = 3."},
		},
		{
			name: "lowered denominator",
			s:    handState(3, 0, 1, 2),
			syn:  Synthetic{Candidates: cands([]int{1, 0}, nil), Missed: missedOf(1, 1)},
			want: []string{"The denominator 2 is below the qrels' 3 items with grade >= 1, so recall is overstated."},
		},
		{
			name: "rerank lifts into the top k",
			s:    handState(2, 4, 1, 0),
			syn:  Synthetic{Candidates: lift},
			want: []string{"RR ignores everything after the first relevant item: the other relevant item in the top 2 does not change it.",
				"It moved d (grade 3, from rank 4) into the top 2 and a (grade 0, to rank 4) out of it.",
				"Against the first stage: precision@2 0.500 → 1.000, recall@2 0.500 → 1.000, nDCG@2 0.083 → 1.000, MRR@2 0.500 → 1.000."},
		},
		{
			// a (grade 3) first; the reranker prefers the grade-0 b: nDCG@2 falls.
			name: "rerank hurts",
			s:    handState(2, 2, 1, 0),
			syn:  Synthetic{Candidates: cands([]int{3, 0, 1}, []float64{0.1, 0.9, 0.5})},
			want: []string{"Against the first stage: precision@2 0.500 → 0.500, recall@2 0.500 → 0.500, nDCG@2 0.917 → 0.579, MRR@2 1.000 → 0.500.",
				"The reranker lowered nDCG@2 on this query: reranking helps only as far as the reranker's scores follow the grades."},
		},
		{
			name: "rerank depth within k",
			s:    handState(3, 2, 1, 0),
			syn:  Synthetic{Candidates: lift},
			want: []string{"The depth 2 is within k = 3, so it reorders inside the top 3 only: no item can enter or leave it."},
		},
		{
			name: "rerank reorders the top k only",
			s:    handState(2, 3, 1, 0),
			syn:  Synthetic{Candidates: cands([]int{0, 1, 0}, []float64{0.1, 0.5, 0.05})},
			want: []string{"It changed the order but not which items are in the top 2."},
		},
		{
			name: "rerank agrees with the first stage",
			s:    handState(2, 3, 1, 0),
			syn:  Synthetic{Candidates: cands([]int{1, 1, 0}, []float64{0.9, 0.5, 0.1})},
			want: []string{"It left the order unchanged: the reranker agrees with the first stage."},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var o Outcome
			var err error
			if c.syn.Candidates == nil {
				o, err = c.s.Outcome()
			} else {
				o, err = c.s.OutcomeFor(c.syn)
			}
			if err != nil {
				t.Fatal(err)
			}
			text := strings.Join(o.Reading, "\n")
			at := 0
			for _, w := range c.want {
				i := strings.Index(text[at:], w)
				if i < 0 {
					t.Fatalf("reading lacks (after offset %d) %q:\n%s", at, w, text)
				}
				at += i + len(w)
			}
			if len(o.Reading) != 5 {
				t.Errorf("%d sentences, want 5 (precision, recall, MRR, nDCG, reranking)", len(o.Reading))
			}
		})
	}
}

func TestChunkReading(t *testing.T) {
	cases := []struct {
		corpus, chunk, overlap int
		want                   string
	}{
		{10000, 512, 128, "Covering 10000 tokens takes 26 chunks = 1 + ceil((10000 − 512) / 384); they index 13200 tokens, 3200 of them duplicates (32.0% of the corpus)."},
		{0, 512, 128, "The corpus is empty: no chunks, nothing indexed."},
		{300, 512, 128, "The 300-token corpus fits in one window: 300 tokens indexed, nothing duplicated."},
		{1050, 100, 0, "Covering 1050 tokens takes 11 chunks = 1 + ceil((1050 − 100) / 100); without overlap the windows tile the corpus: 1050 tokens indexed, nothing duplicated."},
	}
	for _, c := range cases {
		f, err := chunking.NewFootprint(c.corpus, c.chunk, c.overlap)
		if err != nil {
			t.Fatal(err)
		}
		r := chunkReading(f)
		text := strings.Join(r, "\n")
		if !strings.Contains(text, c.want) {
			t.Errorf("reading of %+v lacks %q:\n%s", f, c.want, text)
		}
		if r[len(r)-1] != chunkCaveat || !strings.Contains(chunkCaveat, "not a relevance gain") {
			t.Errorf("reading of %+v does not end with the caveat", f)
		}
		if c.corpus > 0 && !strings.Contains(r[0], "stride") {
			t.Errorf("reading of %+v does not state the stride", f)
		}
	}
}
