package lab

import (
	"fmt"
	"github.com/ranklab/ranklab/chunking"
	"slices"
	"strings"
)

// metricReading returns five plain sentences that read the outcome's metrics: what share of the
// top k clears the threshold (and what k beyond the list means); what share of R the top k
// recovers, where R is the qrels' count (recall against the judged relevant items, not every
// relevant item of the knowledge base) or a denominator the user raised (relevant items nobody
// judged) or lowered; where the first relevant item sits (its reciprocal rank, which is MRR for
// one query, and that RR ignores everything after that item); how ordering and grades move nDCG;
// and what reranking did (which items moved into or out of the top k, and precision, recall,
// nDCG and MRR before and after). Every number is taken from o.
func metricReading(o Outcome) []string {
	s, m := o.State, o.Metrics
	n := len(o.Items)
	found, known := 0, 0
	for _, it := range o.Items {
		if it.Relevant {
			found++
		}
	}
	known = found
	for _, c := range o.Missed {
		if c.Grade >= s.MinGrade {
			known++
		}
	}
	var out []string

	p := fmt.Sprintf("%d of the top %d items have grade >= %d: precision@%d = %d/%d = %s.",
		m.RelevantInK, s.K, s.MinGrade, s.K, m.RelevantInK, s.K, num(m.Precision))
	if s.K > n {
		p += fmt.Sprintf(" k = %d is beyond the %d candidates: the %d empty positions count as not relevant, so precision@%d is at most %d/%d.",
			s.K, n, s.K-n, s.K, found, s.K)
	}
	out = append(out, p)

	var r string
	if m.Denominator == 0 {
		r = fmt.Sprintf("No judged item has grade >= %d, so there is nothing to recover: recall@%d = 0 by convention.", s.MinGrade, s.K)
	} else {
		r = fmt.Sprintf("The top %d recover %d of the %d relevant items: recall@%d = %d/%d = %s.",
			s.K, m.RelevantInK, m.Denominator, s.K, m.RelevantInK, m.Denominator, num(m.Recall))
	}
	switch {
	case s.Total > known:
		r += fmt.Sprintf(" The denominator is raised to %d (the qrels hold %d items with grade >= %d): it counts %d relevant items nobody judged, so recall falls; a raised denominator adds no grades, so nDCG's ideal still comes from the judged grades only.",
			s.Total, known, s.MinGrade, s.Total-known)
	case s.Total != 0 && s.Total < known:
		r += fmt.Sprintf(" The denominator %d is below the qrels' %d items with grade >= %d, so recall is overstated.", s.Total, known, s.MinGrade)
	case m.Denominator > 0:
		r += fmt.Sprintf(" R = %d is the qrels' count of items with grade >= %d: this is recall against the judged relevant items, not against every relevant item in the knowledge base (unjudged ones are not counted).",
			m.Denominator, s.MinGrade)
	}
	if missed := missedRelevant(o.Missed, s.MinGrade); len(missed) > 0 && m.Denominator > 0 {
		r += fmt.Sprintf(" %s judged relevant but never retrieved (%s), so recall stays at most %d/%d even at k = %d.",
			count(len(missed), "item was", "items were"), strings.Join(missed, ", "), found, m.Denominator, n)
	}
	out = append(out, r)

	first := slices.IndexFunc(o.Items, func(it Item) bool { return it.Relevant })
	switch {
	case first < 0:
		out = append(out, fmt.Sprintf("No item in the ranking has grade >= %d: the reciprocal rank RR@%d = 0, and so is MRR@%d for this one query (MRR is the mean of RR over queries).",
			s.MinGrade, s.K, s.K))
	case first < s.K:
		after := m.RelevantInK - 1
		t := fmt.Sprintf("The first relevant item, %s, sits at rank %d: its reciprocal rank RR@%d = 1/%d = %s is MRR@%d for this one query (MRR is the mean of RR over queries). RR ignores everything after the first relevant item",
			o.Items[first].Doc, first+1, s.K, first+1, num(m.MRR), s.K)
		switch {
		case after == 1:
			t += fmt.Sprintf(": the other relevant item in the top %d does not change it", s.K)
		case after > 1:
			t += fmt.Sprintf(": the %d other relevant items in the top %d do not change it", after, s.K)
		}
		out = append(out, t+".")
	default:
		out = append(out, fmt.Sprintf("No relevant item in the top %d (the first one, %s, is at rank %d): RR@%d = 0, and so is MRR@%d for this one query (MRR is the mean of RR over queries).",
			s.K, o.Items[first].Doc, first+1, s.K, s.K))
	}

	top := make([]int, 0, min(s.K, n))
	for _, it := range o.Items[:min(s.K, n)] {
		top = append(top, it.Grade)
	}
	ideal := make([]int, 0, n+len(o.Missed))
	for _, it := range o.Items {
		ideal = append(ideal, it.Grade)
	}
	for _, c := range o.Missed {
		ideal = append(ideal, c.Grade)
	}
	slices.SortFunc(ideal, func(a, b int) int { return b - a })
	ideal = ideal[:min(s.K, len(ideal))]
	if len(ideal) == 0 || ideal[0] <= 0 {
		out = append(out, fmt.Sprintf("nDCG@%d = 0: no judged item has a positive grade.", s.K))
	} else {
		out = append(out, fmt.Sprintf("nDCG@%d = %s: the top %d hold grades %s against the ideal %s (the best judged grades, retrieved or not). Gain 2^grade − 1 and discount log2(rank+1) reward high grades early; the threshold does not change nDCG.",
			s.K, num(m.NDCG), s.K, gradeList(top), gradeList(ideal)))
	}

	out = append(out, rerankReading(o))
	return out
}

// rerankReading says what prefix reranking did to the top k.
func rerankReading(o Outcome) string {
	s, m, f := o.State, o.Metrics, o.FirstMetrics
	if s.Rerank == 0 {
		return "Reranking is off (depth 0): the ranking is the first-stage order."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Reranking reorders the first %d candidates by the reranker score; the rest keep their first-stage order and nothing outside the list can enter. ", s.Rerank)
	var in, out []string
	changed := false
	for _, it := range o.Items {
		if it.Rank != it.FirstRank {
			changed = true
		}
		if it.InsideK && it.FirstRank > s.K {
			in = append(in, fmt.Sprintf("%s (grade %d, from rank %d)", it.Doc, it.Grade, it.FirstRank))
		}
		if !it.InsideK && it.FirstRank <= s.K {
			out = append(out, fmt.Sprintf("%s (grade %d, to rank %d)", it.Doc, it.Grade, it.Rank))
		}
	}
	switch {
	case !changed:
		b.WriteString("It left the order unchanged: the reranker agrees with the first stage.")
	case s.Rerank <= s.K:
		fmt.Fprintf(&b, "The depth %d is within k = %d, so it reorders inside the top %d only: no item can enter or leave it.", s.Rerank, s.K, s.K)
	case len(in) > 0:
		fmt.Fprintf(&b, "It moved %s into the top %d and %s out of it.", strings.Join(in, ", "), s.K, strings.Join(out, ", "))
	default:
		fmt.Fprintf(&b, "It changed the order but not which items are in the top %d.", s.K)
	}
	fmt.Fprintf(&b, " Against the first stage: precision@%d %s → %s, recall@%d %s → %s, nDCG@%d %s → %s, MRR@%d %s → %s.",
		s.K, num(f.Precision), num(m.Precision), s.K, num(f.Recall), num(m.Recall), s.K, num(f.NDCG), num(m.NDCG), s.K, num(f.MRR), num(m.MRR))
	if m.NDCG < f.NDCG {
		fmt.Fprintf(&b, " The reranker lowered nDCG@%d on this query: reranking helps only as far as the reranker's scores follow the grades.", s.K)
	}
	return b.String()
}

// chunkReading returns plain sentences on a single corpus's footprint: the stride, the chunk
// count, the duplication, and that this is storage and redundant candidates, not a relevance gain.
func chunkReading(f chunking.Footprint) []string {
	if f.Corpus == 0 {
		return []string{
			"The corpus is empty: no chunks, nothing indexed.",
			chunkCaveat,
		}
	}
	out := []string{fmt.Sprintf("Windows of %d tokens start every %d tokens (stride = %d − %d overlap).",
		f.Chunk, f.Stride, f.Chunk, f.Overlap)}
	switch {
	case f.Corpus <= f.Chunk:
		out = append(out, fmt.Sprintf("The %d-token corpus fits in one window: %d tokens indexed, nothing duplicated.", f.Corpus, f.Indexed))
	case f.Overlap == 0:
		out = append(out, fmt.Sprintf("Covering %d tokens takes %d chunks = 1 + ceil((%d − %d) / %d); without overlap the windows tile the corpus: %d tokens indexed, nothing duplicated.",
			f.Corpus, f.Chunks, f.Corpus, f.Chunk, f.Stride, f.Indexed))
	default:
		out = append(out, fmt.Sprintf("Covering %d tokens takes %d chunks = 1 + ceil((%d − %d) / %d); they index %d tokens, %d of them duplicates (%.1f%% of the corpus).",
			f.Corpus, f.Chunks, f.Corpus, f.Chunk, f.Stride, f.Indexed, f.Duplicated, 100*f.Duplication))
	}
	return append(out, chunkCaveat)
}

const chunkCaveat = "This is storage and redundant near-duplicate candidates, not a relevance gain: whether a chunking helps retrieval needs a retriever and qrels."

// missedRelevant lists the doc IDs of missed items with grade >= minGrade.
func missedRelevant(missed []Candidate, minGrade int) []string {
	var out []string
	for _, c := range missed {
		if c.Grade >= minGrade {
			out = append(out, c.Doc)
		}
	}
	return out
}

// gradeList prints grades as "(3, 0, 2)", eliding the middle of long lists.
func gradeList(g []int) string {
	parts := make([]string, 0, len(g))
	for i, x := range g {
		if len(g) > 12 && i == 10 {
			parts = append(parts, fmt.Sprintf("… %d more", len(g)-10))
			break
		}
		parts = append(parts, fmt.Sprint(x))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// num prints a metric with 3 decimals.
func num(x float64) string { return fmt.Sprintf("%.3f", x) }
