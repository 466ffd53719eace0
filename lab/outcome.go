package lab

import (
	"github.com/ranklab/ranklab/chunking"
	"github.com/ranklab/ranklab/eval"
)

// An Item is one row of the lab's ranking: its rank after reranking (Rank) and before (FirstRank,
// its first-stage rank), the candidate's data, whether it sits inside the top K and whether its
// grade reaches MinGrade.
type Item struct {
	Rank, FirstRank int
	Doc, Label      string
	Grade           int
	FirstScore      float64
	RerankScore     float64
	InsideK         bool
	Relevant        bool
}

// Metrics are the lab's measures of one ranking at depth K (see State for the formulas).
// Rerank is the rerank depth of the ranking, Denominator is R (recall's denominator) and
// RelevantInK counts the items with grade >= MinGrade in the top K.
type Metrics struct {
	K           int
	Rerank      int
	Precision   float64
	Recall      float64
	MRR         float64
	NDCG        float64
	RelevantInK int
	Denominator int
}

// Outcome is everything the lab shows for one state: the query the ranking answers (empty for a
// hand-built ranking), the ranking after reranking (Items, in rank order) and before (FirstStage, in first-stage order, with InsideK and Relevant for that order),
// the judged items the candidate list missed, the metrics of both rankings, the footprint, the
// two readings, the state's link, and the metrics swept over k and over the rerank depth.
type Outcome struct {
	State        State
	Query        string
	Items        []Item
	FirstStage   []Item
	Missed       []Candidate
	Metrics      Metrics
	FirstMetrics Metrics   // the same measures on the first-stage order (rerank depth 0)
	SweepK       []Metrics // the metrics at k = 1..N (element i is k = i+1) at the state's rerank depth
	SweepRerank  []Metrics // the metrics at rerank depth 0..N (element i is depth i) at the state's k
	Footprint    chunking.Footprint
	Reading      []string // metric reading (five sentences: precision, recall, the first relevant item, nDCG, reranking)
	ChunkReading []string // chunking reading (stride, chunk count, duplication)
	Link         string
}

// Outcome validates the state (the error names the field and its allowed range) and computes
// the lab on the synthetic ranking s.Synthetic().
func (s State) Outcome() (Outcome, error) {
	syn, err := s.checked()
	if err != nil {
		return Outcome{}, err
	}
	return s.outcome(syn), nil
}

// OutcomeFor computes the lab on a given ranking, e.g. a hand-built one, in place of the seeded
// one: Seed and Size are not used (they are kept in Outcome.State). Besides the state's fields it
// checks the ranking: grades within 0..MaxGrade, finite scores, distinct non-empty doc IDs (errors name
// the item, e.g. "candidates[3].grade: 5 must be in 0..3"). syn is not modified.
func (s State) OutcomeFor(syn Synthetic) (Outcome, error) {
	if err := s.validateFor(syn); err != nil {
		return Outcome{}, err
	}
	return s.outcome(syn), nil
}

func (s State) outcome(syn Synthetic) Outcome {
	order := RerankOrder(syn.Candidates, s.Rerank)
	j := s.judgments(syn)
	ranked := rankedGrades(syn.Candidates, order)
	o := Outcome{
		State:        s,
		Query:        syn.Query,
		Items:        s.items(syn.Candidates, order),
		FirstStage:   s.items(syn.Candidates, nil),
		Missed:       append([]Candidate(nil), syn.Missed...),
		Metrics:      s.metrics(j, ranked, s.K, s.Rerank),
		FirstMetrics: s.metrics(j, rankedGrades(syn.Candidates, nil), s.K, 0),
		SweepK:       make([]Metrics, len(syn.Candidates)),
		SweepRerank:  make([]Metrics, len(syn.Candidates)+1),
		Link:         s.Link(),
	}
	for i := range o.SweepK {
		o.SweepK[i] = s.metrics(j, ranked, i+1, s.Rerank)
	}
	for d := range o.SweepRerank {
		o.SweepRerank[d] = s.metrics(j, rankedGrades(syn.Candidates, RerankOrder(syn.Candidates, d)), s.K, d)
	}
	o.Footprint, _ = chunking.NewFootprint(s.Corpus, s.Chunk, s.Overlap) // validated
	o.Reading = metricReading(o)
	o.ChunkReading = chunkReading(o.Footprint)
	return o
}

// items lists the candidates in the given order (nil: first-stage order).
func (s State) items(cands []Candidate, order []int) []Item {
	out := make([]Item, len(cands))
	for rank := range cands {
		i := rank
		if order != nil {
			i = order[rank]
		}
		c := cands[i]
		out[rank] = Item{
			Rank: rank + 1, FirstRank: i + 1,
			Doc: c.Doc, Label: c.Label, Grade: c.Grade,
			FirstScore: c.FirstScore, RerankScore: c.RerankScore,
			InsideK: rank < s.K, Relevant: c.Grade >= s.MinGrade,
		}
	}
	return out
}

// judgments are the judged lists the metrics compare a ranking with: every judged grade
// (candidates and missed items, for precision, MRR and nDCG) and, for recall, a list whose count
// of grades >= MinGrade is exactly R: the candidates' grades plus R − found placeholders of grade
// MinGrade (the missed items when Total is 0, the user's raised or lowered count otherwise).
type judgments struct {
	judged, forRecall []int
	r                 int
}

func (s State) judgments(syn Synthetic) judgments {
	cands := syn.Candidates
	var j judgments
	judged := make([]int, 0, len(cands)+len(syn.Missed))
	for _, c := range cands {
		judged = append(judged, c.Grade)
	}
	for _, c := range syn.Missed {
		judged = append(judged, c.Grade)
	}
	j.judged = judged
	found, known := relevantCounts(syn, s.MinGrade)
	j.r = known
	if s.Total != 0 {
		j.r = s.Total
	}
	forRecall := make([]int, 0, len(cands)+j.r-found)
	for _, c := range cands {
		forRecall = append(forRecall, c.Grade)
	}
	for range j.r - found {
		forRecall = append(forRecall, s.MinGrade)
	}
	j.forRecall = forRecall
	return j
}

// rankedGrades returns the candidates' grades in the given order (nil: first-stage order).
func rankedGrades(cands []Candidate, order []int) []int {
	ranked := make([]int, len(cands))
	for rank := range cands {
		i := rank
		if order != nil {
			i = order[rank]
		}
		ranked[rank] = cands[i].Grade
	}
	return ranked
}

// metrics evaluates the ranked grades at depth k with the evaluator's measures (depth is the
// rerank depth that produced them, recorded in the result).
func (s State) metrics(j judgments, ranked []int, k, depth int) Metrics {
	m := Metrics{
		K:           k,
		Rerank:      depth,
		Precision:   eval.P(k).WithRel(s.MinGrade).Compute(ranked, j.judged),
		Recall:      eval.Recall(k).WithRel(s.MinGrade).Compute(ranked, j.forRecall),
		MRR:         eval.RRAt(k).WithRel(s.MinGrade).Compute(ranked, j.judged),
		NDCG:        eval.NDCGExp(k).Compute(ranked, j.judged),
		Denominator: j.r,
	}
	for _, g := range ranked[:min(k, len(ranked))] {
		if g >= s.MinGrade {
			m.RelevantInK++
		}
	}
	return m
}
