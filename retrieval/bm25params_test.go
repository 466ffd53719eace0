package retrieval

import (
	"math"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
	"github.com/ranklab/ranklab/rag"
)

// TestSearcherBM25Parameters: a Searcher ranks with its BM25 model's own k1 and b (a BM25 other
// than Anserini's was once silently scored with k1 = 0.9, b = 0.4), also when a Searcher is copied
// with another BM25 model. Expected scores are the formula by hand on three one-field documents
// of 3, 4 and 1 terms (avgdl = 8/3; lengths below 24 are stored exactly) for the query "apple",
// found in d1 twice and in d2 once (N = 3, n = 2):
//
//	idf = ln(1 + (3 − 2 + 0.5) / (2 + 0.5)) = ln(1.6)
//	d1  = idf · 2 / (2 + k1·(1 − b + b·3/(8/3)))
//	d2  = idf · 1 / (1 + k1·(1 − b + b·4/(8/3)))
func TestSearcherBM25Parameters(t *testing.T) {
	corpus := `{"_id":"d1","title":"","text":"apple apple banana"}
{"_id":"d2","title":"","text":"apple cherry cherry cherry"}
{"_id":"d3","title":"","text":"banana"}
`
	dir := sharedtest.WriteTree(t, map[string]string{"corpus.jsonl": corpus, "queries.jsonl": `{"_id":"1","text":"apple"}` + "\n",
		"qrels/test.tsv": "query-id\tcorpus-id\tscore\n1\td1\t1\n"})
	c, err := ReadCollection(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	idf := math.Log(1.6)
	want := func(p BM25) map[string]float64 {
		return map[string]float64{
			"d1": idf * 2 / (2 + p.K1*(1-p.B+p.B*3/(8.0/3))),
			"d2": idf * 1 / (1 + p.K1*(1-p.B+p.B*4/(8.0/3))),
		}
	}
	check := func(name string, s *Searcher, p BM25) {
		t.Helper()
		got := s.Search(c.Queries[0], 10)
		if len(got) != 2 {
			t.Fatalf("%s: %d documents, want 2: %v", name, len(got), got)
		}
		for _, d := range got {
			if w := want(p)[d.Doc]; math.Abs(d.Score-w) > 1e-12 {
				t.Errorf("%s: %s scores %.15f, want %.15f", name, d.Doc, d.Score, w)
			}
		}
	}
	textbook := BM25{K1: 1.2, B: 0.75}
	for _, p := range []BM25{Anserini, textbook, {K1: 2, B: 0}} {
		s, err := Build(c, Whole, p, rag.MaxP)
		if err != nil {
			t.Fatal(err)
		}
		check(p.String(), s, p)
	}
	// The two settings must rank differently here, or the test could not tell them apart.
	if a, b := want(Anserini), want(textbook); a["d1"]/a["d2"] == b["d1"]/b["d2"] {
		t.Fatal("the test collection does not separate the parameters")
	}
	s, err := Build(c, Whole, Anserini, rag.MaxP)
	if err != nil {
		t.Fatal(err)
	}
	copied := *s
	copied.Model = textbook
	check("a copy with another BM25 model", &copied, textbook)
}
