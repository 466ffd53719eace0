package conventions

import (
	"errors"
	"fmt"
	"slices"

	"github.com/ranklab/ranklab/eval"
)

// Band is one query's value of one measure over the orders of its tied docs: trec_eval breaks
// ties by doc ID, but any order of equally scored docs is as much the system's answer.
type Band struct {
	Trec     float64 // under trec_eval's order (ties by doc ID descending)
	Best     float64 // under the best order within each group of tied scores
	Worst    float64 // under the worst
	Expected float64 // the mean over every order of the tied docs, each equally likely (exact)
}

// Width is Best − Worst: how far the tie order alone can move the value.
func (b Band) Width() float64 { return b.Best - b.Worst }

// Sensitive reports whether the value depends on the order of tied docs (Width > 1e-12).
func (b Band) Sensitive() bool { return b.Width() > 1e-12 }

// TieReport is a run's tie sensitivity: each evaluated query's band on each measure, and the
// bands of the means.
type TieReport struct {
	Measures  []eval.Measure
	Queries   []string   // the evaluated queries (as eval.Options.Evaluate picks them), byte order
	Bands     [][]Band   // Bands[i][j]: query Queries[i], measure Measures[j]
	Means     []Band     // per measure: each field averaged over Queries
	Sensitive [][]string // per measure: the queries whose band is wider than a point, byte order
}

// TieSensitive returns the queries that are tie-sensitive on at least one measure, byte order.
func (r TieReport) TieSensitive() []string {
	var out []string
	for i, q := range r.Queries {
		for _, b := range r.Bands[i] {
			if b.Sensitive() {
				out = append(out, q)
				break
			}
		}
	}
	return out
}

// band returns query's band on m; ok is false when either was not evaluated.
func (r TieReport) band(query string, m eval.Measure) (b Band, ok bool) {
	j := slices.Index(r.Measures, m)
	i, found := slices.BinarySearch(r.Queries, query)
	if j < 0 || !found {
		return Band{}, false
	}
	return r.Bands[i][j], true
}

// Mean returns the band of m's mean; ok is false when m was not evaluated.
func (r TieReport) Mean(m eval.Measure) (b Band, ok bool) {
	j := slices.Index(r.Measures, m)
	if j < 0 {
		return Band{}, false
	}
	return r.Means[j], true
}

// checkTieMeasure refuses a measure Ties has no expectation for.
func checkTieMeasure(m eval.Measure) error {
	if err := m.Validate(); err != nil {
		return err
	}
	if _, ok := expectations[m.Name]; !ok || m.Param != "" {
		return fmt.Errorf("ties: unknown measure %s", m)
	}
	return nil
}

// Ties computes, for each query the evaluation with opt picks and each measure, the value under
// trec_eval's order, the best and worst orders within tied scores and the exact expected value
// over all orders of tied docs (McSherry & Najork, "Computing Information Retrieval Performance
// Measures Efficiently in the Presence of Tied Scores", ECIR 2008): each group of docs with the
// same score (as float64) fills a block of ranks, and every order of the group is equally likely.
// With opt.Depth the ranking is cut after the ranks are drawn, so a group that straddles the
// depth changes which docs are kept. The expectation is computed in closed form, not sampled:
//
//	linear measures (P@k, R@k, DCG@k, Judged@k, Rprec, NumRelRet): each position of a group
//	  takes the group's mean gain or relevance;
//	Success@k = 1 − C(n−r, m)/C(n, m) for the group straddling k (m of its n docs above k, r relevant);
//	RR@k = Σ_j P(first relevant at offset j) / (s+j+1), P(j) = C(n−1−j, r−1)/C(n, r), in the first
//	  group with a relevant doc (start s);
//	AP@k = Σ_{positions p=s+t<k} (r/n)(1 + A + t(r−1)/(n−1)) / (p+1) / R, A the relevant docs above the group;
//	Bpref: each relevant doc of a group at each offset, the judged non-relevant docs above it being
//	  hypergeometric within the group.
//
// Best and worst orders sort each group by grade, descending and ascending. Counts that no order
// changes (NumQ, NumRet, NumRel) have a point band. The inputs are not modified.
func Ties(qrels eval.Qrels, run eval.Run, opt eval.Options, measures ...eval.Measure) (TieReport, error) {
	if len(measures) == 0 {
		return TieReport{}, errors.New("ties: no measure")
	}
	for _, m := range measures {
		if err := checkTieMeasure(m); err != nil {
			return TieReport{}, err
		}
	}
	if opt.RelLevel < 0 || opt.Depth < 0 {
		return TieReport{}, fmt.Errorf("ties: negative RelLevel or Depth")
	}
	res, err := opt.Evaluate(qrels, run, measures...) // picks the queries and checks the run
	if err != nil {
		return TieReport{}, fmt.Errorf("ties: %w", err)
	}
	r := TieReport{Measures: slices.Clone(measures), Queries: res.Queries, Means: make([]Band, len(measures)), Sensitive: make([][]string, len(measures))}
	for _, q := range res.Queries {
		row := make([]Band, len(measures))
		for j, m := range measures {
			row[j] = queryBand(run.Queries[q], qrels[q], resolve(m, opt.RelLevel), opt.Depth)
			if row[j].Sensitive() {
				r.Sensitive[j] = append(r.Sensitive[j], q)
			}
		}
		r.Bands = append(r.Bands, row)
	}
	for j := range measures {
		var b Band
		for i := range r.Queries {
			b.Trec += r.Bands[i][j].Trec
			b.Best += r.Bands[i][j].Best
			b.Worst += r.Bands[i][j].Worst
			b.Expected += r.Bands[i][j].Expected
		}
		n := float64(len(r.Queries))
		r.Means[j] = Band{b.Trec / n, b.Best / n, b.Worst / n, b.Expected / n}
	}
	return r, nil
}

// resolve gives a binary measure without its own rel= the evaluation's relevance level, as
// eval.Options does.
func resolve(m eval.Measure, level int) eval.Measure {
	if m.Rel == 0 && level > 1 && m.WithRel(level).Validate() == nil { // the measure takes rel=
		return m.WithRel(level)
	}
	return m
}

// RankingBand is the band of one ranking on m: docs are the ranked docs with their scores (any
// order), judged maps doc → grade for the query (docs it lacks are unjudged). It is what the lab
// shows for a ranking with ties. m must be valid; it panics otherwise.
func RankingBand(docs []eval.ScoredDoc, judged map[string]int, m eval.Measure) Band {
	if err := checkTieMeasure(m); err != nil {
		panic("conventions: RankingBand: " + err.Error())
	}
	return queryBand(docs, judged, m, 0)
}

// tieGroup is a block of ranks holding docs with equal scores.
type tieGroup struct {
	start  int   // first rank (0-based)
	grades []int // the docs' grades, in trec_eval's order
}

// queryBand computes one query's band.
func queryBand(docs []eval.ScoredDoc, judged map[string]int, m eval.Measure, depth int) Band {
	ranked := eval.Rank(docs)
	grades := make([]int, len(ranked))
	for i, d := range ranked {
		g, ok := judged[d.Doc]
		if !ok {
			g = eval.Unjudged
		}
		grades[i] = g
	}
	var groups []tieGroup
	for i := 0; i < len(ranked); {
		j := i + 1
		for j < len(ranked) && ranked[j].Score == ranked[i].Score {
			j++
		}
		groups = append(groups, tieGroup{start: i, grades: grades[i:j]})
		i = j
	}
	all := make([]int, 0, len(judged))
	for _, g := range judged {
		all = append(all, g)
	}
	cut := func(gs []int) []int {
		if depth > 0 && len(gs) > depth {
			return gs[:depth]
		}
		return gs
	}
	arranged := func(desc bool) []int {
		out := make([]int, 0, len(grades))
		for _, g := range groups {
			gs := slices.Clone(g.grades)
			slices.Sort(gs)
			if desc {
				slices.Reverse(gs)
			}
			out = append(out, gs...)
		}
		return out
	}
	b := Band{
		Trec:  m.Compute(cut(grades), all),
		Best:  m.Compute(cut(arranged(true)), all),
		Worst: m.Compute(cut(arranged(false)), all),
	}
	b.Expected = expected(groups, len(grades), all, m, depth)
	// the expectation lies between the extremes; float noise (not a wrong formula) is clamped
	if b.Expected < b.Worst && b.Worst-b.Expected < 1e-12 {
		b.Expected = b.Worst
	}
	if b.Expected > b.Best && b.Expected-b.Best < 1e-12 {
		b.Expected = b.Best
	}
	return b
}
