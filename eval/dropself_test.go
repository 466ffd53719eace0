package eval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

// An ArguAna-like case (beir#187): queries are documents of the corpus, so a retriever finds the
// query itself first; BEIR's evaluation drops it (ignore_identical_ids=True by default).
const (
	selfQrels = "q1 0 d2 1\nq2 0 d5 1\nq3 0 q3 1\nq3 0 d7 1\n"
	// q1: itself first, then d3, then its relevant d2. q2: d5 before itself. q3: its own ID is
	// judged relevant (the qrels are left as they are: it still counts in R).
	selfRun = "q1 Q0 q1 1 10 r\nq1 Q0 d3 2 9 r\nq1 Q0 d2 3 8 r\nq1 Q0 d4 4 7 r\n" +
		"q2 Q0 d5 1 5 r\nq2 Q0 q2 2 4 r\n" +
		"q3 Q0 q3 1 3 r\nq3 Q0 d7 2 2 r\n"
)

func TestDropSelf(t *testing.T) {
	qrels, err := ReadQrels(strings.NewReader(selfQrels), "qrels")
	if err != nil {
		t.Fatal(err)
	}
	run, err := ReadRun(strings.NewReader(selfRun), "run")
	if err != nil {
		t.Fatal(err)
	}
	ms := []Measure{NDCG(10), RR(), P(1), Recall(10)}
	l2 := func(r float64) float64 { return 1 / math.Log2(r+1) } // discount of rank r
	want := map[bool]map[string][]float64{
		// Kept: q1 d2 at rank 3; q2 d5 at 1; q3 q3 and d7 at 1 and 2 (R = 2).
		false: {"q1": {l2(3), 1.0 / 3, 0, 1}, "q2": {1, 1, 1, 1}, "q3": {1, 1, 1, 1}},
		// Dropped: q1 d2 moves to rank 2; q2 unchanged; q3 keeps d7 only, at rank 1, but R = 2:
		// nDCG = 1/(1 + l2(2)), recall 1/2.
		true: {"q1": {l2(2), 1.0 / 2, 0, 1}, "q2": {1, 1, 1, 1}, "q3": {1 / (1 + l2(2)), 1, 1, 0.5}},
	}
	// Two query groups in the file: the streaming path (grouped) and the ungrouped one.
	dir := t.TempDir()
	grouped := sharedtest.WriteFile(t, dir, "grouped.run", selfRun)
	lines := strings.SplitAfter(strings.TrimSuffix(selfRun, "\n"), "\n")
	ungrouped := sharedtest.WriteFile(t, dir, "ungrouped.run", lines[7]+"\n"+strings.Join(lines[:7], ""))
	for _, drop := range []bool{false, true} {
		opt := Options{DropSelf: drop}
		results := map[string]func() (Result, error){
			"Evaluate":                  func() (Result, error) { return opt.Evaluate(qrels, run, ms...) },
			"EvaluateRunFile":           func() (Result, error) { return opt.evaluateRunFile(qrels, grouped, ms...) },
			"EvaluateRunFile ungrouped": func() (Result, error) { return opt.evaluateRunFile(qrels, ungrouped, ms...) },
		}
		for name, eval := range results {
			res, err := eval()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for q, vals := range want[drop] {
				for j, m := range ms {
					if got, _ := res.Value(q, m); math.Abs(got-vals[j]) > 1e-12 {
						t.Errorf("%s DropSelf=%v %s %s = %v, want %v", name, drop, q, m, got, vals[j])
					}
				}
			}
		}
	}
	// The run itself is not modified.
	if len(run.Queries["q1"]) != 4 {
		t.Errorf("run modified: %v", run.Queries["q1"])
	}
}

// TestDropSelfBEIR: ranklab's means with DropSelf and TrecEval9 (pytrec_eval's float32 scores)
// are BEIR 2.2.0's EvaluateRetrieval.evaluate numbers (ignore_identical_ids=True, rounded to 5
// decimals), and without DropSelf BEIR's ignore_identical_ids=False, on an ArguAna-like set of
// queries: each query a corpus doc that the run finds, mostly first.
func TestDropSelfBEIR(t *testing.T) {
	py := sharedtest.PeersPython(t, "the comparison with BEIR's ignore_identical_ids")
	r := rand.New(rand.NewPCG(187, 1))
	qrels := Qrels{}
	run := Run{Tag: "r", Queries: map[string][]ScoredDoc{}}
	results := map[string]map[string]float64{}
	for i := range 40 {
		q := fmt.Sprintf("test-env-%03d-pro", i)
		counter := fmt.Sprintf("test-env-%03d-con", i)
		qrels[q] = map[string]int{counter: 1}
		results[q] = map[string]float64{}
		add := func(doc string, score float64) {
			run.Queries[q] = append(run.Queries[q], ScoredDoc{Doc: doc, Score: score})
			results[q][doc] = score
		}
		for j := range 12 {
			add(fmt.Sprintf("doc-%03d", r.IntN(300)+j*300), float64(r.IntN(1000))/1000)
		}
		if i%5 != 4 { // the query itself, usually first
			add(q, 1+float64(r.IntN(3))/10)
		}
		if i%3 != 2 { // its counter-argument, somewhere
			add(counter, float64(r.IntN(1100))/1000)
		}
	}
	var out struct {
		Version string
		On, Off []map[string]float64
	}
	ks := []int{1, 3, 5, 10}
	sharedtest.RunPython(t, py, filepath.Join("testdata", "beir_dropself.py"),
		map[string]any{"qrels": qrels, "results": results, "k_values": ks}, &out)
	// BEIR's four dicts (ndcg, map, recall, precision) and their keys, with ranklab's measures.
	var ms []Measure
	var dict []int
	var key []string
	for _, k := range ks {
		for j, m := range []Measure{NDCG(k), APAt(k), Recall(k), P(k)} {
			ms = append(ms, m)
			dict = append(dict, j)
			key = append(key, []string{"NDCG@", "MAP@", "Recall@", "P@"}[j]+fmt.Sprint(k))
		}
	}
	changed := 0
	for _, drop := range []bool{true, false} {
		beir := out.On
		if !drop {
			beir = out.Off
		}
		res, err := Options{DropSelf: drop, TrecEval9: true}.Evaluate(qrels, run, ms...)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range ms {
			want, ok := beir[dict[i]][key[i]]
			if !ok {
				t.Fatalf("BEIR gave no %s", key[i])
			}
			got := math.Round(res.Mean(m)*1e5) / 1e5
			if got != want {
				t.Errorf("ignore_identical_ids=%v %s: ranklab %v (%.7f), BEIR %v", drop, key[i], got, res.Mean(m), want)
			}
			if drop && out.Off[dict[i]][key[i]] != want {
				changed++
			}
		}
	}
	if changed == 0 {
		t.Error("dropping the query's own doc changed none of BEIR's numbers: the case tests nothing")
	}
	t.Logf("NDCG@10: BEIR %v with ignore_identical_ids, %v without", out.On[0]["NDCG@10"], out.Off[0]["NDCG@10"])
	t.Logf("BEIR %s: %d measures equal to 5 decimals with and without ignore_identical_ids; %d of them change when it is on",
		out.Version, 2*len(ms), changed)
}

// TestDropSelfPrefs: the option applies to preference judgments too. With -M 2, q1's own doc
// between d1 and d2 leaves d2 out of the ranking; dropped, both are retrieved and the one
// preference d1 > d2 is fulfilled among retrieved docs.
func TestDropSelfPrefs(t *testing.T) {
	prefs, err := readPrefs(strings.NewReader("q1 g s d1 2\nq1 g s d2 1\n"), "prefs", 5)
	if err != nil {
		t.Fatal(err)
	}
	run, err := ReadRun(strings.NewReader("q1 Q0 d1 1 10 r\nq1 Q0 q1 2 9 r\nq1 Q0 d2 3 8 r\n"), "run")
	if err != nil {
		t.Fatal(err)
	}
	m := Measure{Name: "prefs_num_prefs_ful_ret"}
	for drop, want := range map[bool]float64{false: 0, true: 1} {
		res, err := Options{Depth: 2, DropSelf: drop}.evaluatePrefs(prefs, run, m)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := res.Value("q1", m); got != want {
			t.Errorf("DropSelf=%v: %v, want %v", drop, got, want)
		}
	}
}
