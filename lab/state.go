package lab

import (
	"fmt"
	"github.com/ranklab/ranklab/chunking"
	"math"
)

// State holds every control of the lab: the ranking panel (K, Rerank, RerankQuality, MinGrade,
// Total over the synthetic ranking newSynthetic(Seed, Size, DefaultQuality, RerankQuality/100))
// and the chunking panel (Corpus, Chunk, Overlap). It is a plain value: State.Outcome computes
// everything the lab shows from it, so notebooks, charts, the command line and tests agree.
//
// The ranking panel. Candidates are the first-stage ranking; the first Rerank of them are
// reordered by the reranker score (ties keep the first-stage order), the rest keep their order and
// nothing outside the list can enter (RerankOrder). RerankQuality, a percentage, is how closely
// the reranker score follows the grade: 0 is noise, 100 orders the prefix by grade (newSynthetic
// gives the formula); it changes nothing but the reranker scores. An item is relevant when its
// grade is at least MinGrade. With the ranked grades and the judged grades (candidates + missed items), the metrics
// are computed by the evaluator's measures, one source of truth:
//
//	Precision = P(K).WithRel(MinGrade)       relevant in the top K / K (K beyond the list still divides by K)
//	Recall    = Recall(K).WithRel(MinGrade)  relevant in the top K / R
//	MRR       = RRAt(K).WithRel(MinGrade)    1 / rank of the first relevant item if it is within K, else 0
//	NDCG      = NDCGExp(K)                   gain 2^grade − 1, discount log2(rank+1); the ideal DCG sorts
//	                                         the grades of ALL judged items, retrieved or not, cut at K
//
// MinGrade changes the binary measures only; nDCG uses the grades themselves. R, recall's
// denominator, is Total, or when Total is 0 the qrels' count of items with grade >= MinGrade
// (candidates and missed items). A user may raise Total above that count (partial judgments:
// relevant items nobody judged); Total may not fall below the relevant items found in the ranking,
// so recall never exceeds 1. A raised denominator adds no grades: nDCG's ideal still comes from the
// judged grades only (the reading says so).
//
// The chunking panel: see Footprint.
//
// The defaults (DefaultState, Reset) are K=5, Rerank=10, RerankQuality=50, MinGrade=1, Total=0,
// Corpus=10000, Chunk=512, Overlap=128, Seed=DefaultSeed, Size=20. The default seed was picked
// so that every control visibly matters. Its first stage puts the non-relevant d01 first
// (MRR@5 = 1/2) and holds 2 relevant items in the top 5 (d02, d03). The half-noise reranker
// reorders the first 10: it lifts the grade-3 d03 to rank 1 and moves d09 (grade 1) and d10
// (grade 0: the reranker's mistake) into the top 5, pushing d05 and d01 out, and it ranks the
// relevant d02 below two non-relevant items (P@5 2/5 → 3/5, MRR@5 1/2 → 1, nDCG@5 0.368 →
// 0.715). A perfect reranker (RerankQuality=100) orders the first 10 by grade, d03, d02, d09
// first (nDCG@5 0.725); a noise reranker hurts (RerankQuality=0: P@5 2/5 → 1/5, nDCG@5 0.368 →
// 0.045). The relevant d14 and d15 sit below the rerank depth (a depth of 14 lifts d14 into the
// top 5; from 15 on, both); the grades differ (one 3, grade-1 ties, grade-2 items only in the
// qrels, so grade=2 drops P@5 to 1/5); the missed d21, d22, d23 (grades 2, 2, 1) keep recall at
// most 5/8 even at k = 20. The query is "how do I make retrieval robust to real user queries?".
// The default chunking has stride 384, 26 chunks, 13200 indexed tokens, 3200 duplicated (32%).
//
// Allowed ranges (State.Validate): K 1..10000 (K beyond the list is allowed, and explained by the
// reading), Size 1..1000, Rerank 0..Size, RerankQuality 0..100, MinGrade 1..MaxGrade, Total 0
// or (relevant items in the ranking)..100000, Corpus 0..MaxCorpus, Chunk 1..MaxChunk, Overlap
// 0..Chunk−1, Seed any.
type State struct {
	K             int // evaluation depth
	Rerank        int // rerank depth: reorder only the first Rerank candidates (0 = first-stage order)
	RerankQuality int // reranker quality in percent: 0 = noise, 75 and above = orders by grade (newSynthetic)
	MinGrade      int // minimum grade counted as relevant
	Total         int // recall's denominator; 0 means the qrels' count of relevant items
	Corpus        int // corpus tokens
	Chunk         int // chunk size in tokens
	Overlap       int // overlap between neighbouring chunks in tokens
	Seed          int64
	Size          int // number of candidates
}

// Limits of the ranking panel.
const (
	maxK     = 10000  // evaluation depth
	maxSize  = 1000   // candidates in a synthetic ranking
	maxTotal = 100000 // recall denominator: 100 times the largest list, enough to show a recall made small by unjudged relevant items

	maxRerankQuality = 100 // reranker quality in percent
)

// DefaultSeed is the seed of the default ranking (see State).
const DefaultSeed = 2278

// DefaultState returns the documented defaults (see State).
func DefaultState() State {
	var s State
	for _, f := range Fields {
		s = f.Set(s, f.Default)
	}
	return s
}

// Reset sets s to DefaultState.
func (s *State) Reset() { *s = DefaultState() }

// Synthetic returns the state's ranking:
//
//	newSynthetic(s.Seed, s.Size, DefaultQuality, s.RerankQuality/100)
//
// It panics when Size is outside 0..MaxSize or RerankQuality outside 0..100; Validate first.
func (s State) Synthetic() Synthetic {
	if s.Size < 0 || s.Size > maxSize {
		panic(fmt.Sprintf("lab: State.Synthetic: size %d outside 0..%d", s.Size, maxSize))
	}
	if s.RerankQuality < 0 || s.RerankQuality > maxRerankQuality {
		panic(fmt.Sprintf("lab: State.Synthetic: reranker quality %d outside 0..%d", s.RerankQuality, maxRerankQuality))
	}
	return newSynthetic(s.Seed, s.Size, DefaultQuality, float64(s.RerankQuality)/100)
}

// Validate checks every field against its allowed range (see State). The error is a *chunking.FieldError
// naming the field and the range, e.g. "overlap: 128 must be in 0..127 (below chunk size 128)".
func (s State) Validate() error {
	_, err := s.checked()
	return err
}

// checked validates the state and returns its synthetic ranking.
func (s State) checked() (Synthetic, error) {
	if s.Size < 1 || s.Size > maxSize {
		return Synthetic{}, rangeError("n", s.Size, 1, maxSize, " (candidates in the ranking)")
	}
	if err := s.checkRerankQuality(); err != nil {
		return Synthetic{}, err
	}
	syn := s.Synthetic()
	if err := s.validateFor(syn); err != nil {
		return Synthetic{}, err
	}
	return syn, nil
}

// validateFor checks the state against a given ranking (Seed and Size are not used; the
// reranker quality is checked for its range but the ranking's own reranker scores are used).
func (s State) validateFor(syn Synthetic) error {
	n := len(syn.Candidates)
	if s.K < 1 || s.K > maxK {
		return rangeError("k", s.K, 1, maxK, "")
	}
	if s.Rerank < 0 || s.Rerank > n {
		return rangeError("rerank", s.Rerank, 0, n, fmt.Sprintf(" (the list has %d candidates)", n))
	}
	if err := s.checkRerankQuality(); err != nil {
		return err
	}
	if s.MinGrade < 1 || s.MinGrade > MaxGrade {
		return rangeError("grade", s.MinGrade, 1, MaxGrade, fmt.Sprintf(" (grades run 0..%d; 0 is not relevant)", MaxGrade))
	}
	if _, err := chunking.NewFootprint(s.Corpus, s.Chunk, s.Overlap); err != nil { // its range checks
		return err
	}
	if err := checkSynthetic(syn); err != nil {
		return err
	}
	found, known := relevantCounts(syn, s.MinGrade)
	if s.Total != 0 && (s.Total < found || s.Total > maxTotal) {
		return &fieldError{Field: "total", Msg: fmt.Sprintf(
			"%d must be 0 (the qrels' count, %d) or in %d..%d (at least the %d items with grade >= %d in the ranking)",
			s.Total, known, found, maxTotal, found, s.MinGrade)}
	}
	return nil
}

func (s State) checkRerankQuality() error {
	if s.RerankQuality < 0 || s.RerankQuality > maxRerankQuality {
		return rangeError("rerank_quality", s.RerankQuality, 0, maxRerankQuality, " (percent: 0 = noise, 75 and above = orders by grade)")
	}
	return nil
}

// checkSynthetic checks a (possibly hand-built) ranking: grades within 0..MaxGrade, finite
// scores, doc IDs present and distinct across candidates and missed items.
func checkSynthetic(syn Synthetic) error {
	seen := map[string]bool{}
	for _, part := range []struct {
		name string
		list []Candidate
	}{{"candidates", syn.Candidates}, {"missed", syn.Missed}} {
		for i, c := range part.list {
			field := fmt.Sprintf("%s[%d]", part.name, i)
			if c.Doc == "" {
				return &fieldError{Field: field, Msg: "empty doc ID"}
			}
			if seen[c.Doc] {
				return &fieldError{Field: field, Msg: fmt.Sprintf("doc ID %q appears twice", c.Doc)}
			}
			seen[c.Doc] = true
			if math.IsNaN(c.FirstScore) || math.IsInf(c.FirstScore, 0) {
				return &fieldError{Field: field + ".first_score", Msg: fmt.Sprintf("%v is not a finite number", c.FirstScore)}
			}
			if math.IsNaN(c.RerankScore) || math.IsInf(c.RerankScore, 0) {
				return &fieldError{Field: field + ".rerank_score", Msg: fmt.Sprintf("%v is not a finite number", c.RerankScore)}
			}
			if c.Grade < 0 || c.Grade > MaxGrade {
				return rangeError(field+".grade", c.Grade, 0, MaxGrade, "")
			}
		}
	}
	return nil
}

// relevantCounts returns the items with grade >= minGrade in the ranking (found) and in the
// qrels, candidates and missed items (known).
func relevantCounts(syn Synthetic, minGrade int) (found, known int) {
	for _, c := range syn.Candidates {
		if c.Grade >= minGrade {
			found++
		}
	}
	known = found
	for _, c := range syn.Missed {
		if c.Grade >= minGrade {
			known++
		}
	}
	return found, known
}

// fieldError is chunking.FieldError, the error of an invalid value of one named field of the
// state (Error prints "field: msg"): the chunking panel's errors are the same type.
type fieldError = chunking.FieldError

// rangeError returns a *fieldError saying that field's value v must lie in lo..hi, followed by
// note, worded as the chunking panel's.
func rangeError(field string, v, lo, hi int, note string) error {
	return &fieldError{Field: field, Msg: fmt.Sprintf("%d must be in %d..%d%s", v, lo, hi, note)}
}
