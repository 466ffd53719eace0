package eval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

// The differential test: random qrels and runs evaluated by the peers (pytrec_eval, ir_measures,
// ranx; pinned in scripts/peers.sh) and by ranklab, every shared measure compared per query.
//
//	RANKLAB_PEERS_PYTHON=$(bash scripts/peers.sh | tail -1) go test ./eval -run TestPeers -v
//
// It skips without the peers' environment (sharedtest.PeersPython), and fails instead with
// RANKLAB_PEERS=1 (what scripts/test-all.sh exports, as for the other agreement tests).
//
// Expected values come from the peers themselves; the test documents where and why they differ
// from ranklab's default (trec_eval 10.0) rules.

// peerCase is one case of the manifest read by testdata/peers.py.
type peerCase struct {
	Qrels  string   `json:"qrels"`
	Run    string   `json:"run"`
	Level  int      `json:"level"`
	Pytrec []string `json:"pytrec"`
	IR     []string `json:"ir"`
	Ranx   []string `json:"ranx"`

	qrels  Qrels
	run    Run
	binary bool
}

// peerResult is testdata/peers.py's output for one case.
type peerResult struct {
	Pytrec map[string]map[string]any `json:"pytrec"`
	IR     map[string]map[string]any `json:"ir"`
	Ranx   map[string]map[string]any `json:"ranx"`
}

var (
	pytrecMeasures = []string{"num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
		"iprec_at_recall", "P.1,5,10,100", "recall.5,10,100", "infAP", "gm_bpref", "Rprec_mult", "utility", "11pt_avg",
		"binG", "G", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut.5,10,100", "map_cut.5,10,100", "relative_P.5,10,100",
		"success.1,5,10", "set_P", "set_relative_P", "set_recall", "set_map", "set_F", "num_nonrel_judged_ret"}
	irMeasures = []string{"P@1", "P@5", "P@100", "P(rel=2)@5", "R@5", "R@100", "RR", "RR(rel=2)", "AP", "AP@5", "AP(rel=2)",
		"nDCG", "nDCG@5", "nDCG@100", "Rprec", "Bpref", "Success@1", "Success@10", "IPrec@0.2", "IPrec@0.5", "infAP",
		"SetP", "SetP(relative=True)", "SetR", "SetAP", "SetF", "SetF(beta=0.5)", "NumRet", "NumRel", "NumRelRet", "NumQ",
		"Judged@5", "Judged@100",
		// Issue 23: every ir_measures name ranklab reads, its rel= forms, and RR@k (msmarco).
		"RR@5", "RR@10", "RR(rel=2)@10", "P(rel=2)@10", "R(rel=2)@10", "AP(rel=2)@10", "nDCG@10", "Success(rel=2)@5",
		"Rprec(rel=2)", "Bpref(rel=2)", "infAP(rel=2)", "SetP(rel=2)", "SetR(rel=2)", "SetAP(rel=2)", "SetF(rel=2)",
		"IPrec(rel=2)@0.5", "IPrec@0.1", "NumRelRet(rel=2)", "Judged@10"} // NumRet(rel=1) is NumRelRet for ir_measures
	// gdevalMeasures are computed by gdeval, which reads numeric query IDs only: asked for the
	// cases with numeric IDs. ir_measures' own spelling, quoted.
	gdevalMeasures = []string{"nDCG(dcg='exp-log2')@5", "nDCG(dcg='exp-log2')@10", "nDCG(dcg='exp-log2')@100"}
	// ranxMeasures maps ranx's metric names to ranklab's measures.
	ranxMeasures = map[string]Measure{"precision@1": P(1), "precision@5": P(5), "precision@100": P(100),
		"recall@5": Recall(5), "recall@100": Recall(100), "map": AP(), "map@5": APAt(5), "mrr": RR(),
		"ndcg": NDCG(0), "ndcg@5": NDCG(5), "ndcg@100": NDCG(100), "ndcg_burges@5": NDCGExp(5),
		"r-precision": Rprec(), "hit_rate@5": Success(5), "bpref": Bpref(), "rbp.8": Measure{Name: nameRBP, Param: "p=0.8"}.WithRel(1)}
)

// randomPeerCase writes a random qrels and run into dir. For ranx (forRanx) a query's scores are
// all different and grades are not negative (ranx breaks ties in an unstable order and reads a
// negative grade as judged non-relevant); otherwise the run has ties, float32 ties (16777217
// and 16777216, 1 and 1+1e-9), negative grades, graded and binary judgments, queries only in
// the qrels or only in the run, and rankings shorter and longer than the cutoffs.
func randomPeerCase(t *testing.T, rng *rand.Rand, dir string, i int, forRanx bool) peerCase {
	return randomCase(t, rng, dir, i, forRanx, false)
}

// randomCase is randomPeerCase; forGdeval makes the cases gdeval reads (ir_measures' ERR@k):
// numeric query IDs and grades up to 4.
func randomCase(t *testing.T, rng *rand.Rand, dir string, i int, forRanx, forGdeval bool) peerCase {
	c := peerCase{qrels: Qrels{}, run: Run{Tag: "r", Queries: map[string][]ScoredDoc{}}, binary: rng.IntN(3) == 0, Level: 1}
	if !forRanx && rng.IntN(4) == 0 {
		c.Level = 2
	}
	maxGrade := 3
	if forGdeval {
		maxGrade = 4
	}
	if c.binary {
		maxGrade = 1
	}
	var qb, rb strings.Builder
	nq := 1 + rng.IntN(8)
	// Every third case (not ranx's) has numeric query IDs, for gdeval; in some of them "014"
	// and "14" are two queries (gdeval reads them as one number).
	numeric := forGdeval || (!forRanx && i%3 == 1)
	leadingZero := numeric && !forGdeval && rng.IntN(2) == 0
	for qi := range nq {
		q := "q" + strconv.Itoa(qi)
		if numeric {
			q = strconv.Itoa(10 + qi)
			if leadingZero && qi == 0 {
				q = "014"
			}
		}
		inQrels, inRun := rng.IntN(8) > 0, rng.IntN(8) > 0
		if !inQrels && !inRun {
			inQrels = true
		}
		if inQrels {
			judged := map[string]int{}
			for _, d := range rng.Perm(60)[:1+rng.IntN(25)] {
				g := rng.IntN(maxGrade + 1)
				if !forRanx && rng.IntN(8) == 0 {
					g = -1 - rng.IntN(2)
				}
				judged["d"+strconv.Itoa(d)] = g
			}
			// Every query has a judgment >= the level: trec_eval 9 reads past its arrays otherwise.
			judged["d"+strconv.Itoa(60+rng.IntN(5))] = max(c.Level, 1+rng.IntN(maxGrade))
			c.qrels[q] = judged
			for d, g := range judged {
				fmt.Fprintf(&qb, "%s 0 %s %d\n", q, d, g)
			}
		}
		if !inRun {
			continue
		}
		n := 1 + rng.IntN(40)
		if rng.IntN(5) == 0 {
			n = 100 + rng.IntN(40) // longer than the cutoffs
		}
		used := map[float64]bool{}
		for rank, d := range rng.Perm(200)[:n] {
			var s float64
			var text string
			switch {
			case forRanx:
				for s = math.Round(rng.Float64()*1e6) / 1e6; used[s]; s = math.Round(rng.Float64()*1e6) / 1e6 {
				}
				used[s] = true
				text = strconv.FormatFloat(s, 'f', -1, 64)
			default:
				switch rng.IntN(6) {
				case 0:
					text = strconv.Itoa(rng.IntN(4)) // ties
				case 1:
					text = []string{"16777217", "16777216", "1", "1.000000001", "0.1", "0.10000000001"}[rng.IntN(6)] // float32 ties
				case 2:
					text = strconv.FormatFloat(float64(rng.IntN(4)), 'e', -1, 64) // same values, other spelling
				default:
					text = strconv.FormatFloat(rng.NormFloat64()*10, 'f', 1+rng.IntN(8), 64)
				}
				s, _ = strconv.ParseFloat(text, 64)
			}
			doc := "d" + strconv.Itoa(d)
			c.run.Queries[q] = append(c.run.Queries[q], ScoredDoc{Doc: doc, Score: s})
			fmt.Fprintf(&rb, "%s Q0 %s %d %s r\n", q, doc, rank+1, text)
		}
	}
	if len(c.qrels) == 0 || len(c.run.Queries) == 0 {
		return randomCase(t, rng, dir, i, forRanx, forGdeval)
	}
	c.Qrels = sharedtest.WriteFile(t, dir, fmt.Sprintf("qrels%d", i), qb.String())
	c.Run = sharedtest.WriteFile(t, dir, fmt.Sprintf("run%d", i), rb.String())
	return c
}

func TestPeers(t *testing.T) {
	py := sharedtest.PeersPython(t, "the comparison with pytrec_eval, ir_measures and ranx")
	const n = 150
	rng := rand.New(rand.NewPCG(14, 2026))
	dir := t.TempDir()
	var cases []peerCase
	for i := range n {
		forRanx := i%3 == 2
		c := randomPeerCase(t, rng, dir, i, forRanx)
		if forRanx {
			for name := range ranxMeasures {
				if name != "rbp.8" || c.binary {
					c.Ranx = append(c.Ranx, name)
				}
			}
			slices.Sort(c.Ranx)
		} else {
			c.Pytrec, c.IR = pytrecMeasures, irMeasures
			if numericIDs(c) {
				c.IR = append(slices.Clone(irMeasures), gdevalMeasures...)
			}
		}
		cases = append(cases, c)
	}
	var results []peerResult
	sharedtest.RunPython(t, py, filepath.Join("testdata", "peers.py"), cases, &results)
	if len(results) != len(cases) {
		t.Fatalf("peers.py output: %d results for %d cases", len(results), len(cases))
	}
	st := map[string]*peerStats{"pytrec_eval": {}, "ir_measures": {}, "ranx": {}, "pytrec_eval vs 10.0 rules": {}}
	for i, c := range cases {
		comparePytrec(t, c, results[i], st)
		compareIR(t, c, results[i], st["ir_measures"])
		compareRanx(t, c, results[i], st["ranx"])
	}
	for _, name := range []string{"pytrec_eval", "ir_measures", "ranx", "pytrec_eval vs 10.0 rules"} {
		s := st[name]
		t.Logf("%-26s %6d values compared (%d queries), %d differ; %d left out%s", name, s.values, s.queries, s.differ, s.documented, s.note)
	}
	irStats := st["ir_measures"]
	for _, name := range append(slices.Clone(irMeasures), gdevalMeasures...) {
		n := irStats.byName[name]
		t.Logf("  ir_measures %-26s %5d values, %d differ, %d left out (documented)", name, n[0], n[1], n[2])
		if n[0] == 0 {
			t.Errorf("ir_measures %s: no value compared", name)
		}
	}
	for _, name := range []string{"pytrec_eval", "ir_measures", "ranx"} {
		if st[name].values == 0 {
			t.Errorf("no %s value compared", name)
		}
	}
}

// TestPeersERR compares ERR@k with ir_measures, which computes it with gdeval (a Perl script
// that prints 5 decimals): every value of every qrels query, ranklab's rounded to 5 decimals
// as gdeval prints it. ir_measures scores a qrels query without a ranking 0, as -c does.
func TestPeersERR(t *testing.T) {
	py := sharedtest.PeersPython(t, "the comparison of ERR@k with ir_measures (gdeval)")
	rng := rand.New(rand.NewPCG(21, 2026))
	dir := t.TempDir()
	names := []string{"ERR@1", "ERR@5", "ERR@10", "ERR@20", "ERR@100"}
	var cases []peerCase
	for i := range 60 {
		c := randomCase(t, rng, dir, i, false, true)
		c.IR = names
		cases = append(cases, c)
	}
	var results []peerResult
	sharedtest.RunPython(t, py, filepath.Join("testdata", "peers.py"), cases, &results)
	if len(results) != len(cases) {
		t.Fatalf("peers.py output: %d results for %d cases", len(results), len(cases))
	}
	ms, err := ParseMeasures(names...)
	if err != nil {
		t.Fatal(err)
	}
	var s peerStats
	for i, c := range cases {
		res, err := Options{AllQueries: true}.Evaluate(c.qrels, c.run, ms...)
		if err != nil {
			t.Fatal(err)
		}
		s.queries += len(results[i].IR)
		for q, vals := range results[i].IR {
			for j, name := range names {
				want, ok := vals[name].(float64)
				if !ok {
					t.Errorf("%s query %s: ir_measures gave no number for %s (%v)", c.Run, q, name, vals[name])
					continue
				}
				got, found := res.Value(q, ms[j])
				s.values++
				if g, w := fmt.Sprintf("%.5f", got), fmt.Sprintf("%.5f", want); !found || g != w {
					s.differ++
					t.Errorf("%s query %s %s: ranklab %s (%v), ir_measures %s", c.Run, q, name, g, got, w)
				}
			}
		}
	}
	t.Logf("ERR@k vs ir_measures 0.4.3 (gdeval): %d values compared (%d queries), %d differ", s.values, s.queries, s.differ)
	if s.values == 0 {
		t.Error("no ERR value compared")
	}
}

type peerStats struct {
	values, queries, differ int
	documented              int // values that differ for a documented reason, not compared
	note                    string
	byName                  map[string][3]int // per measure name: values compared, differing, left out
}

// count adds one value of measure name to byName: compared (and differing), or left out.
func (s *peerStats) count(name string, compared, differ bool) {
	if s.byName == nil {
		s.byName = map[string][3]int{}
	}
	n := s.byName[name]
	switch {
	case !compared:
		n[2]++
	case differ:
		n[0]++
		n[1]++
	default:
		n[0]++
	}
	s.byName[name] = n
}

// numericIDs reports whether every query ID of c is decimal digits, no two equal as numbers:
// what gdeval reads (it refuses other IDs, and dies dividing by zero when "014" and "14" are both
// in the qrels, whose judgments it groups by number but whose ideal DCG it keys by string).
func numericIDs(c peerCase) bool {
	seen := map[int]string{}
	for _, ids := range []map[string]bool{keys(c.qrels), keys(c.run.Queries)} {
		for q := range ids {
			n, err := strconv.Atoi(q)
			if q == "" || strings.Trim(q, "0123456789") != "" || err != nil {
				return false
			}
			if prev, ok := seen[n]; ok && prev != q {
				return false
			}
			seen[n] = q
		}
	}
	return true
}

func keys[V any](m map[string]V) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

// check counts one value compared: ranklab's got (found false when ranklab has none) against the
// peer's want. A value that differs is an error, reported with format and args for the first 10.
func (s *peerStats) check(t *testing.T, got float64, found bool, want any, format string, args ...any) {
	t.Helper()
	s.values++
	if !found || !near(got, want) {
		s.differ++
		if s.differ <= 10 {
			t.Errorf(format, args...)
		}
	}
}

// near reports whether got equals the peer's value want (a number or "NaN") to 1e-9.
func near(got float64, want any) bool {
	switch w := want.(type) {
	case string:
		return w == "NaN" && math.IsNaN(got)
	case float64:
		return math.Abs(got-w) <= 1e-9*max(1, math.Abs(w))
	}
	return false
}

// comparePytrec compares pytrec_eval (trec_eval 9.0.x) with ranklab under Options.TrecEval9,
// value for value; it counts how many differ under the default 10.0 rules (float32 scores,
// iprec_at_recall's rounding), which are documented differences, not failures.
func comparePytrec(t *testing.T, c peerCase, r peerResult, st map[string]*peerStats) {
	if len(c.Pytrec) == 0 {
		return
	}
	ms, err := ParseMeasures(c.Pytrec...)
	if err != nil {
		t.Fatal(err)
	}
	v9, err := Options{RelLevel: c.Level, TrecEval9: true}.Evaluate(c.qrels, c.run, ms...)
	if err != nil {
		if len(r.Pytrec) == 0 && strings.Contains(err.Error(), "no query is in both") {
			return // nothing to evaluate for either
		}
		t.Fatal(err)
	}
	v10, err := Options{RelLevel: c.Level}.Evaluate(c.qrels, c.run, ms...)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Pytrec) != len(v9.Queries) {
		t.Errorf("%s: pytrec_eval evaluated %d queries, ranklab (9.0.8 rules) %d", c.Run, len(r.Pytrec), len(v9.Queries))
	}
	s, s10 := st["pytrec_eval"], st["pytrec_eval vs 10.0 rules"]
	for q, vals := range r.Pytrec {
		s.queries++
		s10.queries++
		for _, m := range ms {
			key, _ := m.TrecName()
			if m.Name == nameSetF {
				key = "set_F"
			}
			want, ok := vals[key]
			if !ok {
				continue
			}
			got, found := v9.Value(q, m)
			s.check(t, got, found, want, "%s (level %d) query %s %s: ranklab %v, pytrec_eval %v", c.Run, c.Level, q, key, got, want)
			s10.values++
			if g10, _ := v10.Value(q, m); !near(g10, want) {
				s10.differ++
			}
		}
	}
	s10.note = " (float32 scores, iprec_at_recall and 11pt_avg rounding: what --trec-eval-9 reproduces)"
}

// compareIR compares ir_measures with ranklab: its trec_eval-backed measures under
// Options.TrecEval9 (it calls pytrec_eval), Judged with its own rules (any rules give it). A
// qrels query without a ranking, which ir_measures scores 0, is compared with -c's value.
func compareIR(t *testing.T, c peerCase, r peerResult, s *peerStats) {
	if len(c.IR) == 0 {
		return
	}
	ms := make([]Measure, len(c.IR))
	for j, n := range c.IR {
		m, err := ParseMeasure(n)
		if err != nil {
			t.Fatal(err)
		}
		ms[j] = m
	}
	// ir_measures' relevance level is each measure's rel= (default 1), not the case's level.
	both, err := Options{TrecEval9: true}.Evaluate(c.qrels, c.run, ms...)
	if err != nil && !strings.Contains(err.Error(), "no query is in both") {
		t.Fatal(err)
	}
	all, err := Options{AllQueries: true}.Evaluate(c.qrels, c.run, ms...)
	if err != nil {
		t.Fatal(err)
	}
	for q, vals := range r.IR {
		s.queries++
		for j, name := range c.IR {
			want, ok := vals[name]
			if !ok {
				continue
			}
			gdeval := ms[j].Exp
			got, found := 0.0, false
			if both.Measures != nil {
				got, found = both.Value(q, ms[j])
			}
			if !found {
				got, found = all.Value(q, ms[j])
				if m := ms[j]; (m.Name == nameNumRel || m.Name == nameNumQ) && want == 0.0 && got > 0 {
					// ir_measures gives a qrels query without a ranking 0 for every measure,
					// NumRel and NumQ too; trec_eval -c (and ranklab) keep R and 1.
					s.documented++
					s.count(name, false, false)
					s.note = " (and NumRel, NumQ of qrels queries without a ranking: 0 in ir_measures, R and 1 in trec_eval -c)"
					continue
				}
			}
			if w, isNum := want.(float64); gdeval && isNum && found && math.Abs(got-w) <= 5e-6 {
				want = got // gdeval prints 5 decimals
			}
			before := s.differ
			s.check(t, got, found, want, "%s query %s %s: ranklab %v, ir_measures %v", c.Run, q, name, got, want)
			s.count(name, true, s.differ > before)
		}
	}
}

// compareRanx compares ranx with ranklab on runs without ties and qrels without negative
// grades, over every qrels query (ranx's make_comparable scores a missing one 0, as -c does).
// ranx's bpref is NaN for a query without a judged non-relevant doc where trec_eval's is not;
// those values are counted apart.
func compareRanx(t *testing.T, c peerCase, r peerResult, s *peerStats) {
	if len(c.Ranx) == 0 {
		return
	}
	var ms []Measure
	for _, name := range c.Ranx {
		ms = append(ms, ranxMeasures[name])
	}
	res, err := Options{AllQueries: true}.Evaluate(c.qrels, c.run, ms...)
	if err != nil {
		t.Fatal(err)
	}
	s.queries += len(res.Queries)
	nanBpref := 0
	for j, name := range c.Ranx {
		for q, want := range r.Ranx[name] {
			got, found := res.Value(q, ms[j])
			if name == "bpref" && want == "NaN" {
				nanBpref++
				s.documented++
				continue
			}
			s.check(t, got, found, want, "%s query %s %s: ranklab %v, ranx %v", c.Run, q, name, got, want)
		}
	}
	if nanBpref > 0 {
		s.note = " (ranx's bpref is NaN without a judged non-relevant doc; those values left out)"
	}
}
