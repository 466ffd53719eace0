package lab

import (
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

// cands builds a hand-made first-stage list from grades and reranker scores; docs are a, b, c, ...
// and first-stage scores descend from 10.
func cands(grades []int, rerank []float64) []Candidate {
	out := make([]Candidate, len(grades))
	for i, g := range grades {
		out[i] = Candidate{Doc: string(rune('a' + i)), Label: "item " + string(rune('a'+i)), Grade: g, FirstScore: float64(10 - i)}
		if rerank != nil {
			out[i].RerankScore = rerank[i]
		}
	}
	return out
}

func missedOf(grades ...int) []Candidate {
	out := make([]Candidate, len(grades))
	for i, g := range grades {
		out[i] = Candidate{Doc: "m" + string(rune('1'+i)), Label: "missed", Grade: g}
	}
	return out
}

func handState(k, rerank, grade, total int) State {
	s := DefaultState()
	s.K, s.Rerank, s.MinGrade, s.Total = k, rerank, grade, total
	return s
}

const eps = 1e-12

func near(a, b float64) bool { return math.Abs(a-b) <= eps }

func TestOutcomeHandBuilt(t *testing.T) {
	l2 := math.Log2
	// a rerank example: the grade-3 d sits at first-stage rank 4.
	liftC := cands([]int{0, 1, 0, 3, 0}, []float64{0.1, 0.5, 0.2, 0.9, 0.3})
	// a grade-2 item missed by the list, judged against the qrels count (3) or a larger total:
	// recall divides by the total; nDCG's ideal keeps the judged grades 3, 2 (no grades added).
	missed := Synthetic{Candidates: cands([]int{3, 0, 1}, nil), Missed: missedOf(2)}
	missedNDCG := (7 / l2(2)) / (7/l2(2) + 3/l2(3))
	cases := []struct {
		name   string
		s      State
		syn    Synthetic
		want   Metrics
		order  []string // docs in rank order
		inside []string // docs inside k
	}{
		{
			name: "ties in grade",
			s:    handState(3, 0, 1, 0),
			syn:  Synthetic{Candidates: cands([]int{2, 0, 2, 1, 0}, nil), Missed: missedOf(3)},
			want: Metrics{K: 3, Precision: 2.0 / 3, Recall: 2.0 / 4, MRR: 1,
				NDCG:        (3/l2(2) + 0 + 3/l2(4)) / (7/l2(2) + 3/l2(3) + 3/l2(4)),
				RelevantInK: 2, Denominator: 4},
			order: []string{"a", "b", "c", "d", "e"}, inside: []string{"a", "b", "c"},
		},
		{
			name: "k beyond the list",
			s:    handState(5, 0, 1, 0),
			syn:  Synthetic{Candidates: cands([]int{1, 0, 3}, nil)},
			want: Metrics{K: 5, Precision: 2.0 / 5, Recall: 2.0 / 2, MRR: 1,
				NDCG:        (1/l2(2) + 7/l2(4)) / (7/l2(2) + 1/l2(3)),
				RelevantInK: 2, Denominator: 2},
			order: []string{"a", "b", "c"}, inside: []string{"a", "b", "c"},
		},
		{
			name:  "no relevant item",
			s:     handState(2, 0, 1, 0),
			syn:   Synthetic{Candidates: cands([]int{0, 0, 0}, nil)},
			want:  Metrics{K: 2},
			order: []string{"a", "b", "c"}, inside: []string{"a", "b"},
		},
		{
			name:  "relevant item only below k",
			s:     handState(2, 0, 1, 0),
			syn:   Synthetic{Candidates: cands([]int{0, 0, 2}, nil)},
			want:  Metrics{K: 2, Denominator: 1},
			order: []string{"a", "b", "c"}, inside: []string{"a", "b"},
		},
		{
			name: "rerank lifts an item into the top k",
			s:    handState(2, 4, 1, 0),
			syn:  Synthetic{Candidates: liftC},
			// prefix a b c d by reranker score: d (0.9), b (0.5), c (0.2), a (0.1); e stays last.
			want: Metrics{K: 2, Rerank: 4, Precision: 2.0 / 2, Recall: 2.0 / 2, MRR: 1,
				NDCG:        (7/l2(2) + 1/l2(3)) / (7/l2(2) + 1/l2(3)),
				RelevantInK: 2, Denominator: 2},
			order: []string{"d", "b", "c", "a", "e"}, inside: []string{"d", "b"},
		},
		{
			name: "rerank depth smaller than k",
			s:    handState(3, 2, 1, 0),
			syn:  Synthetic{Candidates: liftC},
			// only a b are reordered: b (0.5), a (0.1); d stays at rank 4, outside k.
			want: Metrics{K: 3, Rerank: 2, Precision: 1.0 / 3, Recall: 1.0 / 2, MRR: 1,
				NDCG:        (1 / l2(2)) / (7/l2(2) + 1/l2(3)),
				RelevantInK: 1, Denominator: 2},
			order: []string{"b", "a", "c", "d", "e"}, inside: []string{"b", "a", "c"},
		},
		{
			name: "reranker ties keep the first-stage order",
			s:    handState(1, 3, 1, 0),
			syn:  Synthetic{Candidates: cands([]int{0, 2, 1}, []float64{0.5, 0.5, 0.5})},
			want: Metrics{K: 1, Rerank: 3, Precision: 0, Recall: 0, MRR: 0, NDCG: 0,
				Denominator: 2},
			order: []string{"a", "b", "c"}, inside: []string{"a"},
		},
		{
			name:  "total relevant larger than found",
			s:     handState(2, 0, 1, 10),
			syn:   missed,
			want:  Metrics{K: 2, Precision: 1.0 / 2, Recall: 1.0 / 10, MRR: 1, NDCG: missedNDCG, RelevantInK: 1, Denominator: 10},
			order: []string{"a", "b", "c"}, inside: []string{"a", "b"},
		},
		{
			name:  "qrels count with a missed item",
			s:     handState(2, 0, 1, 0),
			syn:   missed,
			want:  Metrics{K: 2, Precision: 1.0 / 2, Recall: 1.0 / 3, MRR: 1, NDCG: missedNDCG, RelevantInK: 1, Denominator: 3},
			order: []string{"a", "b", "c"}, inside: []string{"a", "b"},
		},
		{
			name: "total between found and the qrels count",
			s:    handState(3, 0, 1, 2),
			syn:  Synthetic{Candidates: cands([]int{1, 0}, nil), Missed: missedOf(1, 1)},
			want: Metrics{K: 3, Precision: 1.0 / 3, Recall: 1.0 / 2, MRR: 1,
				NDCG:        (1 / l2(2)) / (1/l2(2) + 1/l2(3) + 1/l2(4)),
				RelevantInK: 1, Denominator: 2},
			order: []string{"a", "b"}, inside: []string{"a", "b"},
		},
		{
			name: "grade threshold changes binary measures, not nDCG",
			s:    handState(3, 0, 2, 0),
			syn:  Synthetic{Candidates: cands([]int{1, 2, 3}, nil)},
			want: Metrics{K: 3, Precision: 2.0 / 3, Recall: 2.0 / 2, MRR: 1.0 / 2,
				NDCG:        (1/l2(2) + 3/l2(3) + 7/l2(4)) / (7/l2(2) + 3/l2(3) + 1/l2(4)),
				RelevantInK: 2, Denominator: 2},
			order: []string{"a", "b", "c"}, inside: []string{"a", "b", "c"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := slices.Clone(c.syn.Candidates)
			o, err := c.s.OutcomeFor(c.syn)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(before, c.syn.Candidates) {
				t.Fatal("OutcomeFor modified the candidates")
			}
			m := o.Metrics
			if m.K != c.want.K || m.Rerank != c.want.Rerank || m.RelevantInK != c.want.RelevantInK || m.Denominator != c.want.Denominator ||
				!near(m.Precision, c.want.Precision) || !near(m.Recall, c.want.Recall) || !near(m.MRR, c.want.MRR) || !near(m.NDCG, c.want.NDCG) {
				t.Errorf("metrics %+v\nwant    %+v", m, c.want)
			}
			var order, inside []string
			for i, it := range o.Items {
				order = append(order, it.Doc)
				if it.InsideK {
					inside = append(inside, it.Doc)
				}
				if it.Rank != i+1 || c.syn.Candidates[it.FirstRank-1].Doc != it.Doc || it.Relevant != (it.Grade >= c.s.MinGrade) {
					t.Errorf("item %+v: wrong rank, first rank or relevant flag", it)
				}
			}
			if !slices.Equal(order, c.order) || !slices.Equal(inside, c.inside) {
				t.Errorf("order %v inside %v, want %v inside %v", order, inside, c.order, c.inside)
			}
			for i, it := range o.FirstStage {
				if it.Rank != i+1 || it.FirstRank != i+1 || it.Doc != c.syn.Candidates[i].Doc || it.InsideK != (i < c.s.K) {
					t.Errorf("first-stage item %+v", it)
				}
			}
			// The first-stage metrics are the outcome of the same state with depth 0.
			s0 := c.s
			s0.Rerank = 0
			o0, _ := s0.OutcomeFor(c.syn)
			if o.FirstMetrics != o0.Metrics {
				t.Errorf("FirstMetrics %+v, depth-0 metrics %+v", o.FirstMetrics, o0.Metrics)
			}
		})
	}
}

func TestValidateErrors(t *testing.T) {
	mod := func(f func(*State)) State {
		s := DefaultState()
		f(&s)
		return s
	}
	// The default ranking holds 5 items with grade >= 1, 8 counting the missed ones (see State).
	cases := []struct {
		name string
		s    State
		want string
	}{
		{"k zero", mod(func(s *State) { s.K = 0 }), "k: 0 must be in 1..10000"},
		{"k too big", mod(func(s *State) { s.K = maxK + 1 }), "k: 10001 must be in 1..10000"},
		{"rerank beyond the list", mod(func(s *State) { s.Rerank = 21 }), "rerank: 21 must be in 0..20 (the list has 20 candidates)"},
		{"negative rerank", mod(func(s *State) { s.Rerank = -1 }), "rerank: -1 must be in 0..20 (the list has 20 candidates)"},
		{"grade zero", mod(func(s *State) { s.MinGrade = 0 }), "grade: 0 must be in 1..3 (grades run 0..3; 0 is not relevant)"},
		{"grade above the scale", mod(func(s *State) { s.MinGrade = 4 }), "grade: 4 must be in 1..3 (grades run 0..3; 0 is not relevant)"},
		{"total below found", mod(func(s *State) { s.Total = 4 }), "total: 4 must be 0 (the qrels' count, 8) or in 5..100000 (at least the 5 items with grade >= 1 in the ranking)"},
		{"negative total", mod(func(s *State) { s.Total = -1 }), "total: -1 must be 0 (the qrels' count, 8) or in 5..100000 (at least the 5 items with grade >= 1 in the ranking)"},
		{"size zero", mod(func(s *State) { s.Size = 0 }), "n: 0 must be in 1..1000 (candidates in the ranking)"},
		{"size too big", mod(func(s *State) { s.Size = maxSize + 1 }), "n: 1001 must be in 1..1000 (candidates in the ranking)"},
		{"overlap equal to chunk", mod(func(s *State) { s.Overlap = 512 }), "overlap: 512 must be in 0..511 (below chunk size 512)"},
		{"chunk zero", mod(func(s *State) { s.Chunk = 0 }), "chunk: 0 must be in 1..1048576"},
		{"negative corpus", mod(func(s *State) { s.Corpus = -1 }), "corpus: -1 must be in 0..1099511627776"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, err := range []error{c.s.Validate(), sharedtest.Err(c.s.Outcome())} {
				if err == nil || err.Error() != c.want {
					t.Fatalf("error %v\nwant  %q", err, c.want)
				}
				var fe *fieldError
				if !errors.As(err, &fe) || !strings.HasPrefix(c.want, fe.Field+": ") {
					t.Errorf("error %#v does not name its field", err)
				}
			}
		})
	}
	if err := DefaultState().Validate(); err != nil {
		t.Errorf("the default state is invalid: %v", err)
	}
}

func TestOutcomeForRankingErrors(t *testing.T) {
	s := handState(2, 0, 1, 0)
	cases := []struct {
		name string
		syn  Synthetic
		want string
	}{
		{"grade above the scale", Synthetic{Candidates: cands([]int{1, 4}, nil)}, "candidates[1].grade: 4 must be in 0..3"},
		{"negative grade in missed", Synthetic{Candidates: cands([]int{1}, nil), Missed: missedOf(-1)}, "missed[0].grade: -1 must be in 0..3"},
		{"duplicate doc", Synthetic{Candidates: cands([]int{1, 0}, nil), Missed: []Candidate{{Doc: "a", Grade: 1}}}, `missed[0]: doc ID "a" appears twice`},
		{"empty doc", Synthetic{Candidates: []Candidate{{Grade: 1}}}, "candidates[0]: empty doc ID"},
		{"NaN score", Synthetic{Candidates: []Candidate{{Doc: "x", FirstScore: math.NaN()}}}, "candidates[0].first_score: NaN is not a finite number"},
		{"rerank beyond a short list", Synthetic{Candidates: cands([]int{1}, nil)}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := s
			if c.want == "" {
				st.Rerank = 2
				c.want = "rerank: 2 must be in 0..1 (the list has 1 candidates)"
			}
			_, err := st.OutcomeFor(c.syn)
			if err == nil || err.Error() != c.want {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}

func TestOutcomeDoesNotShareMissed(t *testing.T) {
	syn := Synthetic{Candidates: cands([]int{1, 0}, nil), Missed: missedOf(2)}
	o, err := handState(1, 0, 1, 0).OutcomeFor(syn)
	if err != nil {
		t.Fatal(err)
	}
	o.Missed[0].Grade = 0
	if syn.Missed[0].Grade != 2 {
		t.Error("the outcome shares the caller's Missed slice")
	}
}

func TestOutcomeDeterministic(t *testing.T) {
	a, err := DefaultState().Outcome()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := DefaultState().Outcome()
	if !reflect.DeepEqual(a, b) {
		t.Error("two outcomes of the same state differ")
	}
	if a.Link != DefaultState().Link() {
		t.Errorf("Link %q", a.Link)
	}
}

func TestHandBuilt(t *testing.T) {
	syn := HandBuilt([]string{"d7", "d3", "d9"}, []int{0, 2, 1}, map[string]int{"d12": 1, "d11": 2})
	want := Synthetic{
		Candidates: []Candidate{{Doc: "d7", Label: "d7", Grade: 0, FirstScore: 3}, {Doc: "d3", Label: "d3", Grade: 2, FirstScore: 2}, {Doc: "d9", Label: "d9", Grade: 1, FirstScore: 1}},
		Missed:     []Candidate{{Doc: "d11", Label: "d11", Grade: 2}, {Doc: "d12", Label: "d12", Grade: 1}},
	}
	if !reflect.DeepEqual(syn, want) {
		t.Errorf("HandBuilt = %+v, want %+v", syn, want)
	}
	s := DefaultState()
	s.K, s.Rerank, s.Size = 2, 0, 3
	o, err := s.OutcomeFor(syn)
	if err != nil {
		t.Fatal(err)
	}
	// d7 (0), d3 (2): P@2 = 1/2; R = 4 relevant judged (d3, d9, d11, d12): R@2 = 1/4; RR@2 = 1/2.
	if m := o.Metrics; m.Precision != 1.0/2 || m.Recall != 1.0/4 || m.MRR != 1.0/2 {
		t.Errorf("metrics %+v", m)
	}
}
