package compare

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/words"
	"github.com/ranklab/ranklab/stats"
)

// Tests chooses which significance tests a comparison runs.
type Tests int

const (
	Both          Tests = iota // the paired t-test and the randomization test (the default)
	TTest                      // the paired t-test only
	Randomization              // the paired randomization (sign-flip) test only
)

// String returns the command-line spelling: "both", "t" or "perm".
func (t Tests) String() string {
	switch t {
	case TTest:
		return "t"
	case Randomization:
		return "perm"
	default:
		return "both"
	}
}

// ParseTests reads "t", "perm" or "both".
func ParseTests(s string) (Tests, error) {
	switch s {
	case "t":
		return TTest, nil
	case "perm":
		return Randomization, nil
	case "both":
		return Both, nil
	}
	return Both, fmt.Errorf("compare: unknown test %q (want t, perm or both)", s)
}

func (t Tests) runT() bool    { return t == Both || t == TTest }
func (t Tests) runPerm() bool { return t == Both || t == Randomization }

// Options tune a comparison; the zero value means the documented defaults.
type Options struct {
	Tests        Tests   // which tests; zero value Both
	Permutations int     // randomization test draws; 0 means stats.DefaultPermutations (10000)
	Resamples    int     // bootstrap resamples; 0 means stats.DefaultResamples (10000)
	Level        float64 // confidence level of the intervals; 0 means stats.DefaultLevel (0.95)
	Alpha        float64 // significance level for the marks; 0 means 0.05
	Seed         uint64  // seed of the randomization test and the bootstrap; 0 means stats.DefaultSeed (42)

	// Eval is passed to eval.Evaluate by Runs (relevance level, depth). With Eval.AllQueries the
	// paired set is every qrels query; otherwise the qrels queries that at least one run ranks.
	Eval eval.Options
}

func (o Options) withDefaults() Options {
	if o.Permutations == 0 {
		o.Permutations = stats.DefaultPermutations
	}
	if o.Resamples == 0 {
		o.Resamples = stats.DefaultResamples
	}
	if o.Level == 0 {
		o.Level = stats.DefaultLevel
	}
	if o.Alpha == 0 {
		o.Alpha = 0.05
	}
	if o.Seed == 0 {
		o.Seed = stats.DefaultSeed
	}
	return o
}

func (o Options) validate() error {
	switch {
	case o.Tests < Both || o.Tests > Randomization:
		return fmt.Errorf("compare: Options.Tests = %d is not Both, TTest or Randomization", int(o.Tests))
	case o.Permutations < 1:
		return fmt.Errorf("compare: Options.Permutations must be at least 1, got %d", o.Permutations)
	case o.Resamples < 1:
		return fmt.Errorf("compare: Options.Resamples must be at least 1, got %d", o.Resamples)
	case !(o.Level > 0 && o.Level < 1):
		return fmt.Errorf("compare: Options.Level must be in (0, 1), got %v", o.Level)
	case !(o.Alpha > 0 && o.Alpha < 1):
		return fmt.Errorf("compare: Options.Alpha must be in (0, 1), got %v", o.Alpha)
	}
	return nil
}

// Scores are one run's per-query values, as eval.Result holds them: Values[i][j] is query
// Queries[i] on measure j.
type Scores struct {
	Name    string
	Queries []string
	Values  [][]float64
	Ignored []string // queries of the run that the qrels do not have (reported, not compared)
	Missing []string // queries in Queries the run has no ranking for (evaluated as empty: scored 0)
}

// RunSummary describes one run of a Report.
type RunSummary struct {
	Name       string
	Values     [][]float64  // Values[j][k]: measure j, query Report.Queries[k]
	Means      []float64    // per measure, over Report.Queries (queries the run lacks count 0)
	CI         [][2]float64 // per measure, percentile bootstrap interval of the mean
	ScoredZero []string     // queries of Report.Queries the run has no ranking for: scored 0
	Ignored    []string     // queries of the run absent from the qrels: ignored
}

// Comparison is one run against the baseline on one measure. Fields a test did not compute (or
// could not: n < 2 for the t-test and the effect size) are NaN.
type Comparison struct {
	Run     int // index in Report.Runs (never 0, the baseline)
	Measure int // index in Report.Measures

	Baseline, Mean float64   // means of the baseline and the run
	Diff           float64   // Mean - Baseline = mean of the per-query differences
	Diffs          []float64 // run - baseline per query, in Report.Queries order
	CILow, CIHigh  float64   // percentile bootstrap interval of Diff
	Wins, Ties     int       // queries where the run is above the baseline / equal (|d| ≤ TieTolerance)
	Losses         int       // queries where the run is below the baseline
	EffectSize     float64   // Cohen's d_z = mean(d) / sd(d)

	T, PT                      float64 // paired t-test: statistic and two-sided p
	PTHolm, PTBonferroni       float64 // PT adjusted over all comparisons of the report
	PPerm                      float64 // randomization test p, (c+1)/(N+1)
	PPermHolm, PPermBonferroni float64 // PPerm adjusted over all comparisons of the report

	// Refused says why this comparison is not a result (a run failed the preflight, see
	// Report.Refuse): it is then never called significant. "" for a comparison that stands.
	Refused string
}

// TieTolerance is the largest |difference| counted as a tie in win/tie/loss.
const TieTolerance = 1e-9

// SignificantT reports whether the Holm-adjusted t-test p is at most alpha, for a comparison
// that was not refused.
func (c Comparison) SignificantT(alpha float64) bool { return c.Refused == "" && c.PTHolm <= alpha }

// SignificantPerm reports whether the Holm-adjusted randomization p is at most alpha, for a
// comparison that was not refused.
func (c Comparison) SignificantPerm(alpha float64) bool {
	return c.Refused == "" && c.PPermHolm <= alpha
}

// Refuse marks run (an index into Runs) as not a result, for reason (a run that ranks nothing,
// shares no query or no judged doc with the qrels, or that fails the preflight of package check
// otherwise): no comparison involving it is called significant, whatever its p-values, and a
// note says why. Refusing the baseline (0) refuses every comparison. The values and p-values
// are kept, so a reader can still see them.
func (r *Report) Refuse(run int, reason string) {
	for k := range r.Comparisons {
		if run == 0 || r.Comparisons[k].Run == run {
			r.Comparisons[k].Refused = reason
		}
	}
	what := "no difference from it"
	if run == 0 {
		what = "as the baseline, no difference"
	}
	r.Notes = append(r.Notes, fmt.Sprintf("run %q is not a result (%s): %s is called significant", r.Runs[run].Name, reason, what))
}

// Report is a complete comparison; every format (Text, Markdown, LaTeX, CSV, JSON, and the
// charts package's CompareTable, CompareMeans and CompareDiff) prints these values and computes
// nothing. Look parts up by name: Run, Comparison, Column.
type Report struct {
	Measures    []string     // measure names, as given
	Queries     []string     // the paired query set, in byte order
	Runs        []RunSummary // Runs[0] is the baseline
	Comparisons []Comparison // run-major: (run 1, measure 0), (run 1, measure 1), …, (run 2, measure 0), …
	Options     Options      // with defaults filled in
	Notes       []string     // what a reader must know: queries scored 0, ignored, tests not run
}

// Baseline returns the baseline run's name.
func (r Report) Baseline() string { return r.Runs[0].Name }

// Comparison returns the comparison of the run named run with the baseline on measure, e.g.
// r.Comparison("reranked", "nDCG@10"). The measure is found by its name as given or by its
// canonical form (so "ndcg_cut.10" finds nDCG@10; see MeasureIndex). It panics, naming the
// runs or measures the report has, when the run is unknown or is the baseline, or when the
// measure is unknown.
func (r Report) Comparison(run, measure string) Comparison {
	for i := 1; i < len(r.Runs); i++ {
		if r.Runs[i].Name == run {
			return r.comparison(i, r.MeasureIndex(measure))
		}
	}
	if r.runIndex(run) == 0 {
		panic(fmt.Sprintf("compare: %q is the baseline; comparisons are of the other runs (%s)", run, quoted(r.runNames()[1:])))
	}
	panic("unreachable") // runIndex panics on an unknown name
}

// comparison returns the comparison of run index i (≥ 1) on measure index j.
func (r Report) comparison(i, j int) Comparison {
	return r.Comparisons[(i-1)*len(r.Measures)+j]
}

// Run returns the summary of the first run named name (the baseline included). It panics,
// naming the report's runs, when there is none.
func (r Report) Run(name string) RunSummary { return r.Runs[r.runIndex(name)] }

// Column returns the per-query values of the run named run on measure, in the order of
// r.Queries (queries the run has no ranking for are 0), as a new slice: the form paired tests
// take. It panics like Comparison on an unknown run or measure.
func (r Report) Column(run, measure string) []float64 {
	return append([]float64(nil), r.Run(run).Values[r.MeasureIndex(measure)]...)
}

// MeasureIndex returns the position of measure in r.Measures, and so in every per-measure slice
// of the report (RunSummary.Means, CI, Values). A name matches as given, or when it and a
// report measure read as the same measure (eval.ParseMeasures: "ndcg_cut.10", "nDCG@10"). It
// panics, naming the report's measures, when none matches.
func (r Report) MeasureIndex(measure string) int {
	if j := slices.Index(r.Measures, measure); j >= 0 {
		return j
	}
	if want, err := eval.ParseMeasures(measure); err == nil && len(want) == 1 {
		for j, name := range r.Measures {
			if got, err := eval.ParseMeasures(name); err == nil && len(got) == 1 && got[0] == want[0] {
				return j
			}
		}
	}
	panic(fmt.Sprintf("compare: the report has no measure %q (measures: %s)", measure, quoted(r.Measures)))
}

// runIndex returns the index of the run named name; it panics naming the runs when there is none.
func (r Report) runIndex(name string) int {
	for i, run := range r.Runs {
		if run.Name == name {
			return i
		}
	}
	panic(fmt.Sprintf("compare: the report has no run %q (runs: %s)", name, quoted(r.runNames())))
}

func (r Report) runNames() []string {
	names := make([]string, len(r.Runs))
	for i, run := range r.Runs {
		names[i] = run.Name
	}
	return names
}

// quoted lists names in Go quotes: "a", "b".
func quoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// FromScores compares runs[1:] with runs[0] (the baseline) on already evaluated per-query
// values. measures names the columns of every Scores.Values row. The paired query set is
// universe when it is non-empty, else the union of the runs' queries; a run without a value for
// a query of the set scores 0 on it (trec_eval -c) and the report lists it.
func FromScores(measures []string, runs []Scores, universe []string, opt Options) (Report, error) {
	opt = opt.withDefaults()
	if err := opt.validate(); err != nil {
		return Report{}, err
	}
	if len(runs) < 2 {
		return Report{}, fmt.Errorf("compare: need at least 2 runs (a baseline and one to compare), got %d", len(runs))
	}
	if len(measures) == 0 {
		return Report{}, errors.New("compare: no measures")
	}
	per := make([]map[string][]float64, len(runs))
	set := map[string]bool{}
	for _, q := range universe {
		set[q] = true
	}
	for i, s := range runs {
		if len(s.Values) != len(s.Queries) {
			return Report{}, fmt.Errorf("compare: run %q: %d queries but %d rows of values", s.Name, len(s.Queries), len(s.Values))
		}
		per[i] = make(map[string][]float64, len(s.Queries))
		for k, q := range s.Queries {
			if len(s.Values[k]) != len(measures) {
				return Report{}, fmt.Errorf("compare: run %q, query %q: %d values for %d measures", s.Name, q, len(s.Values[k]), len(measures))
			}
			for j, v := range s.Values[k] {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return Report{}, fmt.Errorf("compare: run %q, query %q, %s = %v is not a finite number", s.Name, q, measures[j], v)
				}
			}
			if _, dup := per[i][q]; dup {
				return Report{}, fmt.Errorf("compare: run %q: query %q given twice", s.Name, q)
			}
			per[i][q] = s.Values[k]
			if len(universe) == 0 {
				set[q] = true
			}
		}
	}
	if len(set) == 0 {
		return Report{}, errors.New("compare: no query to compare: no run has a query of the qrels")
	}
	queries := make([]string, 0, len(set))
	for q := range set {
		queries = append(queries, q)
	}
	sort.Strings(queries)

	r := Report{Measures: append([]string(nil), measures...), Queries: queries, Options: opt}
	// values[i][j][k]: run i, measure j, query k.
	values := make([][][]float64, len(runs))
	for i, s := range runs {
		sum := RunSummary{Name: s.Name, Ignored: append([]string(nil), s.Ignored...)}
		values[i] = make([][]float64, len(measures))
		for j := range measures {
			values[i][j] = make([]float64, len(queries))
		}
		missing := map[string]bool{}
		for _, q := range s.Missing {
			missing[q] = true
		}
		for k, q := range queries {
			row, ok := per[i][q]
			if !ok || missing[q] {
				sum.ScoredZero = append(sum.ScoredZero, q)
			}
			if !ok {
				continue
			}
			for j := range measures {
				values[i][j][k] = row[j]
			}
		}
		sum.Values = values[i]
		zeros := make([]float64, len(queries))
		for j := range measures {
			sum.Means = append(sum.Means, mean(values[i][j]))
			lo, hi, err := stats.BootstrapCI(values[i][j], zeros, opt.Resamples, opt.Level, opt.Seed)
			if err != nil {
				return Report{}, fmt.Errorf("compare: run %q, %s: %v", s.Name, measures[j], err)
			}
			if len(queries) < 2 { // one query: no spread to resample
				lo, hi = math.NaN(), math.NaN()
			}
			sum.CI = append(sum.CI, [2]float64{lo, hi})
		}
		r.Runs = append(r.Runs, sum)
		if n := len(sum.ScoredZero); n > 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("run %q has no ranking for %d of %d queries, scored 0: %s",
				s.Name, n, len(queries), words.IDs(sum.ScoredZero)))
		}
		if n := len(sum.Ignored); n > 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("run %q: %d %s not in the qrels, ignored: %s", s.Name, n, words.Plural(n, "query", "queries"), words.IDs(sum.Ignored)))
		}
	}
	if len(queries) < 2 {
		r.Notes = append(r.Notes, fmt.Sprintf("%d query: the t-test, the effect size and the bootstrap interval need at least 2 queries and are not reported", len(queries)))
	}

	var pt, pperm []float64
	for i := 1; i < len(runs); i++ {
		for j := range measures {
			a, b := values[i][j], values[0][j]
			c := Comparison{Run: i, Measure: j, Baseline: r.Runs[0].Means[j], Mean: r.Runs[i].Means[j],
				T: math.NaN(), PT: math.NaN(), PTHolm: math.NaN(), PTBonferroni: math.NaN(),
				PPerm: math.NaN(), PPermHolm: math.NaN(), PPermBonferroni: math.NaN(), EffectSize: math.NaN()}
			c.Diffs = make([]float64, len(queries))
			for k := range queries {
				d := a[k] - b[k]
				c.Diffs[k] = d
				switch {
				case math.Abs(d) <= TieTolerance:
					c.Ties++
				case d > 0:
					c.Wins++
				default:
					c.Losses++
				}
			}
			c.Diff = mean(c.Diffs)
			var err error
			if c.CILow, c.CIHigh, err = stats.BootstrapCI(a, b, opt.Resamples, opt.Level, opt.Seed); err != nil {
				return Report{}, fmt.Errorf("compare: %s vs %s, %s: %v", runs[i].Name, runs[0].Name, measures[j], err)
			}
			if len(queries) < 2 { // the interval of one difference would be [d, d]: not an interval
				c.CILow, c.CIHigh = math.NaN(), math.NaN()
			}
			if len(queries) >= 2 {
				if c.EffectSize, err = stats.CohensD(a, b); err != nil {
					return Report{}, err
				}
				if opt.Tests.runT() {
					if c.T, c.PT, err = stats.PairedTTest(a, b); err != nil {
						return Report{}, err
					}
					pt = append(pt, c.PT)
				}
			}
			if opt.Tests.runPerm() {
				if c.PPerm, err = stats.RandomizationTest(a, b, opt.Permutations, opt.Seed); err != nil {
					return Report{}, err
				}
				pperm = append(pperm, c.PPerm)
			}
			r.Comparisons = append(r.Comparisons, c)
		}
	}
	if len(pt) == len(r.Comparisons) {
		h, b := stats.Holm(pt), stats.Bonferroni(pt)
		for k := range r.Comparisons {
			r.Comparisons[k].PTHolm, r.Comparisons[k].PTBonferroni = h[k], b[k]
		}
	}
	if len(pperm) == len(r.Comparisons) {
		h, b := stats.Holm(pperm), stats.Bonferroni(pperm)
		for k := range r.Comparisons {
			r.Comparisons[k].PPermHolm, r.Comparisons[k].PPermBonferroni = h[k], b[k]
		}
	}
	return r, nil
}

// mean sums x in order and divides by its length: over Report.Queries, the order in which
// eval.Result.Means sums, so a run's mean here is bit for bit `ranklab eval`'s on the same
// queries (gonum's stat.Mean sums in another order and can differ in the last bit).
func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}
