package retrieval_test

import (
	"fmt"

	"github.com/ranklab/ranklab/retrieval"
)

// Documents cut into the lab's footprint windows of 4 tokens with 1 token of overlap.
func ExampleTokenized_Chunks() {
	tok, _ := retrieval.NewTokenizer()
	docs := []retrieval.Document{{ID: "d1", Text: "one two three four five six seven"}}
	chunks, _ := retrieval.Tokenize(tok, docs).Chunks(tok, retrieval.Chunking{Chunk: 4, Overlap: 1})
	for _, c := range chunks {
		fmt.Printf("%v %q\n", c.Window, c.Text)
	}
	// Output:
	// {0 4} "one two three four"
	// {3 7} " four five six seven"
}

// A BM25 search over whole documents: ties are ranked as trec_eval ranks them.
func ExampleSearcher_Search() {
	docs := []retrieval.Document{
		{ID: "d1", Title: "Zebras", Text: "Zebras graze on the savanna."},
		{ID: "d2", Title: "Quartz", Text: "Quartz is a mineral."},
	}
	s, _ := retrieval.Build(retrieval.Collection{Docs: docs}, retrieval.Whole, retrieval.Anserini, retrieval.MaxP)
	for _, d := range s.Search(retrieval.Query{ID: "q", Text: "grazing zebra"}, 10) {
		fmt.Println(d.Doc)
	}
	// Output:
	// d1
}
