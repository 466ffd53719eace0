package lab

// Qrels maps query ID -> doc ID -> integer grade. A grade >= the relevance level (default 1)
// is relevant; a grade below it is judged non-relevant; a negative grade means "judged, never
// relevant, zero gain, not counted in R" (trec_eval's "in pool, unjudged").
type Qrels map[string]map[string]int
