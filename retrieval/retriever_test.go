package retrieval

import (
	"slices"
	"testing"

	"github.com/ranklab/ranklab/eval"
)

func TestRunRetriever(t *testing.T) {
	run := eval.Run{Tag: "other", Queries: map[string][]eval.ScoredDoc{
		"q1": {{Doc: "a", Score: 1}, {Doc: "b", Score: 3}, {Doc: "c", Score: 3}},
	}}
	r := runRetriever(run)
	got := runQueries(r, []Query{{ID: "q1"}, {ID: "q2"}}, 2, "again")
	want := []eval.ScoredDoc{{Doc: "c", Score: 3}, {Doc: "b", Score: 3}}
	if !slices.Equal(got.Queries["q1"], want) || len(got.Queries["q2"]) != 0 || got.Tag != "again" {
		t.Errorf("runQueries = %+v, want q1 %v and an empty q2", got, want)
	}
	if len(run.Queries["q1"]) != 3 || run.Queries["q1"][0].Doc != "a" {
		t.Errorf("input run modified: %v", run.Queries["q1"])
	}
}
