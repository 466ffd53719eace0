package lab

// ScoredDoc is one line of a run: a doc ID and the score the system gave it.
type ScoredDoc struct {
	Doc   string
	Score float64
}

// Run is a TREC run. Queries maps a query ID to its docs in file order (not yet ranked: see
// Rank). Tag is the run tag of the first line (the sixth field).
type Run struct {
	Tag     string
	Queries map[string][]ScoredDoc
}
