package compare

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/measurename"
	"github.com/ranklab/ranklab/internal/words"
	"github.com/ranklab/ranklab/stats"
)

// Tests chooses which significance tests a comparison runs.
type Tests int

const (
	bothTests     Tests = iota // the paired t-test and the randomization test (the default)
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

func (t Tests) runT() bool    { return t == bothTests || t == TTest }
func (t Tests) runPerm() bool { return t == bothTests || t == Randomization }

// Options tune a comparison; the zero value means the documented defaults.
type Options struct {
	Tests        Tests   // which tests; zero value: both
	Permutations int     // randomization test draws; 0 means stats.DefaultPermutations (10000)
	Resamples    int     // bootstrap resamples; 0 means stats.DefaultResamples (10000)
	Level        float64 // confidence level of the intervals; 0 means stats.DefaultLevel (0.95)
	Alpha        float64 // significance level for the marks; 0 means 0.05
	Seed         uint64  // seed of the randomization test and the bootstrap; 0 means stats.DefaultSeed (42)
	// Baseline names the run every other is compared with; "" means the first. The other runs
	// keep their order.
	Baseline string

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
	case o.Tests < bothTests || o.Tests > Randomization:
		return fmt.Errorf("compare: Options.Tests = %d is not 0 (both), TTest or Randomization", int(o.Tests))
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

// Measure is the key of a report's columns: an eval.Measure, or a measure of another package
// that is, like it, a comparable value whose String is its canonical name (rag.BudgetMeasure,
// "nDCG@512tok"). Columns are found with ==, so r.Comparison("bm25", eval.NDCG(10)) finds the
// column of eval.NDCG(10) and nothing else, and a name that is not a measure does not compile.
type Measure interface {
	String() string
}

// Scores are one run's per-query values computed elsewhere: Values[i][j] is query Queries[i]
// on Measures[j], as eval.Result holds them (see Options.FromScores).
type Scores struct {
	Name     string
	Measures []Measure
	Queries  []string
	Values   [][]float64
	Ignored  []string // queries of the run that the qrels do not have (reported, not compared)
	Missing  []string // queries in Queries the run has no ranking for (evaluated as empty: scored 0)
}

// Estimate is a mean with its percentile bootstrap interval [Low, High].
type Estimate struct {
	Mean, Low, High float64
}

// runSummary describes one run of a Report. Look its values up by measure with Report.Mean and
// Report.Column.
type runSummary struct {
	Name       string
	ScoredZero []string // queries of Report.Queries the run has no ranking for: scored 0
	Ignored    []string // queries of the run absent from the qrels: ignored

	values [][]float64 // values[j][k]: measure j, query Report.Queries[k]
	means  []Estimate  // per measure, over Report.Queries (queries the run lacks count 0)
}

// Comparison is one run against the baseline on one measure. Fields a test did not compute (or
// could not: n < 2 for the t-test and the effect size) are NaN.
type Comparison struct {
	Run     string  // the run's name (never the baseline's)
	Measure Measure // the measure

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
		if run == 0 || r.Comparisons[k].Run == r.Runs[run].Name {
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
// nothing. Look values up by run name and measure: Comparison, Mean, Column.
type Report struct {
	Measures    []Measure    // the measures, as given
	Queries     []string     // the paired query set, in byte order
	Runs        []runSummary // Runs[0] is the baseline
	Comparisons []Comparison // run-major: (run 1, measure 1), (run 1, measure 2), …, (run 2, measure 1), …
	Options     Options      // with defaults filled in
	Notes       []string     // what a reader must know: queries scored 0, ignored, tests not run
	// Family is the number of comparisons Holm and Bonferroni adjust over: len(Comparisons)
	// less those of a descriptive measure (Judged@k, never tested),
	// or more for a report adjusted with others (Joint).
	Family int
}

// Baseline returns the baseline run's name.
func (r Report) Baseline() string { return r.Runs[0].Name }

// Comparison returns the comparison of the run named run with the baseline on m, e.g.
// r.Comparison("reranked", eval.NDCG(10)). It returns an error naming the runs or measures the
// report has when the run is unknown or is the baseline, or when m is not a measure of the report.
func (r Report) Comparison(run string, m Measure) (Comparison, error) {
	i, err := r.runIndex(run)
	if err != nil {
		return Comparison{}, err
	}
	if i == 0 {
		return Comparison{}, fmt.Errorf("compare: %q is the baseline; comparisons are of the other runs (%s)", run, quoted(r.runNames()[1:]))
	}
	j, err := r.measureIndex(m)
	if err != nil {
		return Comparison{}, err
	}
	return r.comparison(i, j), nil
}

// comparison returns the comparison of run index i (≥ 1) on measure index j.
func (r Report) comparison(i, j int) Comparison {
	return r.Comparisons[(i-1)*len(r.Measures)+j]
}

// Mean returns the mean of the run named run (the baseline included) on m over r.Queries, with
// its bootstrap interval at r.Options.Level. It returns an error, naming what the report has,
// for an unknown run or measure.
func (r Report) Mean(run string, m Measure) (Estimate, error) {
	i, err := r.runIndex(run)
	if err != nil {
		return Estimate{}, err
	}
	j, err := r.measureIndex(m)
	if err != nil {
		return Estimate{}, err
	}
	return r.Runs[i].means[j], nil
}

// Column returns the per-query values of the run named run on m, in the order of r.Queries
// (queries the run has no ranking for are 0), as a new slice: the form paired tests take. It
// returns an error like Mean.
func (r Report) Column(run string, m Measure) ([]float64, error) {
	i, err := r.runIndex(run)
	if err != nil {
		return nil, err
	}
	j, err := r.measureIndex(m)
	if err != nil {
		return nil, err
	}
	return slices.Clone(r.Runs[i].values[j]), nil
}

// measureIndex returns the position of m in r.Measures, or an error naming the report's measures.
func (r Report) measureIndex(m Measure) (int, error) {
	for j, rm := range r.Measures {
		if rm == m {
			return j, nil
		}
	}
	names := make([]string, len(r.Measures))
	for j, rm := range r.Measures {
		names[j] = rm.String()
	}
	return 0, fmt.Errorf("compare: the report has no measure %v (measures: %s)", m, strings.Join(names, ", "))
}

// runIndex returns the index of the run named name, or an error naming the report's runs.
func (r Report) runIndex(name string) (int, error) {
	for i, run := range r.Runs {
		if run.Name == name {
			return i, nil
		}
	}
	return 0, fmt.Errorf("compare: the report has no run %q (runs: %s)", name, quoted(r.runNames()))
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

// compareScores compares runs[1:] with runs[0] (the baseline) on already evaluated per-query
// values (see Options.FromScores). The paired query set is universe when it is non-empty, else the
// union of the runs' queries; a run without a value for a query of the set scores 0 on it
// (trec_eval -c) and the report lists it.
func compareScores(runs []Scores, universe []string, opt Options) (Report, error) {
	opt = opt.withDefaults()
	if err := opt.validate(); err != nil {
		return Report{}, err
	}
	if len(runs) < 2 {
		return Report{}, fmt.Errorf("compare: need at least 2 runs (a baseline and one to compare), got %d", len(runs))
	}
	if err := checkRuns(runs); err != nil {
		return Report{}, err
	}
	runs, err := baselineFirst(runs, opt.Baseline)
	if err != nil {
		return Report{}, err
	}
	per, queries, err := pairedQueries(runs, universe)
	if err != nil {
		return Report{}, err
	}
	measures := runs[0].Measures
	r := Report{Measures: slices.Clone(measures), Queries: queries, Options: opt}
	for i, s := range runs {
		sum, err := summarize(s, per[i], queries, opt)
		if err != nil {
			return Report{}, err
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
	for i := 1; i < len(runs); i++ {
		for j, m := range measures {
			c, err := pair(r.Runs[i].values[j], r.Runs[0].values[j], opt)
			if err != nil {
				return Report{}, fmt.Errorf("compare: %s vs %s, %s: %w", runs[i].Name, runs[0].Name, m, err)
			}
			c.Run, c.Measure = runs[i].Name, m
			c.Baseline, c.Mean = r.Runs[0].means[j].Mean, r.Runs[i].means[j].Mean
			if descriptive(m) {
				c.Refused = fmt.Sprintf("%s is the judged share of the top k, not a quality measure: shown, never tested", m)
			}
			r.Comparisons = append(r.Comparisons, c)
		}
	}
	for _, m := range measures {
		if descriptive(m) {
			r.Notes = append(r.Notes, fmt.Sprintf("%s is the judged share of the top k (how deep the pool reaches), not a quality measure: shown, never tested, and not in the family Holm adjusts over", m))
		}
	}
	r.Family = adjustTested(r.Comparisons)
	return r, nil
}

// descriptive reports whether m describes the judgments rather than a run's quality
// (eval.Judged): it is never tested.
func descriptive(m Measure) bool {
	em, ok := m.(eval.Measure)
	return ok && em.Name == measurename.Judged
}

// baselineFirst returns runs with the run named baseline first and the others in order; runs
// as they are when baseline is "".
func baselineFirst(runs []Scores, baseline string) ([]Scores, error) {
	if baseline == "" {
		return runs, nil
	}
	i := slices.IndexFunc(runs, func(s Scores) bool { return s.Name == baseline })
	if i < 0 {
		names := make([]string, len(runs))
		for k, s := range runs {
			names[k] = s.Name
		}
		return nil, fmt.Errorf("compare: Options.Baseline: no run %q (runs: %s)", baseline, quoted(names))
	}
	return append([]Scores{runs[i]}, slices.Delete(slices.Clone(runs), i, i+1)...), nil
}

// pairedQueries indexes each run's rows by query (per[i][q]: run i's values on query q),
// checking that every row has a finite value per measure and no query is given twice, and
// returns the paired query set in byte order: universe when it is non-empty, else the union of
// the runs' queries.
func pairedQueries(runs []Scores, universe []string) (per []map[string][]float64, queries []string, err error) {
	measures := runs[0].Measures
	per = make([]map[string][]float64, len(runs))
	set := map[string]bool{}
	for _, q := range universe {
		set[q] = true
	}
	for i, s := range runs {
		if len(s.Values) != len(s.Queries) {
			return nil, nil, fmt.Errorf("compare: run %q: %d queries but %d rows of values", s.Name, len(s.Queries), len(s.Values))
		}
		per[i] = make(map[string][]float64, len(s.Queries))
		for k, q := range s.Queries {
			if len(s.Values[k]) != len(measures) {
				return nil, nil, fmt.Errorf("compare: run %q, query %q: %d values for %d measures", s.Name, q, len(s.Values[k]), len(measures))
			}
			for j, v := range s.Values[k] {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, nil, fmt.Errorf("compare: run %q, query %q, %s = %v is not a finite number", s.Name, q, measures[j], v)
				}
			}
			if _, dup := per[i][q]; dup {
				return nil, nil, fmt.Errorf("compare: run %q: query %q given twice", s.Name, q)
			}
			per[i][q] = s.Values[k]
			if len(universe) == 0 {
				set[q] = true
			}
		}
	}
	if len(set) == 0 {
		return nil, nil, errors.New("compare: no query to compare: no run has a query of the qrels")
	}
	queries = make([]string, 0, len(set))
	for q := range set {
		queries = append(queries, q)
	}
	sort.Strings(queries)
	return per, queries, nil
}

// summarize is run s over queries: its values per measure in query order (0 for a query it has
// no row for), the queries scored 0 (no row, or Missing), and each mean with its bootstrap
// interval.
func summarize(s Scores, rows map[string][]float64, queries []string, opt Options) (runSummary, error) {
	sum := runSummary{Name: s.Name, Ignored: slices.Clone(s.Ignored), values: make([][]float64, len(s.Measures))}
	for j := range s.Measures {
		sum.values[j] = make([]float64, len(queries))
	}
	missing := map[string]bool{}
	for _, q := range s.Missing {
		missing[q] = true
	}
	for k, q := range queries {
		row, ok := rows[q]
		if !ok || missing[q] {
			sum.ScoredZero = append(sum.ScoredZero, q)
		}
		for j := range row {
			sum.values[j][k] = row[j]
		}
	}
	zeros := make([]float64, len(queries))
	for j, m := range s.Measures {
		lo, hi, err := stats.BootstrapCI(sum.values[j], zeros, opt.Resamples, opt.Level, opt.Seed)
		if err != nil {
			return runSummary{}, fmt.Errorf("compare: run %q, %s: %v", s.Name, m, err)
		}
		if len(queries) < 2 { // one query: no spread to resample
			lo, hi = math.NaN(), math.NaN()
		}
		sum.means = append(sum.means, Estimate{Mean: mean(sum.values[j]), Low: lo, High: hi})
	}
	return sum, nil
}

// checkRuns reports an error when runs have no measure, differ in their measures, hold a
// measure that is not a comparable value, or share a name.
func checkRuns(runs []Scores) error {
	measures := runs[0].Measures
	if len(measures) == 0 {
		return errors.New("compare: no measures")
	}
	for j, m := range measures {
		if m == nil || !reflect.TypeOf(m).Comparable() {
			return fmt.Errorf("compare: measure %d (%v) is not a comparable value", j+1, m)
		}
		for _, o := range measures[:j] {
			if o == m {
				return fmt.Errorf("compare: measure %s given twice", m)
			}
		}
	}
	names := map[string]bool{}
	for _, s := range runs {
		if !slices.Equal(s.Measures, measures) {
			return fmt.Errorf("compare: run %q has measures %v, run %q %v: every run needs the same", s.Name, s.Measures, runs[0].Name, measures)
		}
		if names[s.Name] {
			return fmt.Errorf("compare: two runs are named %q: give each run its own name (its Tag)", s.Name)
		}
		names[s.Name] = true
	}
	return nil
}

// pair compares a run's values a with the baseline's b (one measure, paired by query): the
// differences, win/tie/loss, the interval of the mean difference, d_z and the tests of opt.
// The adjusted p-values are left NaN (adjust fills them).
func pair(a, b []float64, opt Options) (Comparison, error) {
	nan := math.NaN()
	c := Comparison{T: nan, PT: nan, PTHolm: nan, PTBonferroni: nan,
		PPerm: nan, PPermHolm: nan, PPermBonferroni: nan, EffectSize: nan}
	c.Diffs = make([]float64, len(a))
	for k := range a {
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
		return Comparison{}, err
	}
	if len(a) < 2 { // the interval of one difference would be [d, d]: not an interval
		c.CILow, c.CIHigh = math.NaN(), math.NaN()
	}
	if len(a) >= 2 {
		if c.EffectSize, err = stats.CohensD(a, b); err != nil {
			return Comparison{}, err
		}
		if opt.Tests.runT() {
			if c.T, c.PT, err = stats.PairedTTest(a, b); err != nil {
				return Comparison{}, err
			}
		}
	}
	if opt.Tests.runPerm() {
		if c.PPerm, err = stats.RandomizationTest(a, b, opt.Permutations, opt.Seed); err != nil {
			return Comparison{}, err
		}
	}
	return c, nil
}

// adjust fills the Holm and Bonferroni p-values of cs, one family for each test: every
// comparison in cs. A test whose p is missing (NaN) from any comparison is left unadjusted.
// adjustTested adjusts the comparisons of every measure but the descriptive ones (Judged@k),
// whose adjusted p-values are NaN, and returns how many it adjusted over: the family.
func adjustTested(cs []Comparison) int {
	var tested []Comparison
	for _, c := range cs {
		if !descriptive(c.Measure) {
			tested = append(tested, c)
		}
	}
	adjust(tested)
	for k, t := 0, 0; k < len(cs); k++ {
		if c := &cs[k]; !descriptive(c.Measure) {
			*c = tested[t]
			t++
		} else {
			c.PTHolm, c.PTBonferroni, c.PPermHolm, c.PPermBonferroni = math.NaN(), math.NaN(), math.NaN(), math.NaN()
		}
	}
	return len(tested)
}

func adjust(cs []Comparison) {
	pt, pperm := make([]float64, len(cs)), make([]float64, len(cs))
	for k, c := range cs {
		pt[k], pperm[k] = c.PT, c.PPerm
	}
	if !slices.ContainsFunc(pt, math.IsNaN) {
		h, b := stats.Holm(pt), stats.Bonferroni(pt)
		for k := range cs {
			cs[k].PTHolm, cs[k].PTBonferroni = h[k], b[k]
		}
	}
	if !slices.ContainsFunc(pperm, math.IsNaN) {
		h, b := stats.Holm(pperm), stats.Bonferroni(pperm)
		for k := range cs {
			cs[k].PPermHolm, cs[k].PPermBonferroni = h[k], b[k]
		}
	}
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
