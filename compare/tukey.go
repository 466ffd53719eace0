package compare

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/stats"
)

// AllPairsOptions tune an all-pairs comparison of many runs; the zero value means the defaults.
type AllPairsOptions struct {
	Permutations int     // randomised Tukey draws; 0 means stats.DefaultPermutations (10000)
	Seed         uint64  // seed of the randomised Tukey test; 0 means stats.DefaultSeed (42)
	Level        float64 // level of the HSD's simultaneous intervals; 0 means 0.95
	Alpha        float64 // significance level of the marks and the letters; 0 means 0.05

	// Standardize tests per-query standardised scores instead of the raw values: each query's
	// scores over the m runs become z-scores, as Webber, Moffat & Zobel (2008) standardise a
	// topic's scores, mapped into (0, 1) by the standard normal distribution function,
	//
	//	s_ij = Φ((x_ij − μ_i) / σ_i),  μ_i, σ_i = mean and sample standard deviation (m − 1)
	//	                                of query i's m scores
	//
	// so every query counts by how the runs rank on it in units of its own spread (a query on
	// which all runs score the same gives each 0.5). μ_i and σ_i come from the runs compared,
	// not from a reference set, so adding a run changes every standardised score.
	Standardize bool
	// OneWay runs the HSD without blocking by query (stats.TukeyHSDOneWay), as SciPy's tukey_hsd
	// and ranx's compare(..., stat_test="tukey") do. For runs on the same queries the blocked
	// HSD (the default) is the right test; this one is there to compare with those tools.
	OneWay bool

	// Eval is passed to eval's evaluator (relevance level, depth); with Eval.AllQueries the
	// query set is every qrels query, otherwise the qrels queries that at least one run ranks.
	Eval eval.Options
}

// withDefaults fills the zero fields with the defaults of Options (one place decides them).
func (o AllPairsOptions) withDefaults() AllPairsOptions {
	d := Options{Permutations: o.Permutations, Seed: o.Seed, Level: o.Level, Alpha: o.Alpha}.withDefaults()
	o.Permutations, o.Seed, o.Level, o.Alpha = d.Permutations, d.Seed, d.Level, d.Alpha
	return o
}

// PairsReport is every pair of m runs compared on one measure, over the same queries, with two
// tests that hold the chance of any false alarm among all m(m−1)/2 pairs at Alpha: Tukey's HSD
// and the randomised Tukey test (package stats). Look pairs up by run name (Pair), list them
// named with both tests (Pairs), and a run's scores by name (Column).
type PairsReport struct {
	Measure eval.Measure
	Names   []string    // the runs, in the order given
	Queries []string    // the query set, in byte order
	Means   []float64   // each run's mean of the measure (raw, even when Standardized)
	Scores  [][]float64 // the scores tested: Scores[j][i] is run j on query i (standardised when Options.Standardize)

	HSD        stats.AllPairs // Tukey's HSD on Scores (blocked by query unless Options.OneWay)
	Randomized stats.AllPairs // the randomised Tukey test on Scores
	// Letters are the compact letter displays of the two tests at Alpha (Piepho 2004): two runs
	// share a letter exactly when the test does not tell them apart; the best run by mean has
	// "a".
	LettersHSD, LettersRandomized []string

	Options AllPairsOptions // with defaults filled in
	Notes   []string        // what a reader must know: queries scored 0
}

// AllPairs evaluates every run on qrels with the measure m and compares every pair of runs with
// Tukey's HSD and the randomised Tukey test. The query set and the evaluation follow Runs: the
// qrels queries that at least one run ranks (every qrels query with Eval.AllQueries), a run
// without a ranking for one of them scoring 0 on it (trec_eval -c), and a note naming those.
// A run is named by its Tag ("run N" without one). It needs at least 2 runs.
func AllPairs(qrels eval.Qrels, m eval.Measure, opt AllPairsOptions, runs ...eval.Run) (PairsReport, error) {
	if len(runs) < 2 {
		return PairsReport{}, fmt.Errorf("compare: need at least 2 runs to compare pairs, got %d", len(runs))
	}
	if len(qrels) == 0 {
		return PairsReport{}, errors.New("compare: the qrels have no query")
	}
	set := map[string]bool{}
	for q := range qrels {
		for _, nr := range runs {
			if _, ok := nr.Queries[q]; ok || opt.Eval.AllQueries {
				set[q] = true
				break
			}
		}
	}
	if len(set) == 0 {
		return PairsReport{}, fmt.Errorf("compare: no run ranks any of the %d qrels queries (are the query IDs the same?)", len(qrels))
	}
	queries := make([]string, 0, len(set))
	for q := range set {
		queries = append(queries, q)
	}
	sort.Strings(queries)
	evalOpt := opt.Eval
	evalOpt.AllQueries = true // every query of the set gets a value, 0 without a ranking
	names := make([]string, len(runs))
	scores := make([][]float64, len(runs))
	var notes []string
	for j, nr := range runs {
		names[j] = nr.Tag
		if names[j] == "" {
			names[j] = fmt.Sprintf("run %d", j+1)
		}
		res, err := evalOpt.Evaluate(qrels, nr, m)
		if err != nil {
			return PairsReport{}, fmt.Errorf("compare: run %q: %w", names[j], err)
		}
		per := res.PerQuery(m)
		for _, q := range queries {
			scores[j] = append(scores[j], per[q])
		}
		var zero []string
		for _, q := range res.Missing {
			if set[q] {
				zero = append(zero, q)
			}
		}
		if len(zero) > 0 {
			notes = append(notes, fmt.Sprintf("run %q has no ranking for %d of the %d queries: scored 0 on them", names[j], len(zero), len(queries)))
		}
	}
	r, err := AllPairsScores(m, names, queries, scores, opt)
	r.Notes = append(notes, r.Notes...)
	return r, err
}

// AllPairsScores is AllPairs on per-query scores already computed: scores[j][i] is run names[j]
// on queries[i] (every run on every query). The scores are not modified.
func AllPairsScores(m eval.Measure, names, queries []string, scores [][]float64, opt AllPairsOptions) (PairsReport, error) {
	opt = opt.withDefaults()
	if len(names) != len(scores) {
		return PairsReport{}, fmt.Errorf("compare: %d names for %d runs", len(names), len(scores))
	}
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			return PairsReport{}, fmt.Errorf("compare: two runs are named %q", n)
		}
		seen[n] = true
	}
	for j, s := range scores {
		if len(s) != len(queries) {
			return PairsReport{}, fmt.Errorf("compare: run %q has %d scores for %d queries", names[j], len(s), len(queries))
		}
	}
	if !(opt.Level > 0 && opt.Level < 1) || !(opt.Alpha > 0 && opt.Alpha < 1) {
		return PairsReport{}, fmt.Errorf("compare: AllPairsOptions.Level %v and Alpha %v must be in (0, 1)", opt.Level, opt.Alpha)
	}
	r := PairsReport{Measure: m, Names: names, Queries: queries, Options: opt, Means: make([]float64, len(scores))}
	for j, s := range scores {
		r.Means[j] = mean(s)
	}
	r.Scores = scores
	if opt.Standardize {
		r.Scores = standardize(scores)
	}
	var err error
	if opt.OneWay {
		r.HSD, err = stats.TukeyHSDOneWay(r.Scores, opt.Level)
	} else {
		r.HSD, err = stats.TukeyHSD(r.Scores, opt.Level)
	}
	if err != nil {
		return PairsReport{}, err
	}
	if r.Randomized, err = stats.RandomizedTukey(r.Scores, opt.Permutations, opt.Seed); err != nil {
		return PairsReport{}, err
	}
	r.LettersHSD = compactLetters(r.HSD.Means, r.HSD.Pairs, opt.Alpha)
	r.LettersRandomized = compactLetters(r.Randomized.Means, r.Randomized.Pairs, opt.Alpha)
	return r, nil
}

// index returns the position of the run named name; it panics naming the runs otherwise.
func (r PairsReport) index(name string) int {
	for j, n := range r.Names {
		if n == name {
			return j
		}
	}
	panic(fmt.Sprintf("compare: no run %q in the report (runs: %s)", name, quoted(r.Names)))
}

// Pair returns the pair of runs a and b under both tests, differences oriented a − b (on the
// tested scale: standardised when Options.Standardize). Like an index out of range, a name that
// is not in r.Names is a programming error: Pair panics with a message that lists the runs.
func (r PairsReport) Pair(a, b string) (hsd, randomized stats.Pair) {
	i, j := r.index(a), r.index(b)
	return r.HSD.Pair(i, j), r.Randomized.Pair(i, j)
}

// PairResult is one pair of runs under both tests of a PairsReport, named: A − B is the
// difference of HSD and Randomized (their A and B are the runs' positions in Names).
type PairResult struct {
	A, B            string
	HSD, Randomized stats.Pair
}

// Pairs returns every pair of runs with both tests, in the order of r.HSD.Pairs (A before B in
// r.Names): each pair's results travel together, so nothing lines two slices up by index.
func (r PairsReport) Pairs() []PairResult {
	out := make([]PairResult, len(r.HSD.Pairs))
	for k, h := range r.HSD.Pairs {
		out[k] = PairResult{A: r.Names[h.A], B: r.Names[h.B], HSD: h, Randomized: r.Randomized.Pair(h.A, h.B)}
	}
	return out
}

// Column returns the scores tested of the run named run, in the order of r.Queries
// (standardised when Options.Standardize), as a new slice: the form paired tests take. It
// returns an error naming the runs for a name that is not in r.Names.
func (r PairsReport) Column(run string) ([]float64, error) {
	for j, n := range r.Names {
		if n == run {
			return slices.Clone(r.Scores[j]), nil
		}
	}
	return nil, fmt.Errorf("compare: no run %q in the report (runs: %s)", run, quoted(r.Names))
}

// byMean returns the run indices sorted by tested mean, best first (ties by order given).
func (r PairsReport) byMean() []int {
	order := make([]int, len(r.Names))
	for j := range order {
		order[j] = j
	}
	sort.SliceStable(order, func(a, b int) bool { return r.HSD.Means[order[a]] > r.HSD.Means[order[b]] })
	return order
}

// marksOf is "*" when the HSD's p ≤ Alpha and "†" when the randomised test's p ≤ Alpha.
func (r PairsReport) marksOf(hsd, randomized stats.Pair) string {
	s := ""
	if hsd.P <= r.Options.Alpha {
		s += "*"
	}
	if randomized.P <= r.Options.Alpha {
		s += "†"
	}
	return s
}

// describe is the one-line account of the tests, for captions and the text report.
func (r PairsReport) describe() string {
	design := "blocked by query"
	if r.Options.OneWay {
		design = "one-way, queries not blocked"
	}
	scale := ""
	if r.Options.Standardize {
		scale = ", standardised scores"
	}
	return fmt.Sprintf("%s over %d queries, %d runs, %d pairs%s; Tukey HSD (%s: MSE %.6f, df %g, q crit %.3f at %g); randomised Tukey (%d permutations, seed %d); α %g",
		r.Measure, len(r.Queries), len(r.Names), len(r.HSD.Pairs), scale, design, r.HSD.MSE, r.HSD.DF, r.HSD.Critical, r.Options.Level,
		r.Options.Permutations, r.Options.Seed, r.Options.Alpha)
}

// Caption is the one-line account of the comparison (measure, queries, tests, levels).
func (r PairsReport) Caption() string { return r.describe() }

// RunsTable lists the runs by tested mean, best first: name, mean, tested mean (standardised
// only), and the letters of both tests.
func (r PairsReport) RunsTable() (header []string, rows [][]string) {
	header = []string{"run", r.Measure.String()}
	if r.Options.Standardize {
		header = append(header, "standardised")
	}
	header = append(header, "HSD letters", "randomised letters")
	for _, j := range r.byMean() {
		row := []string{r.Names[j], fmtNum(r.Means[j], 4)}
		if r.Options.Standardize {
			row = append(row, fmtNum(r.HSD.Means[j], 4))
		}
		rows = append(rows, append(row, r.LettersHSD[j], r.LettersRandomized[j]))
	}
	return header, rows
}

// pairsTable lists every pair (better run first): the difference on the tested scale, the HSD's
// simultaneous interval, both p-values and the marks.
func (r PairsReport) pairsTable() (header []string, rows [][]string) {
	header = []string{"pair", "Δ", fmt.Sprintf("%g%% simultaneous interval", 100*r.Options.Level), "p HSD", "p randomised", ""}
	order := r.byMean()
	for x, a := range order {
		for _, b := range order[x+1:] {
			h, p := r.HSD.Pair(a, b), r.Randomized.Pair(a, b)
			rows = append(rows, []string{r.Names[a] + " − " + r.Names[b], fmtSigned(h.Diff),
				"[" + fmtSigned(h.Low) + ", " + fmtSigned(h.High) + "]", fmtP(h.P), fmtP(p.P), r.marksOf(h, p)})
		}
	}
	return header, rows
}

// Matrix is the pairs as a square table, runs by tested mean (best first) in rows and columns:
// the cell of row a and column b is mean(a) − mean(b) on the tested scale with its marks
// ("*" HSD, "†" randomised, at Alpha); the diagonal is "·".
func (r PairsReport) Matrix() (header []string, rows [][]string) {
	order := r.byMean()
	header = []string{""}
	for _, j := range order {
		header = append(header, r.Names[j])
	}
	for _, a := range order {
		row := []string{r.Names[a]}
		for _, b := range order {
			if a == b {
				row = append(row, "·")
				continue
			}
			h, p := r.HSD.Pair(a, b), r.Randomized.Pair(a, b)
			row = append(row, strings.TrimSpace(fmtSigned(h.Diff)+" "+r.marksOf(h, p)))
		}
		rows = append(rows, row)
	}
	return header, rows
}

// Text prints the comparison: the account of the tests, the runs with their letters, the pairs.
func (r PairsReport) Text() string {
	var b strings.Builder
	b.WriteString(r.describe() + "\n\n")
	h, rows := r.RunsTable()
	b.WriteString(aligned(h, rows))
	b.WriteString("\n")
	h, rows = r.pairsTable()
	b.WriteString(aligned(h, rows))
	b.WriteString("* HSD p ≤ α, † randomised Tukey p ≤ α (both adjusted for every pair); runs sharing a letter are not told apart\n")
	for _, n := range r.Notes {
		b.WriteString("note: " + n + "\n")
	}
	return b.String()
}

// significant reports whether the runs a and b differ under both tests at Alpha.
func (r PairsReport) significant(a, b string) bool {
	h, p := r.Pair(a, b)
	return h.P <= r.Options.Alpha && p.P <= r.Options.Alpha && !math.IsNaN(h.P)
}
