package check

import (
	"cmp"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/sharedtest"
	"github.com/ranklab/ranklab/retrieval"
)

// words returns "w0 w1 ... w{n-1}" with the words at the given positions replaced.
func wordText(n int, replaced ...int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = fmt.Sprintf("w%d", i)
	}
	for _, i := range replaced {
		w[i] = "other"
	}
	return strings.Join(w, " ")
}

func TestTwins(t *testing.T) {
	var every7 []int
	for i := 0; i < 200; i += 7 {
		every7 = append(every7, i)
	}
	docs := []retrieval.Document{
		{ID: "d1", Text: "The Quick  brown fox"},
		{ID: "d2", Title: "the", Text: "quick brown FOX\n"}, // title + text: the same words
		{ID: "d3", Text: wordText(200)},
		{ID: "d4", Text: wordText(200, 100)},       // one word changed: near twin of d3
		{ID: "d5", Text: wordText(200, every7...)}, // 29 words changed: no twin
		{ID: "d6", Title: " ", Text: "\t"},         // empty
		{ID: "d7", Text: "short text"},
	}
	qrels := eval.Qrels{
		"q1": {"d1": 1, "d3": 0},           // d2 and d4 unjudged for q1
		"q2": {"d1": 1, "d2": 0, "dX": 1},  // both twins judged; dX not in the corpus
		"q3": {"d4": -1, "d7": 2, "d6": 1}, // -1 is not judged; d6 has no text
	}
	r := Twins(docs, qrels, TwinOptions{})
	if !reflect.DeepEqual(r.Exact, [][]string{{"d1", "d2"}}) || !reflect.DeepEqual(r.Empty, []string{"d6"}) {
		t.Errorf("exact %v empty %v", r.Exact, r.Empty)
	}
	// 196 shingles each; word 100 is in the 5 shingles starting at 96..100: |∩| = 191, |∪| = 201.
	if want := []nearTwin{{"d3", "d4", 191.0 / 201}}; !reflect.DeepEqual(r.Near, want) {
		t.Errorf("near %v, want %v", r.Near, want)
	}
	want := []twinPair{{"q1", "d1", 1, "d2", true}, {"q1", "d3", 0, "d4", false}}
	if !reflect.DeepEqual(r.TwinPairs, want) || r.JudgedWithTwin != 2 || r.RelevantTwin != 1 {
		t.Errorf("twin pairs %v (%d, relevant %d), want %v", r.TwinPairs, r.JudgedWithTwin, r.RelevantTwin, want)
	}
	// Judged: q1 d1 d3, q2 d1 d2, q3 d6 d7 (d4's -1 is not a judgment, dX is not in the corpus).
	if r.Judged != 6 || !reflect.DeepEqual(r.Unknown, []string{"dX"}) {
		t.Errorf("judged %d unknown %v", r.Judged, r.Unknown)
	}
	if want := []twinPair{{Query: "q3", Doc: "d6", Grade: 1}}; !reflect.DeepEqual(r.EmptyJudged, want) {
		t.Errorf("judged without text %v, want %v", r.EmptyJudged, want)
	}
	// A threshold above 191/201 leaves d3 and d4 apart.
	if r := Twins(docs, nil, TwinOptions{Threshold: 0.96}); len(r.Near) != 0 || r.TwinPairs != nil {
		t.Errorf("threshold 0.96: near %v", r.Near)
	}
}

func TestTwinsNearGroups(t *testing.T) {
	// An exact pair (a, b) near d: one pair of groups, named by their first IDs (b is a's exact
	// twin); texts under 5 words are one shingle, so "x y z" and "x y z w" share none.
	docs := []retrieval.Document{
		{ID: "a", Text: wordText(300)}, {ID: "b", Text: wordText(300)}, {ID: "d", Text: wordText(300, 299)},
		{ID: "s1", Text: "x y z"}, {ID: "s2", Text: "x y z w"},
	}
	r := Twins(docs, nil, TwinOptions{})
	// Word 299 is in the last shingle only: 295 of 297 shingles shared.
	j := 295.0 / 297
	if want := []nearTwin{{"a", "d", j}}; !reflect.DeepEqual(r.Near, want) || r.Method != "exhaustive" {
		t.Errorf("near %v, want %v", r.Near, want)
	}
	if got := jaccard(shingles("x y z"), shingles("x y z w")); got != 0 {
		t.Errorf("short texts: J = %v, want 0", got)
	}
}

// TestTwinsCranfield: on Cranfield the MinHash candidates find every pair that the brute force
// over all 979,300 pairs finds at J >= 0.5 (three pairs, the closest 1274 ~ 1319 at 0.625), and
// the two empty documents (471, 995; query 125 judges 995 relevant).
func TestTwinsCranfield(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the brute force over Cranfield's pairs takes about 10 s")
	}
	dir := sharedtest.Path(t, "data", "cranfield")
	docs, err := retrieval.ReadCorpusFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	qrels, err := eval.ReadQrelsFile(filepath.Join(dir, "qrels", "test.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	r := Twins(docs, qrels, TwinOptions{Threshold: 0.5})
	sh := make([][]uint64, len(docs))
	for i, d := range docs {
		if text := normalText(d); text != "" {
			sh[i] = shingles(text)
		}
	}
	var brute []nearTwin
	for i := range docs {
		for k := i + 1; k < len(docs) && sh[i] != nil; k++ {
			if sh[k] == nil {
				continue
			}
			if j := jaccard(sh[i], sh[k]); j >= 0.5 {
				a, b := docs[i].ID, docs[k].ID
				if a > b {
					a, b = b, a
				}
				brute = append(brute, nearTwin{a, b, j})
			}
		}
	}
	slices.SortFunc(brute, func(x, y nearTwin) int { return cmp.Or(cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B)) })
	if !reflect.DeepEqual(r.Near, brute) || len(brute) != 3 {
		t.Errorf("MinHash found %v, brute force %v", r.Near, brute)
	}
	if !reflect.DeepEqual(r.Empty, []string{"471", "995"}) || len(r.Exact) != 0 || len(r.EmptyJudged) != 1 {
		t.Errorf("empty %v exact %v judged without text %v", r.Empty, r.Exact, r.EmptyJudged)
	}
	t.Logf("Cranfield: %d near pairs at J >= 0.5 (%d candidates verified), e.g. %v", len(r.Near), r.Candidates, r.Near[0])
}
