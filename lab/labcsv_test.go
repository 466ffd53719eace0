package lab

import (
	"bytes"
	"errors"
	"github.com/ranklab/ranklab/eval"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func csvOf(t testing.TB, o Outcome) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteCSV(&b, o); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestCSVRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 200; i++ {
		s := randomState(r)
		if s.Size > 60 {
			s.Size = 1 + r.IntN(60)
			s.Rerank = min(s.Rerank, s.Size)
			s.Total = 0
		}
		o, err := s.Outcome()
		if err != nil {
			t.Fatalf("%+v: %v", s, err)
		}
		text := csvOf(t, o)
		back, err := ReadCSV(strings.NewReader(text))
		if err != nil {
			t.Fatalf("ReadCSV of %+v: %v\n%s", s, err, text)
		}
		if !reflect.DeepEqual(back, o) {
			t.Fatalf("round trip of %+v differs:\n got %+v\nwant %+v", s, back, o)
		}
	}
}

func TestCSVRoundTripHandBuilt(t *testing.T) {
	syn := Synthetic{
		Candidates: []Candidate{
			{Doc: "doc,1", Label: `a "quoted", label`, Grade: 2, FirstScore: 0.1 + 0.2, RerankScore: -1e-300},
			{Doc: "doc\n2", Label: "two\nlines", Grade: 0, FirstScore: 1e300, RerankScore: 5},
			{Doc: "ü", Label: "", Grade: 3, FirstScore: -7, RerankScore: 5},
		},
		Missed: []Candidate{{Doc: "m", Label: "missed, with scores", Grade: 1, FirstScore: 2.5, RerankScore: 0.125}},
	}
	s := handState(2, 3, 2, 7)
	o, err := s.OutcomeFor(syn)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadCSV(strings.NewReader(csvOf(t, o)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, o) {
		t.Fatalf("round trip differs:\n got %+v\nwant %+v", back, o)
	}
}

func TestCSVLayout(t *testing.T) {
	o, err := DefaultState().Outcome()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(csvOf(t, o), "\n")
	wantStart := []string{"key,value", "k,5", "rerank,10", "rerank_quality,50", "grade,1", "total,0", "corpus,10000", "chunk,512", "overlap,128", "seed,2278", "n,20",
		"query,how do I make retrieval robust to real user queries?", "precision,0.6", "recall,0.375", "mrr,1"}
	for i, w := range wantStart {
		if lines[i] != w {
			t.Errorf("line %d = %q, want %q", i+1, lines[i], w)
		}
	}
	header := strings.Join(csvItemHeader, ",")
	at := -1
	for i, l := range lines {
		if l == header {
			at = i
		}
	}
	if at < 0 {
		t.Fatalf("no item header %q", header)
	}
	if got := lines[at+1]; got != "1,3,d03,answer extraction,3,13.26,0.7006,true,true" {
		t.Errorf("first item %q", got)
	}
	if got := lines[at+21]; got != ",,d21,dense retrieval recall,2,0,0,false,true" {
		t.Errorf("first missed item %q", got)
	}
}

// The query belongs to the stored ranking, as the labels do: an edited query is read back as it
// stands (no reading sentence quotes it).
func TestReadCSVQuery(t *testing.T) {
	o, err := DefaultState().Outcome()
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(csvOf(t, o), "query,how do I make retrieval robust to real user queries?\n",
		"query,\"how, then, do I make retrieval robust to real user queries?\"\n", 1)
	back, err := ReadCSV(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if want := "how, then, do I make retrieval robust to real user queries?"; back.Query != want {
		t.Errorf("query %q, want %q", back.Query, want)
	}
}

func TestReadCSVErrors(t *testing.T) {
	o, err := DefaultState().Outcome()
	if err != nil {
		t.Fatal(err)
	}
	good := csvOf(t, o)
	replace := func(old, new string) string {
		if !strings.Contains(good, old) {
			t.Fatalf("%q not in the CSV", old)
		}
		return strings.Replace(good, old, new, 1)
	}
	cases := []struct {
		name, text, want string
		sentinel         error
	}{
		{"empty", "", "csv: empty file", eval.ErrEmpty},
		{"bad header", replace("key,value", "key,val"), `csv:1: bad header: want "key,value", got ["key" "val"]`, eval.ErrHeader},
		{"edited metric", replace("precision,0.6", "precision,0.7"), "csv:13: precision 0.7 differs from the value recomputed from the state and ranking, 0.6", nil},
		{"edited grade", replace("1,3,d03,answer extraction,3,", "1,3,d03,answer extraction,2,"), "csv:", nil},
		{"unknown key", replace("k,5\n", "k,5\nfoo,1\n"), `csv:3: unknown key "foo"`, nil},
		{"repeated key", replace("k,5\n", "k,5\nk,5\n"), `csv:3: key "k" given twice (first on line 2)`, nil},
		{"missing state key", replace("n,20\n", ""), `state key "n" is missing`, nil},
		{"state key not an integer", replace("k,5\n", "k,five\n"), `csv:2: k: "five" is not an integer`, nil},
		{"invalid state", replace("k,5\n", "k,0\n"), "the stored state and ranking are invalid: k: 0 must be in 1..10000", nil},
		{"three fields", replace("k,5\n", "k,5,6\n"), "csv:2: wrong number of fields: want 2 fields (key,value), got 3", eval.ErrFieldCount},
		{"no ranking", good[:strings.Index(good, "rank,first_rank")], "no ranking section", nil},
		{"bad item header", replace("rank,first_rank,doc", "rank,first,doc"), "bad header", eval.ErrHeader},
		{"short item", replace(",,d21,dense retrieval recall,2,0,0,false,true", ",,d21,dense"), "wrong number of fields: want 9 fields, got 4", eval.ErrFieldCount},
		{"ranks out of order", replace("1,3,d03,", "2,3,d03,"), "rank 2, want 1 (items in rank order)", nil},
		{"first rank repeated", replace("1,3,d03,", "1,2,d03,"), "first_rank 2 is not a free rank in 1..20", nil},
		{"bad score", replace(",13.26,", ",NaN,"), `score is not a finite number: first_score "NaN"`, eval.ErrScore},
		{"bad grade", replace(",d03,answer extraction,3,", ",d03,answer extraction,x,"), `grade is not an integer: grade "x"`, eval.ErrGrade},
		{"missing query", replace("query,how do I make retrieval robust to real user queries?\n", ""), `key "query" is missing`, nil},
		{"bad flag", replace("0.7006,true,true", "0.7006,yes,true"), `inside_k "yes" is not true or false`, nil},
		{"missed relevant flag", replace(",d21,dense retrieval recall,2,0,0,false,true", ",d21,dense retrieval recall,2,0,0,false,false"), "missed item d21: want inside_k false and relevant true", nil},
		{"edited reading", replace("precision@5 = 3/5", "precision@5 = 4/5"), "reading sentence 1 differs", nil},
		{"dropped reading", replace("chunk_reading,\"This is storage", "x_reading,\"This is storage"), `unknown key "x_reading"`, nil},
		{"missing sentence", replace("chunk_reading,\"This is storage and redundant near-duplicate candidates, not a relevance gain: whether a chunking helps retrieval needs a retriever and qrels.\"\n", ""), "chunk_reading: 2 sentences, the recomputed reading has 3", nil},
		{"bad quoting", replace("k,5\n", "k,\"5\n"), "csv:", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadCSV(strings.NewReader(c.text))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want it to contain %q", err, c.want)
			}
			var pe *eval.ParseError
			if !errors.As(err, &pe) {
				t.Errorf("error %T is not a *ParseError", err)
			}
			if c.sentinel != nil && !errors.Is(err, c.sentinel) {
				t.Errorf("error %v does not unwrap to %v", err, c.sentinel)
			}
		})
	}
}

// FuzzReadCSV: ReadCSV never panics, and what it accepts writes back to a CSV it reads equal.
func FuzzReadCSV(f *testing.F) {
	o, _ := DefaultState().Outcome()
	small := handState(2, 1, 1, 0)
	os, _ := small.OutcomeFor(Synthetic{Candidates: cands([]int{1, 0}, []float64{0.2, 0.9}), Missed: missedOf(3)})
	for _, seed := range []string{csvOf(f, o), csvOf(f, os), "", "key,value\n", "key,value\nrank,first_rank,doc,label,grade,first_score,rerank_score,inside_k,relevant\n"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		o, err := ReadCSV(strings.NewReader(text))
		if err != nil {
			return
		}
		back, err := ReadCSV(strings.NewReader(csvOf(t, o)))
		if err != nil || !reflect.DeepEqual(back, o) {
			t.Fatalf("accepted CSV does not round-trip: %v", err)
		}
	})
}
