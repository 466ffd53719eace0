package compare

import (
	"encoding/json"
	"math"

	"github.com/ranklab/ranklab/internal/jsonx"
)

// jsonNum is a number that may be absent: NaN (not computed) and ±Inf encode as null.
type jsonNum float64

func (v jsonNum) MarshalJSON() ([]byte, error) {
	f := float64(v)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(f)
}

type jsonRun struct {
	Name       string       `json:"name"`
	Baseline   bool         `json:"baseline"`
	Means      []jsonNum    `json:"means"`
	MeanCI     [][2]jsonNum `json:"mean_ci"`
	ScoredZero []string     `json:"scored_zero"`
	Ignored    []string     `json:"ignored"`
}

type jsonComparison struct {
	Run             string     `json:"run"`
	Measure         string     `json:"measure"`
	Baseline        jsonNum    `json:"baseline_mean"`
	Mean            jsonNum    `json:"mean"`
	Diff            jsonNum    `json:"diff"`
	DiffCI          [2]jsonNum `json:"diff_ci"`
	Wins            int        `json:"wins"`
	Ties            int        `json:"ties"`
	Losses          int        `json:"losses"`
	EffectSize      jsonNum    `json:"effect_size"`
	T               jsonNum    `json:"t"`
	PT              jsonNum    `json:"p_t"`
	PTHolm          jsonNum    `json:"p_t_holm"`
	PTBonferroni    jsonNum    `json:"p_t_bonferroni"`
	PPerm           jsonNum    `json:"p_perm"`
	PPermHolm       jsonNum    `json:"p_perm_holm"`
	PPermBonferroni jsonNum    `json:"p_perm_bonferroni"`
	SignificantT    bool       `json:"significant_t"`
	SignificantPerm bool       `json:"significant_perm"`
	Refused         string     `json:"refused,omitempty"`
	Diffs           []jsonNum  `json:"diffs"`
}

type jsonReport struct {
	Measures     []string         `json:"measures"`
	Queries      []string         `json:"queries"`
	Baseline     string           `json:"baseline"`
	Tests        string           `json:"tests"`
	Permutations int              `json:"permutations"`
	Resamples    int              `json:"resamples"`
	Level        float64          `json:"level"`
	Alpha        float64          `json:"alpha"`
	Seed         uint64           `json:"seed"`
	Runs         []jsonRun        `json:"runs"`
	Comparisons  []jsonComparison `json:"comparisons"`
	Notes        []string         `json:"notes"`
}

func nums(x []float64) []jsonNum {
	out := make([]jsonNum, len(x))
	for i, v := range x {
		out[i] = jsonNum(v)
	}
	return out
}

// jsonText returns the report as indented JSON. Values not computed (a test not run, the t-test
// with one query) and infinite t statistics are null; "diffs" holds the per-query differences
// in "queries" order. Lists are never null.
func (r Report) jsonText() string {
	o := r.Options
	out := jsonReport{Measures: []string{}, Queries: r.Queries, Baseline: r.Baseline(), Tests: o.Tests.String(),
		Permutations: o.Permutations, Resamples: o.Resamples, Level: o.Level, Alpha: o.Alpha, Seed: o.Seed,
		Runs: []jsonRun{}, Comparisons: []jsonComparison{}, Notes: append([]string{}, r.Notes...)}
	for _, m := range r.Measures {
		out.Measures = append(out.Measures, m.String())
	}
	for i, run := range r.Runs {
		jr := jsonRun{Name: run.Name, Baseline: i == 0,
			ScoredZero: append([]string{}, run.ScoredZero...), Ignored: append([]string{}, run.Ignored...)}
		for _, e := range run.means {
			jr.Means = append(jr.Means, jsonNum(e.Mean))
			jr.MeanCI = append(jr.MeanCI, [2]jsonNum{jsonNum(e.Low), jsonNum(e.High)})
		}
		out.Runs = append(out.Runs, jr)
	}
	for _, c := range r.Comparisons {
		out.Comparisons = append(out.Comparisons, jsonComparison{
			Run: c.Run, Measure: c.Measure.String(),
			Baseline: jsonNum(c.Baseline), Mean: jsonNum(c.Mean), Diff: jsonNum(c.Diff),
			DiffCI: [2]jsonNum{jsonNum(c.CILow), jsonNum(c.CIHigh)},
			Wins:   c.Wins, Ties: c.Ties, Losses: c.Losses, EffectSize: jsonNum(c.EffectSize),
			T: jsonNum(c.T), PT: jsonNum(c.PT), PTHolm: jsonNum(c.PTHolm), PTBonferroni: jsonNum(c.PTBonferroni),
			PPerm: jsonNum(c.PPerm), PPermHolm: jsonNum(c.PPermHolm), PPermBonferroni: jsonNum(c.PPermBonferroni),
			SignificantT: c.SignificantT(o.Alpha), SignificantPerm: c.SignificantPerm(o.Alpha),
			Refused: c.Refused, Diffs: nums(c.Diffs),
		})
	}
	js, err := jsonx.MarshalIndent(out, "", "  ") // invalid UTF-8 IDs escaped losslessly
	if err != nil {
		panic("compare: " + err.Error()) // every value is encodable
	}
	return string(js) + "\n"
}
