package retrieval_test

import (
	"fmt"
	"maps"
	"slices"

	"github.com/ranklab/ranklab/rag"
	"github.com/ranklab/ranklab/retrieval"
)

// Documents cut into the lab's footprint windows of 4 tokens with 1 token of overlap: the chunk
// map gives each chunk's document and token window.
func ExampleSearcher_ChunkMap() {
	docs := []retrieval.Document{{ID: "d1", Text: "one two three four five six seven"}}
	s, _ := retrieval.Build(retrieval.Collection{Docs: docs}, retrieval.Chunking{Chunk: 4, Overlap: 1}, retrieval.Anserini, rag.MaxP)
	m := s.ChunkMap()
	for _, id := range slices.Sorted(maps.Keys(m)) {
		fmt.Println(id, m[id])
	}
	// Output:
	// d1#0 {d1 0 4}
	// d1#1 {d1 3 7}
}

// A BM25 search over whole documents: ties are ranked as trec_eval ranks them.
func ExampleSearcher_Search() {
	docs := []retrieval.Document{
		{ID: "d1", Title: "Zebras", Text: "Zebras graze on the savanna."},
		{ID: "d2", Title: "Quartz", Text: "Quartz is a mineral."},
	}
	s, _ := retrieval.Build(retrieval.Collection{Docs: docs}, retrieval.Whole, retrieval.Anserini, rag.MaxP)
	for _, d := range s.Search(retrieval.Query{ID: "q", Text: "grazing zebra"}, 10) {
		fmt.Println(d.Doc)
	}
	// Output:
	// d1
}
