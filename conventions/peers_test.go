package conventions_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/conventions"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/sharedtest"
	"github.com/ranklab/ranklab/retrieval"
)

// peerResult is what testdata/peers.py prints for one convention and measure.
type peerResult struct {
	Value    *float64            `json:"value"`
	PerQuery map[string]*float64 `json:"per_query"`
	Error    string              `json:"error"`
}

// peerCase is one qrels/run pair for testdata/peers.py.
type peerCase struct {
	Name     string   `json:"name"`
	Qrels    string   `json:"qrels"` // TREC text; written to a file before the call
	Run      string   `json:"run"`
	Measures []string `json:"measures"`
}

// peerScores is what testdata/peers.py prints for one case: convention → measure → result, or
// why the convention's package is unavailable.
type peerScores struct {
	results     map[string]map[string]peerResult
	unavailable map[string]string
}

// runPeers writes every case's qrels and run as TREC files and scores them all with the real
// packages in one Python process (numba compiles ranx once). It returns the scores by case and
// the installed package versions.
func runPeers(t *testing.T, py string, cases []peerCase) (map[string]peerScores, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	spec := make([]peerCase, len(cases))
	for i, c := range cases {
		spec[i] = c
		spec[i].Qrels = sharedtest.WriteFile(t, dir, fmt.Sprintf("qrels.%d", i), c.Qrels)
		spec[i].Run = sharedtest.WriteFile(t, dir, fmt.Sprintf("run.%d", i), c.Run)
	}
	var raw struct {
		Versions map[string]string                     `json:"versions"`
		Cases    map[string]map[string]json.RawMessage `json:"cases"`
	}
	sharedtest.RunPython(t, py, filepath.Join("testdata", "peers.py"), spec, &raw)
	out := map[string]peerScores{}
	for name, convs := range raw.Cases {
		ps := peerScores{results: map[string]map[string]peerResult{}, unavailable: map[string]string{}}
		for conv, msg := range convs {
			var u struct{ Unavailable string }
			if json.Unmarshal(msg, &u) == nil && u.Unavailable != "" {
				ps.unavailable[conv] = u.Unavailable
				continue
			}
			var per map[string]peerResult
			if err := json.Unmarshal(msg, &per); err != nil {
				t.Fatalf("%s, %s: %v", name, conv, err)
			}
			ps.results[conv] = per
		}
		out[name] = ps
	}
	return out, raw.Versions
}

// pinned are the packages scripts/peers.sh installs: the test fails when one is missing in CI.
var pinned = map[string]bool{"pytrec-eval-terrier": true, "ir-measures": true, "ranx": true, "beir": true, "llama-index-core": true}

// checkAgainstPeers compares every convention that names a package with that package's own
// numbers on one qrels/run pair: the mean, each query's value where the package gives them,
// and the failure where the package raises.
func checkAgainstPeers(t *testing.T, c peerCase, peers peerScores, versions map[string]string) {
	t.Helper()
	measureNames := c.Measures
	qrels, err := eval.ReadQrels(strings.NewReader(c.Qrels), "qrels")
	if err != nil {
		t.Fatal(err)
	}
	run, err := eval.ReadRun(strings.NewReader(c.Run), "run")
	if err != nil {
		t.Fatal(err)
	}
	measures, err := eval.ParseMeasures(measureNames...)
	if err != nil {
		t.Fatal(err)
	}
	table, err := conventions.Compare(qrels, run, measures...)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range table.Rows {
		c := row.Convention
		if c.Package == "" {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			if why, ok := peers.unavailable[c.Name]; ok {
				if pinned[c.Package] && os.Getenv("RANKLAB_PEERS") == "1" {
					t.Fatalf("%s is pinned in scripts/peers.sh but unavailable: %s", c.Package, why)
				}
				t.Skipf("%s is not installed in the peers' environment (%s)", c.Package, why)
			}
			if v := versions[c.Package]; !strings.Contains(c.Name, v) {
				t.Fatalf("%s %s is installed, but the convention is %q", c.Package, v, c.Name)
			}
			got := peers.results[c.Name]
			for j := range measures {
				cell := row.Cells[j]
				name := measureNames[j]
				want, ok := got[name]
				if cell.Name == "" { // the tool has no such measure
					if ok {
						t.Errorf("%s: ranklab says the tool has no such measure, the peer gave %+v", name, want)
					}
					continue
				}
				if !ok {
					t.Errorf("%s: the peer script does not score it (ranklab: %s)", name, cell.Name)
					continue
				}
				if want.Error != "" {
					typ, _, _ := strings.Cut(want.Error, ":")
					if cell.Err == "" || !strings.Contains(cell.Err, typ) {
						t.Errorf("%s: the peer raises %q; ranklab predicts value %v, error %q", name, want.Error, cell.Value, cell.Err)
					}
					continue
				}
				if cell.Err != "" {
					t.Errorf("%s: ranklab predicts an error %q; the peer gives %v", name, cell.Err, *want.Value)
					continue
				}
				if want.Value == nil || math.Abs(*want.Value-cell.Value) > 1e-9 {
					t.Errorf("%s (%s): mean %v, peer %v", name, cell.Name, cell.Value, fmtPtr(want.Value))
				}
				if want.PerQuery == nil {
					continue
				}
				keys := func(m map[string]float64) []string {
					var ks []string
					for k := range m {
						ks = append(ks, k)
					}
					slices.Sort(ks)
					return ks
				}
				var peerKeys []string
				for q := range want.PerQuery {
					peerKeys = append(peerKeys, q)
				}
				slices.Sort(peerKeys)
				if !slices.Equal(keys(cell.PerQuery), peerKeys) {
					t.Errorf("%s: ranklab scores queries %v, the peer %v", name, keys(cell.PerQuery), peerKeys)
					continue
				}
				bad := 0
				for q, pv := range want.PerQuery {
					v := cell.PerQuery[q]
					switch {
					case pv == nil && math.IsNaN(v):
					case pv == nil || math.Abs(*pv-v) > 1e-9:
						if bad++; bad <= 3 {
							t.Errorf("%s query %q: ranklab %v, peer %s", name, q, v, fmtPtr(pv))
						}
					}
				}
			}
		})
	}
}

func fmtPtr(p *float64) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

// fixture generates a qrels/run pair that exercises every rule the conventions differ on:
// tie groups of every size (one of 30 docs, beyond numba's insertion-sort span), scores that
// tie only as float32, doc IDs equal to the query ID, doc IDs whose byte order differs from
// their numeric order ("9" > "100" > "10"), graded and negative judgments, R above the
// cutoffs, short lists, runs in score order with ties shuffled and runs in no order at all.
// With gaps, some qrels queries have no ranking and some have no relevant doc; with runOnly,
// some run queries are absent from the qrels.
func fixture(seed uint64, gaps, runOnly bool) (qrels, run string) {
	r := rand.New(rand.NewPCG(seed, 7))
	scores := []float64{3, 2.5, 2.5000001, 2.5000002, 1, 1, 1, 0.75, 0.5, 0.5, -1, 1e-3}
	var qb, rb strings.Builder
	for qi := 1; qi <= 30; qi++ {
		q := fmt.Sprint(qi)
		n := 3 + r.IntN(25)
		if qi == 7 {
			n = 30
		}
		docs := make([]string, 0, n)
		seen := map[string]bool{}
		for len(docs) < n {
			var d string
			switch r.IntN(6) {
			case 0:
				d = []string{"9", "10", "100", "a", "B", "b", "D1", "d1"}[r.IntN(8)]
			case 1:
				d = q // a doc named like the query (BEIR drops it)
			default:
				d = fmt.Sprintf("d%d", r.IntN(60))
			}
			if !seen[d] {
				seen[d] = true
				docs = append(docs, d)
			}
		}
		type line struct {
			doc   string
			score float64
		}
		lines := make([]line, n)
		for i, d := range docs {
			s := scores[r.IntN(len(scores))]
			if qi == 7 {
				s = 1 // one tie group of 30
			}
			lines[i] = line{d, s}
		}
		if qi%3 != 0 { // score order, ties in random order; every third query stays shuffled
			slices.SortStableFunc(lines, func(a, b line) int { return cmp.Compare(b.score, a.score) })
		}
		missing := gaps && qi%10 == 4
		if !missing {
			for i, l := range lines {
				fmt.Fprintf(&rb, "%s Q0 %s %d %s run\n", q, l.doc, i+1, fmt.Sprint(l.score))
			}
		}
		// judgments: some retrieved docs, some not retrieved
		noRelevant := gaps && qi%10 == 5
		judged := map[string]int{}
		for _, d := range docs {
			if r.IntN(3) > 0 {
				judged[d] = []int{0, 0, 1, 1, 2, 3, -1}[r.IntN(7)]
			}
		}
		for i := 0; i < r.IntN(15); i++ {
			judged[fmt.Sprintf("u%d", i)] = 1 + r.IntN(2)
		}
		if !noRelevant {
			judged[docs[r.IntN(len(docs))]] = 1 // at least one relevant
		}
		for _, d := range slices.Sorted(maps.Keys(judged)) {
			g := judged[d]
			if noRelevant && g > 0 {
				g = 0
			}
			fmt.Fprintf(&qb, "%s 0 %s %d\n", q, d, g)
		}
	}
	if runOnly {
		fmt.Fprintf(&rb, "99 Q0 d1 1 2 run\n99 Q0 d2 2 1 run\n")
	}
	return qb.String(), rb.String()
}

var peerMeasures = []string{"nDCG@10", "nDCG@5", "nDCG", "R@10", "R@100", "RR@3", "RR@10", "RR", "P@5", "P@20", "AP", "AP@10", "Success@3"}

// TestConventionsAgainstPeers checks every convention against the real package on fixtures
// that exercise each rule, including the ways the tools fail, and on BM25 over SciFact test
// (the closing note's table) when ../shared holds SciFact and -short is not given.
func TestConventionsAgainstPeers(t *testing.T) {
	py := sharedtest.PeersPython(t, "the conventions' agreement test")
	var cases []peerCase
	for _, tc := range []struct {
		name          string
		seed          uint64
		gaps, runOnly bool
	}{
		{"clean", 1, false, false},
		{"clean-2", 2, false, false},
		{"gaps", 3, true, false},
		{"gaps-and-run-only", 4, true, true},
	} {
		qrels, run := fixture(tc.seed, tc.gaps, tc.runOnly)
		cases = append(cases, peerCase{Name: tc.name, Qrels: qrels, Run: run, Measures: peerMeasures})
	}
	if !testing.Short() {
		if dir, ok := sciFactDir(); ok {
			qrels, run := sciFactBM25(t, dir)
			cases = append(cases, peerCase{Name: "scifact-bm25", Qrels: qrels, Run: run, Measures: []string{"nDCG@10", "R@100", "RR@10"}})
		} else {
			t.Log("SciFact is not in ../shared/data: the SciFact case is skipped")
		}
	}
	scores, versions := runPeers(t, py, cases)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) { checkAgainstPeers(t, c, scores[c.Name], versions) })
	}
}

// sciFactDir finds ../shared/data/scifact beside the module root (with its corpus).
func sciFactDir() (string, bool) {
	dir := filepath.Join("..", "..", "shared", "data", "scifact")
	for _, name := range []string{"corpus.jsonl", "corpus.jsonl.gz"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return dir, true
		}
	}
	return "", false
}

// sciFactBM25 returns SciFact test's qrels and a BM25 run (top 100) as TREC text.
func sciFactBM25(t *testing.T, dir string) (qrels, run string) {
	t.Helper()
	c, err := retrieval.ReadCollection(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	r, err := retrieval.BM25Run(c, 100, "bm25")
	if err != nil {
		t.Fatal(err)
	}
	var qb, rb bytes.Buffer
	for _, q := range slices.Sorted(maps.Keys(c.Qrels)) {
		for _, d := range slices.Sorted(maps.Keys(c.Qrels[q])) {
			fmt.Fprintf(&qb, "%s 0 %s %d\n", q, d, c.Qrels[q][d])
		}
	}
	if err := eval.WriteRun(&rb, r); err != nil {
		t.Fatal(err)
	}
	return qb.String(), rb.String()
}
