package lab

import (
	"fmt"
	"slices"
)

// HandBuilt returns a ranking written by hand: docs in rank order with their grades, and the
// judged items the ranking missed as doc → grade (nil for none). First-stage scores are
// len(docs), …, 2, 1, so the first stage keeps the given order (and trec_eval's order is the
// same); reranker scores are 0 and labels are the doc IDs. Missed items come in byte order of
// their IDs. It panics when docs and grades differ in length (State.OutcomeFor checks the rest:
// distinct IDs, grades 0..MaxGrade).
//
//	syn := lab.HandBuilt([]string{"d7", "d3", "d9"}, []int{0, 2, 1}, map[string]int{"d11": 2})
func HandBuilt(docs []string, grades []int, missed map[string]int) Synthetic {
	if len(docs) != len(grades) {
		panic(fmt.Sprintf("lab: HandBuilt: %d docs but %d grades", len(docs), len(grades)))
	}
	var s Synthetic
	for i, d := range docs {
		s.Candidates = append(s.Candidates, Candidate{Doc: d, Label: d, Grade: grades[i], FirstScore: float64(len(docs) - i)})
	}
	ids := make([]string, 0, len(missed))
	for d := range missed {
		ids = append(ids, d)
	}
	slices.Sort(ids)
	for _, d := range ids {
		s.Missed = append(s.Missed, Candidate{Doc: d, Label: d, Grade: missed[d]})
	}
	return s
}
