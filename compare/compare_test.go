package compare

import (
	"bytes"
	"encoding/csv"
	"encoding/gob"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/eval"
)

// name is a measure of the tests: a comparable value whose String is itself.
type name string

func (n name) String() string { return string(n) }

// m is the measure of the one-measure tests.
const m = name("m")

// scores builds Scores for measure m from query -> value pairs written "q1=0.5".
func scores(name string, pairs ...string) Scores {
	s := Scores{Name: name, Measures: []Measure{m}}
	for _, p := range pairs {
		q, v, _ := strings.Cut(p, "=")
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			panic(err)
		}
		s.Queries = append(s.Queries, q)
		s.Values = append(s.Values, []float64{f})
	}
	return s
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12 }

func TestFromScoresByHand(t *testing.T) {
	base := scores("first", "q1=0.5", "q2=0.25", "q3=0", "q4=1")
	run := scores("reranked", "q1=1", "q2=0.5", "q3=0.25", "q4=1")
	r, err := Options{}.FromScores(base, run)
	if err != nil {
		t.Fatal(err)
	}
	c := must(r.Comparison("reranked", m))
	// d = (0.5, 0.25, 0.25, 0): mean 0.25; sd = sqrt((0.0625 + 0 + 0 + 0.0625) / 3).
	sd := math.Sqrt((0.0625 + 0.0625) / 3)
	want := map[string][2]float64{
		"baseline mean": {c.Baseline, (0.5 + 0.25 + 0 + 1) / 4},
		"run mean":      {c.Mean, (1 + 0.5 + 0.25 + 1) / 4},
		"diff":          {c.Diff, 0.25},
		"effect size":   {c.EffectSize, 0.25 / sd},
		"t":             {c.T, 0.25 / (sd / 2)},
	}
	for name, v := range want {
		if !near(v[0], v[1]) {
			t.Errorf("%s = %v, want %v", name, v[0], v[1])
		}
	}
	if c.Wins != 3 || c.Ties != 1 || c.Losses != 0 {
		t.Errorf("W/T/L = %d/%d/%d, want 3/1/0", c.Wins, c.Ties, c.Losses)
	}
	// One comparison: Holm and Bonferroni leave p unchanged.
	if c.PTHolm != c.PT || c.PTBonferroni != c.PT || c.PPermHolm != c.PPerm {
		t.Errorf("single comparison adjusted: %+v", c)
	}
	// 4 queries, all differences ≥ 0 and three non-zero: sign flips of the zero do not matter;
	// of the 8 sign patterns of (0.5, 0.25, 0.25), |sum| ≥ 1 only for all + and all −: exact p = 2/8.
	if math.Abs(c.PPerm-2.0/8) > 4*math.Sqrt(0.25*0.75/10000)+1e-4 {
		t.Errorf("p(perm) = %v, want about 2/8", c.PPerm)
	}
	if !(c.CILow <= c.Diff && c.Diff <= c.CIHigh) || c.CILow < 0 || c.CIHigh > 0.5 {
		t.Errorf("CI [%v, %v] does not fit the differences 0..0.5 around 0.25", c.CILow, c.CIHigh)
	}
	if must(r.Column("reranked", m))[2] != 0.25 || must(r.Column("first", m))[3] != 1 {
		t.Errorf("values %v %v", r.Runs[0].values, r.Runs[1].values)
	}
	if r.Baseline() != "first" || len(r.Notes) != 0 {
		t.Errorf("baseline %q, notes %q", r.Baseline(), r.Notes)
	}
}

func TestFromScoresCorrections(t *testing.T) {
	// Two runs against one baseline on one measure: 2 comparisons. d for "b" = (1, 2, 3) gives the
	// df = 2 closed form p = 1 - t/sqrt(2 + t²) with t = 2·sqrt(3).
	base := scores("base", "q1=0", "q2=0", "q3=0")
	b := scores("b", "q1=1", "q2=2", "q3=3")
	c := scores("c", "q1=1", "q2=-1", "q3=1")
	r, err := Options{Tests: TTest}.FromScores(base, b, c)
	if err != nil {
		t.Fatal(err)
	}
	tb := 2 * math.Sqrt(3)
	pb := 1 - tb/math.Sqrt(2+tb*tb)
	// c: d = (1, -1, 1): mean 1/3, sd = sqrt(((2/3)² + (4/3)² + (2/3)²) / 2) = sqrt(4/3).
	tc := (1.0 / 3) / (math.Sqrt(4.0/3) / math.Sqrt(3))
	pc := 1 - tc/math.Sqrt(2+tc*tc)
	cb, cc := must(r.Comparison("b", m)), must(r.Comparison("c", m))
	if !near(cb.T, tb) || !near(cb.PT, pb) || !near(cc.T, tc) || !near(cc.PT, pc) {
		t.Fatalf("t/p: b %v %v (want %v %v), c %v %v (want %v %v)", cb.T, cb.PT, tb, pb, cc.T, cc.PT, tc, pc)
	}
	// pb ≈ 0.075 < pc ≈ 0.67: Holm multiplies the smaller by 2, the larger by 1 (then max).
	if !near(cb.PTHolm, 2*pb) || !near(cc.PTHolm, math.Max(2*pb, pc)) {
		t.Errorf("Holm: %v %v, want %v %v", cb.PTHolm, cc.PTHolm, 2*pb, math.Max(2*pb, pc))
	}
	if !near(cb.PTBonferroni, 2*pb) || !near(cc.PTBonferroni, math.Min(1, 2*pc)) {
		t.Errorf("Bonferroni: %v %v", cb.PTBonferroni, cc.PTBonferroni)
	}
	if !math.IsNaN(cb.PPerm) || !math.IsNaN(cb.PPermHolm) {
		t.Errorf("randomization ran with Tests = TTest: %v", cb.PPerm)
	}
}

func TestFromScoresEdgeCases(t *testing.T) {
	t.Run("identical runs", func(t *testing.T) {
		a := scores("a", "q1=0.5", "q2=0.25", "q3=1")
		r, err := Options{}.FromScores(a, renamed(a, "a2"))
		if err != nil {
			t.Fatal(err)
		}
		c := must(r.Comparison(r.Runs[1].Name, m))
		if c.T != 0 || c.PT != 1 || c.PPerm != 1 || c.CILow != 0 || c.CIHigh != 0 || c.EffectSize != 0 || c.Ties != 3 {
			t.Errorf("identical: %+v", c)
		}
		if !strings.Contains(r.Text(), "0/3/0") {
			t.Errorf("text lacks W/T/L 0/3/0:\n%s", r.Text())
		}
	})
	t.Run("ties in scores", func(t *testing.T) {
		a := scores("a", "q1=0.5", "q2=0.5", "q3=0.5", "q4=0.5")
		b := scores("b", "q1=0.5", "q2=0.75", "q3=0.5", "q4=0.25")
		r, err := Options{}.FromScores(a, b)
		if err != nil {
			t.Fatal(err)
		}
		c := must(r.Comparison(r.Runs[1].Name, m))
		// d = (0, 0.25, 0, -0.25): mean 0, so t = 0 and p = 1.
		if c.Wins != 1 || c.Ties != 2 || c.Losses != 1 || c.T != 0 || !near(c.PT, 1) {
			t.Errorf("%+v", c)
		}
	})
	t.Run("single query", func(t *testing.T) {
		a := scores("a", "q1=0.5")
		b := scores("b", "q1=1")
		r, err := Options{}.FromScores(a, b)
		if err != nil {
			t.Fatal(err)
		}
		c := must(r.Comparison(r.Runs[1].Name, m))
		if !math.IsNaN(c.T) || !math.IsNaN(c.PT) || !math.IsNaN(c.EffectSize) || c.PPerm != 1 || c.Diff != 0.5 {
			t.Errorf("%+v", c)
		}
		if e := must(r.Mean(r.Runs[0].Name, m)); !math.IsNaN(c.CILow) || !math.IsNaN(c.CIHigh) || !math.IsNaN(e.Low) {
			t.Errorf("one query: interval [%v, %v], run interval [%v, %v]; want n/a, not [d, d]", c.CILow, c.CIHigh, e.Low, e.High)
		}
		if len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "1 query: the t-test, the effect size and the bootstrap interval need at least 2 queries") {
			t.Errorf("notes %q", r.Notes)
		}
		if !strings.Contains(r.Text(), "n/a") || !strings.Contains(r.JSON(), `"t": null`) {
			t.Errorf("n/a not shown")
		}
		if c.SignificantT(0.05) {
			t.Error("NaN p marked significant")
		}
	})
	t.Run("mismatched query sets", func(t *testing.T) {
		a := scores("a", "q1=0.5", "q2=0.5", "q3=1")
		b := scores("b", "q1=1", "q2=1", "q4=1")
		r, err := Options{}.FromScores(a, b)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(r.Queries, ",") != "q1,q2,q3,q4" {
			t.Fatalf("queries %v", r.Queries)
		}
		if got := r.Runs[0].ScoredZero; len(got) != 1 || got[0] != "q4" {
			t.Errorf("a scored zero %v", got)
		}
		if got := r.Runs[1].ScoredZero; len(got) != 1 || got[0] != "q3" {
			t.Errorf("b scored zero %v", got)
		}
		// Means over the 4 queries, with 0 for the missing one.
		if ma, mb := must(r.Mean("a", m)).Mean, must(r.Mean("b", m)).Mean; !near(ma, (0.5+0.5+1+0)/4) || !near(mb, (1.0+1+0+1)/4) {
			t.Errorf("means %v %v", ma, mb)
		}
		want := `run "b" has no ranking for 1 of 4 queries, scored 0: q3`
		if !strings.Contains(strings.Join(r.Notes, "\n"), want) {
			t.Errorf("notes %q lack %q", r.Notes, want)
		}
	})
	t.Run("universe adds queries no run has", func(t *testing.T) {
		a := scores("a", "q1=0.5")
		b := scores("b", "q1=1")
		r, err := compareScores([]Scores{a, b}, []string{"q1", "q2"}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Queries) != 2 || len(r.Runs[0].ScoredZero) != 1 || !near(must(r.Mean("b", m)).Mean, 0.5) {
			t.Errorf("%+v", r.Runs)
		}
	})
}

func TestFromScoresErrors(t *testing.T) {
	a := scores("a", "q1=0.5")
	two := func(s Scores) Scores { s.Measures = []Measure{m, name("n")}; return s }
	tests := []struct {
		name string
		runs []Scores
		opt  Options
		want string
	}{
		{"one run", []Scores{a}, Options{}, "need at least 2 runs (a baseline and one to compare), got 1"},
		{"no measures", []Scores{{Name: "x"}, {Name: "y"}}, Options{}, "no measures"},
		{"no queries", []Scores{{Name: "x", Measures: []Measure{m}}, {Name: "y", Measures: []Measure{m}}}, Options{}, "no query to compare"},
		{"values per measure", []Scores{two(a), two(renamed(a, "b"))}, Options{}, `run "a", query "q1": 1 values for 2 measures`},
		{"other measures", []Scores{a, two(renamed(a, "b"))}, Options{}, `run "b" has measures [m n], run "a" [m]: every run needs the same`},
		{"measure twice", []Scores{{Name: "x", Measures: []Measure{m, m}}, {Name: "y", Measures: []Measure{m, m}}}, Options{}, "measure m given twice"},
		{"not comparable", []Scores{{Name: "x", Measures: []Measure{list{"a"}}}, {Name: "y", Measures: []Measure{list{"a"}}}}, Options{}, "measure 1 (a) is not a comparable value"},
		{"one name", []Scores{a, a}, Options{}, `two runs are named "a"`},
		{"rows", []Scores{a, {Name: "b", Measures: []Measure{m}, Queries: []string{"q1"}}}, Options{}, `run "b": 1 queries but 0 rows`},
		{"NaN", []Scores{a, {Name: "b", Measures: []Measure{m}, Queries: []string{"q1"}, Values: [][]float64{{math.NaN()}}}}, Options{}, `run "b", query "q1", m = NaN is not a finite number`},
		{"duplicate", []Scores{a, scores("b", "q1=1", "q1=0")}, Options{}, `run "b": query "q1" given twice`},
		{"level", []Scores{a, renamed(a, "b")}, Options{Level: 1.5}, "Options.Level must be in (0, 1), got 1.5"},
		{"tests", []Scores{a, renamed(a, "b")}, Options{Tests: 7}, "Options.Tests = 7"},
		{"permutations", []Scores{a, renamed(a, "b")}, Options{Permutations: -1}, "Options.Permutations must be at least 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.opt.FromScores(tc.runs...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// list is a measure type that is not comparable (a slice): FromScores refuses it.
type list []string

func (l list) String() string { return strings.Join(l, ",") }

// renamed is s under another name.
func renamed(s Scores, n string) Scores {
	s.Name = n
	return s
}

// must returns v, or panics with err (a test bug: the lookups' errors are tested on their own).
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// measureNamed is the measure of r printed as s.
func measureNamed(t *testing.T, r Report, s string) Measure {
	t.Helper()
	for _, m := range r.Measures {
		if m.String() == s {
			return m
		}
	}
	t.Fatalf("no measure %q in %v", s, r.Measures)
	return nil
}

func TestFromScoresDoesNotMutate(t *testing.T) {
	a := scores("a", "q2=0.5", "q1=0.25")
	b := scores("b", "q2=1", "q1=0")
	r, err := Options{}.FromScores(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if a.Queries[0] != "q2" || a.Values[0][0] != 0.5 || b.Values[1][0] != 0 {
		t.Error("input modified")
	}
	// Queries are in byte order, Diffs follow them: q1: 0 - 0.25, q2: 1 - 0.5.
	c := must(r.Comparison("b", m))
	if r.Queries[0] != "q1" || c.Diffs[0] != -0.25 || c.Diffs[1] != 0.5 {
		t.Errorf("queries %v diffs %v", r.Queries, c.Diffs)
	}
}

// sample is a 3-run, 2-measure report with a hostile run name, used by the format tests.
func sample(t *testing.T) Report {
	t.Helper()
	qs := []string{"q01", "q02", "q03", "q04", "q05", "q06", "q07", "q08", "q09", "q10", "q11", "q12"}
	base := Scores{Name: "first <stage> & co", Queries: qs}
	rr := Scores{Name: `rerank|_{50}$ "x"`, Queries: qs}
	other := Scores{Name: "</td><script>alert(1)</script>", Queries: qs[:11]}
	for k := range qs {
		b := 0.05 * float64(k%5)
		base.Values = append(base.Values, []float64{b, b / 2})
		gain := 0.3 + 0.02*float64(k%4) // every query gains 0.30..0.36
		rr.Values = append(rr.Values, []float64{b + gain, b/2 + gain})
		if k < 11 {
			wobble := 0.01 * float64(k%3-1) // -0.01, 0, +0.01
			other.Values = append(other.Values, []float64{b + wobble, b / 2})
		}
	}
	for _, s := range []*Scores{&base, &rr, &other} {
		s.Measures = []Measure{eval.NDCG(10), name("P_5")}
	}
	r, err := Options{}.FromScores(base, rr, other)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestCSVRoundTrip(t *testing.T) {
	r := sample(t)
	rows, err := csv.NewReader(strings.NewReader(r.CSV())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+len(r.Runs)*len(r.Measures) || strings.Join(rows[0], ",") != strings.Join(csvHeader, ",") {
		t.Fatalf("%d rows, header %v", len(rows), rows[0])
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, row := range rows[1:] {
		if row[col["is_baseline"]] == "true" {
			if row[col["p_t"]] != "" {
				t.Errorf("baseline row has p_t %q", row[col["p_t"]])
			}
			continue
		}
		c := must(r.Comparison(row[col["run"]], measureNamed(t, r, row[col["measure"]])))
		for name, want := range map[string]float64{"diff": c.Diff, "p_t": c.PT, "p_perm_holm": c.PPermHolm, "mean": c.Mean, "effect_size": c.EffectSize} {
			got, err := strconv.ParseFloat(row[col[name]], 64)
			if err != nil || got != want {
				t.Errorf("%s/%s %s = %q, want %v", row[0], row[2], name, row[col[name]], want)
			}
		}
	}
}

func TestJSON(t *testing.T) {
	r := sample(t)
	var got struct {
		Baseline    string `json:"baseline"`
		Comparisons []struct {
			Run   string    `json:"run"`
			PT    *float64  `json:"p_t"`
			Diffs []float64 `json:"diffs"`
		} `json:"comparisons"`
		Runs []struct {
			ScoredZero []string `json:"scored_zero"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(r.JSON()), &got); err != nil {
		t.Fatal(err)
	}
	if got.Baseline != "first <stage> & co" || len(got.Comparisons) != 4 || *got.Comparisons[0].PT != r.Comparisons[0].PT {
		t.Errorf("%+v", got)
	}
	if len(got.Runs[2].ScoredZero) != 1 || got.Runs[2].ScoredZero[0] != "q12" {
		t.Errorf("scored zero %v", got.Runs[2].ScoredZero)
	}
}

func TestMeansTableMarks(t *testing.T) {
	r := sample(t)
	header, rows := r.MeansTable()
	if strings.Join(header, "|") != "run|nDCG@10|P_5" || len(rows) != 3 {
		t.Fatalf("header %q, %d rows", header, len(rows))
	}
	if rows[0][0] != "first <stage> & co (baseline)" || rows[2][0] != "</td><script>alert(1)</script>" {
		t.Errorf("run names %q %q", rows[0][0], rows[2][0])
	}
	// The reranked run gains 0.30..0.36 on all 12 queries: exact randomization p = 2/2^12,
	// t-test p far below 0.05; both stay below 0.05 after Holm over 4 comparisons.
	c := must(r.Comparison(`rerank|_{50}$ "x"`, eval.NDCG(10)))
	if !c.SignificantT(0.05) || !c.SignificantPerm(0.05) {
		t.Errorf("reranked not significant: %+v", c)
	}
	if want := fmtNum(c.Mean, 4) + "*†"; rows[1][1] != want {
		t.Errorf("reranked mean cell %q, want %q", rows[1][1], want)
	}
}

func TestLookupsByMeasure(t *testing.T) {
	r := sample(t)
	run := `rerank|_{50}$ "x"`
	if got, want := must(r.Comparison(run, eval.NDCG(10))).Diff, r.Comparisons[0].Diff; got != want {
		t.Errorf("diff %v, want %v", got, want)
	}
	if got := must(r.Mean(run, name("P_5"))).Mean; got != r.Comparisons[1].Mean {
		t.Errorf("run mean %v, comparison mean %v", got, r.Comparisons[1].Mean)
	}
	if c := r.Comparisons[1]; c.Run != run || c.Measure != name("P_5") {
		t.Errorf("comparison 2 is %q on %v", c.Run, c.Measure)
	}
	col := must(r.Column(run, name("P_5")))
	col[0] = -1 // a copy: the report keeps its values
	if r.Runs[1].values[1][0] == -1 {
		t.Error("Column returned the report's own slice")
	}
	for _, tc := range []struct {
		name string
		call func() error
		want string
	}{
		{"unknown run", func() error { _, err := r.Mean("nope", eval.NDCG(10)); return err }, `no run "nope" (runs: "first <stage> & co", "rerank|_{50}$ \"x\"", "</td><script>alert(1)</script>")`},
		{"unknown measure", func() error { _, err := r.Column(run, eval.AP()); return err }, `no measure AP (measures: nDCG@10, P_5)`},
		{"same name, other type", func() error { _, err := r.Column(run, name("nDCG@10")); return err }, `no measure nDCG@10 (measures: nDCG@10, P_5)`},
		{"baseline", func() error { _, err := r.Comparison("first <stage> & co", name("P_5")); return err }, `is the baseline`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.call(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestMarkdownAndLaTeXEscape(t *testing.T) {
	r := sample(t)
	md := r.Markdown()
	if !strings.Contains(md, `rerank\|\_{50}$ "x"`) || strings.Contains(md, "<script>") {
		t.Errorf("markdown escaping:\n%s", md)
	}
	tex := r.LaTeX()
	for _, want := range []string{`rerank|\_\{50\}\$ "x"`, `\toprule`, `\midrule`, `\bottomrule`, `$^{*\dagger}$`, `P\_5`} {
		if !strings.Contains(tex, want) {
			t.Errorf("LaTeX lacks %q:\n%s", want, tex)
		}
	}
}

// TestGob: a report read back from encoding/gob (as nb.Cache keeps it) looks up and prints the
// same values.
func TestGob(t *testing.T) {
	r := sample(t)
	gob.Register(name(""))
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(r); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := gob.NewDecoder(&b).Decode(&back); err != nil {
		t.Fatal(err)
	}
	run := `rerank|_{50}$ "x"`
	if back.Text() != r.Text() || back.JSON() != r.JSON() || must(back.Mean(run, eval.NDCG(10))) != must(r.Mean(run, eval.NDCG(10))) {
		t.Errorf("after gob:\n%s\nbefore:\n%s", back.Text(), r.Text())
	}
	if c := must(back.Comparison(run, name("P_5"))); c.Diff != r.Comparisons[1].Diff {
		t.Errorf("comparison after gob %+v", c)
	}
}

// TestBaselineOption: Options.Baseline makes the named run the baseline, the others in order.
func TestBaselineOption(t *testing.T) {
	a, b, c := scores("a", "q1=0", "q2=1"), scores("b", "q1=1", "q2=1"), scores("c", "q1=0.5", "q2=0")
	r, err := Options{Baseline: "b"}.FromScores(a, b, c)
	if err != nil {
		t.Fatal(err)
	}
	if r.Baseline() != "b" || r.Runs[1].Name != "a" || r.Runs[2].Name != "c" || r.Comparisons[0].Run != "a" {
		t.Errorf("runs %v, first comparison %q", r.runNames(), r.Comparisons[0].Run)
	}
	// a − b = (−1, 0): mean −0.5.
	if c := must(r.Comparison("a", m)); c.Diff != -0.5 {
		t.Errorf("a − b = %v, want −0.5", c.Diff)
	}
	if _, err := (Options{Baseline: "z"}).FromScores(a, b); err == nil || !strings.Contains(err.Error(), `Options.Baseline: no run "z" (runs: "a", "b")`) {
		t.Errorf("err = %v", err)
	}
}
