package live

import (
	"github.com/ranklab/ranklab/chunking"
	"github.com/ranklab/ranklab/lab"
)

// A field is one control of the panel, bound to one int field of lab.State. Name is the
// state's name in the link and on the command line (k, rerank, grade, ...), used as the
// control's data-field attribute and as the key of the messages between page and kernel.
type field struct {
	Name   string
	Label  string
	Help   string
	Number bool // a number input instead of a slider
	get    func(s lab.State) int
	set    func(s *lab.State, v int)
	bounds func(s lab.State) (lo, hi int) // the control's range for state s
}

// fields lists the controls in display order. Ranges are the control's, chosen for dragging;
// the state's own rules (lab.State.Validate) still decide what is valid, and a slider can reach
// invalid combinations (e.g. total below the relevant items found) to show the validation
// message. The one rule the UI enforces itself is overlap < chunk: the overlap slider's maximum
// follows the chunk size.
var fields = []field{
	{Name: "k", Label: "k (depth)", Help: "metrics look at the top k",
		get: func(s lab.State) int { return s.K }, set: func(s *lab.State, v int) { s.K = v },
		bounds: func(s lab.State) (int, int) { return 1, max(s.Size, s.K, 1) }},
	{Name: "rerank", Label: "rerank depth", Help: "the reranker reorders only the first n (0 = off)",
		get: func(s lab.State) int { return s.Rerank }, set: func(s *lab.State, v int) { s.Rerank = v },
		bounds: func(s lab.State) (int, int) { return 0, max(s.Size, s.Rerank) }},
	{Name: "grade", Label: "minimum grade", Help: "grades at or above count as relevant",
		get: func(s lab.State) int { return s.MinGrade }, set: func(s *lab.State, v int) { s.MinGrade = v },
		bounds: func(s lab.State) (int, int) { return 1, max(lab.MaxGrade, s.MinGrade) }},
	{Name: "total", Label: "total relevant", Help: "recall's denominator (0 = the qrels' count)",
		get: func(s lab.State) int { return s.Total }, set: func(s *lab.State, v int) { s.Total = v },
		bounds: func(s lab.State) (int, int) { return 0, max(2*s.Size, s.Total) }},
	{Name: "corpus", Label: "corpus tokens", Help: "size of the corpus to chunk", Number: true,
		get: func(s lab.State) int { return s.Corpus }, set: func(s *lab.State, v int) { s.Corpus = v },
		bounds: func(s lab.State) (int, int) { return 0, chunking.MaxCorpus }},
	{Name: "chunk", Label: "chunk size", Help: "tokens per chunk",
		get: func(s lab.State) int { return s.Chunk }, set: func(s *lab.State, v int) { s.Chunk = v },
		bounds: func(s lab.State) (int, int) { return 1, max(2048, s.Chunk) }},
	{Name: "overlap", Label: "overlap", Help: "tokens shared by neighbouring chunks (below the chunk size)",
		get: func(s lab.State) int { return s.Overlap }, set: func(s *lab.State, v int) { s.Overlap = v },
		bounds: func(s lab.State) (int, int) { return 0, max(s.Chunk-1, 0) }},
}

// apply returns s with the given control values set (unknown names are ignored: they cannot
// come from the panel) and the overlap kept below the chunk size.
func apply(s lab.State, values map[string]int) lab.State {
	for _, f := range fields {
		if v, ok := values[f.Name]; ok {
			f.set(&s, v)
		}
	}
	return keepOverlapBelowChunk(s)
}

// keepOverlapBelowChunk lowers Overlap to Chunk−1 when the chunk shrank below it (a chunk of
// size <= 0 is left to the state's validation).
func keepOverlapBelowChunk(s lab.State) lab.State {
	if s.Chunk >= 1 && s.Overlap > s.Chunk-1 {
		s.Overlap = s.Chunk - 1
	}
	return s
}

// controlValues returns the state's control values by field name.
func controlValues(s lab.State) map[string]int {
	m := make(map[string]int, len(fields))
	for _, f := range fields {
		m[f.Name] = f.get(s)
	}
	return m
}

// controlMax returns each slider's maximum for state s (the ranges follow the state).
func controlMax(s lab.State) map[string]int {
	m := make(map[string]int, len(fields))
	for _, f := range fields {
		if !f.Number {
			_, hi := f.bounds(s)
			m[f.Name] = hi
		}
	}
	return m
}
