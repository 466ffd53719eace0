package eval

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

// randomPair writes a random qrels and run with many tied scores; grouped keeps each query's
// lines adjacent.
func randomPair(rng *rand.Rand, grouped bool) (Qrels, string) {
	qrels := Qrels{}
	type line struct {
		q, d  string
		score string
	}
	var lines []line
	nq := 1 + rng.IntN(12)
	for qi := range nq {
		q := "q" + strconv.Itoa(qi*7%13)
		if rng.IntN(5) > 0 {
			qrels[q] = map[string]int{}
			for d := range rng.IntN(15) {
				qrels[q]["d"+strconv.Itoa(d*3)] = rng.IntN(5) - 1
			}
		}
		if rng.IntN(6) == 0 {
			continue // a qrels-only query
		}
		n := rng.IntN(40)
		for _, d := range rng.Perm(60)[:n] {
			var s string
			switch rng.IntN(4) {
			case 0:
				s = strconv.Itoa(rng.IntN(4)) // ties
			case 1:
				s = strconv.FormatFloat(float64(rng.IntN(4)), 'e', -1, 64) // same values, other spelling
			case 2:
				s = "-" + strconv.FormatFloat(rng.Float64(), 'f', 6, 64)
			default:
				s = strconv.FormatFloat(rng.NormFloat64()*1e3, 'g', -1, 64)
			}
			lines = append(lines, line{q, "d" + strconv.Itoa(d), s})
		}
	}
	if !grouped {
		rng.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	}
	var b strings.Builder
	for i, l := range lines {
		fmt.Fprintf(&b, "%s Q0 %s %d %s tag\n", l.q, l.d, i, l.score)
	}
	return qrels, b.String()
}

func TestFastMatchesSimple(t *testing.T) {
	dir := t.TempDir()
	measures, err := ParseMeasures("all_trec", "yaap", "dcg", "ideal_dcg", "Judged@5", "Judged", "IPrec@0.3", "RBP(rel=2)",
		"ndcg.1=3,2=9,-1=-2", "G.0=1,1=2.5", "Rndcg.3=-1", "nDCG(dcg=exp-log2)@10", "P(rel=2)@5", "RR@3", "R", "utility.2,-1,0.5,1",
		"11pt_avg.0.3,0.1", "relstring.3", "rbp.p=0.5,2=4", "rbp_resid.p=0.8", "set_F.0.5", "SetF(beta=2,rel=2)")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	checked := 0
	for iter := range 300 {
		grouped := iter%3 != 0
		qrels, text := randomPair(rng, grouped)
		if len(qrels) == 0 || text == "" {
			continue
		}
		path := sharedtest.WriteFile(t, dir, "run"+strconv.Itoa(iter), text)
		opt := Options{RelLevel: rng.IntN(3), AllQueries: rng.IntN(2) == 0, JudgedOnly: rng.IntN(4) == 0,
			TrecEval9: rng.IntN(4) == 0, NumDocs: rng.IntN(2) * 1000}
		if rng.IntN(3) == 0 {
			opt.Depth = 1 + rng.IntN(20)
		}
		run, err := ReadRunFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, werr := opt.Evaluate(qrels, run, measures...)
		got, gerr := opt.evaluateRunFile(qrels, path, measures...)
		if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
			t.Fatalf("iteration %d: errors differ: simple %v, fast %v", iter, werr, gerr)
		}
		if werr != nil {
			continue
		}
		if !slices.Equal(got.Queries, want.Queries) || !slices.Equal(got.Missing, want.Missing) || !slices.Equal(got.Ignored, want.Ignored) {
			t.Fatalf("iteration %d: query sets differ", iter)
		}
		for i := range want.Values {
			for j := range measures {
				if math.Float64bits(got.Values[i][j]) != math.Float64bits(want.Values[i][j]) {
					t.Fatalf("iteration %d (%+v): query %s %v: fast %v, simple %v", iter, opt, want.Queries[i], measures[j], got.Values[i][j], want.Values[i][j])
				}
			}
		}
		if !slices.EqualFunc(got.Summary, want.Summary, sameFloat) || !slices.EqualFunc(got.Means, want.Means, sameFloat) {
			t.Fatalf("iteration %d: means differ", iter)
		}
		if !slices.EqualFunc(got.Text, want.Text, slices.Equal) {
			t.Fatalf("iteration %d: relstrings differ", iter)
		}
		checked++
	}
	if checked < 100 {
		t.Fatalf("only %d random pairs compared", checked)
	}
}

// sameFloat compares two values bit for bit (NaN equals the same NaN).
func sameFloat(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

func TestFastLargeBlocks(t *testing.T) {
	// Enough lines to span many blocks, grouped, with a query larger than a block; gzipped too.
	var b strings.Builder
	qrels := Qrels{}
	for q := range 40 {
		qid := "q" + strconv.Itoa(q)
		qrels[qid] = map[string]int{"d7": 1, "d100": 2, "d9999": 3}
		n := 2000
		if q == 5 {
			n = 30000
		}
		for d := range n {
			fmt.Fprintf(&b, "%s Q0 d%d 0 %d.%d run\n", qid, d, (d*7919)%1000, d%3)
		}
	}
	dir := t.TempDir()
	plain := sharedtest.WriteFile(t, dir, "run", b.String())
	zipped := sharedtest.WriteFile(t, dir, "run.gz", sharedtest.Gzip([]byte(b.String())))
	ms := []Measure{NDCG(10), P(10), Recall(100), RR(), AP()}
	run, err := ReadRunFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Evaluate(qrels, run, ms...)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{plain, zipped} {
		got, err := evaluateRunFile(qrels, p, ms...)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(got.Values, want.Values, slices.Equal) || !slices.Equal(got.Queries, want.Queries) {
			t.Errorf("%s: fast and simple differ", p)
		}
	}
}

func TestFastErrors(t *testing.T) {
	dir := t.TempDir()
	qrels := Qrels{"q1": {"a": 1}}
	var big strings.Builder
	for i := range 60000 {
		fmt.Fprintf(&big, "q%d Q0 d 1 1 t\n", i)
	}
	tests := map[string]string{
		"short line":             "q1 Q0 a 1 2 t\nq1 Q0 b 2\n",
		"bad score":              "q1 Q0 a 1 2 t\nq1 Q0 b 2 x t\n",
		"duplicate":              "q1 Q0 a 1 2 t\nq1 Q0 b 2 1 t\nq1 Q0 a 3 0 t\n",
		"comments only":          "# nothing\n\n",
		"late grouped duplicate": big.String() + "q999999 Q0 a 1 1 t\nq999999 Q0 b 1 1 t\nq999999 Q0 a 1 1 t\n",
		"empty":                  "",
		"late error":             big.String() + "q1 Q0 a 1 nan t\n",
		"ungrouped dup":          "q1 Q0 a 1 2 t\nq2 Q0 b 1 1 t\nq1 Q0 a 2 1 t\n",
		"late duplicate doc":     big.String() + "q7 Q0 d 1 1 t\n",
	}
	for name, text := range tests {
		t.Run(name, func(t *testing.T) {
			p := sharedtest.WriteFile(t, dir, "run", text)
			_, rerr := ReadRunFile(p)
			_, ferr := evaluateRunFile(qrels, p, RR())
			if rerr == nil || ferr == nil || rerr.Error() != ferr.Error() {
				t.Errorf("ReadRunFile: %v\nEvaluateRunFile: %v", rerr, ferr)
			}
			var pe *ParseError
			if !errors.As(ferr, &pe) {
				t.Errorf("%v is not a *ParseError", ferr)
			}
		})
	}
}

// TestUngroupedPasses evaluates ungrouped runs in many passes (a tiny budget) and checks values
// and errors against ReadRun + Evaluate.
func TestUngroupedPasses(t *testing.T) {
	saved := passBudget
	passBudget = 300
	defer func() { passBudget = saved }()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 7))
	measures, _ := ParseMeasures("official", "ndcg", "relstring", "Judged@5")
	for iter := range 60 {
		qrels, text := randomPair(rng, false)
		if len(qrels) == 0 || text == "" {
			continue
		}
		if iter%5 == 0 { // an error late in the file: a duplicate or a bad line
			lines := strings.SplitAfter(text, "\n")
			k := len(lines) / 2
			switch iter % 3 {
			case 0:
				text += lines[k]
			case 1:
				text += "q1 Q0 zz 1 nan t\n"
			default:
				text = strings.Join(lines[:k], "") + lines[max(k-3, 0)] + strings.Join(lines[k:], "")
			}
		}
		p := sharedtest.WriteFile(t, dir, "run"+strconv.Itoa(iter), text)
		t.Logf("iteration %d", iter)
		sameAsReadRun(t, Options{AllQueries: iter%2 == 0}, qrels, p, measures)
	}
}

// sameAsReadRun evaluates the run file p with opt.evaluateRunFile (the streaming path) and with
// ReadRunFile + opt.Evaluate, and fails the test unless both give the same error, or the same
// queries, run ID and values bit for bit.
func sameAsReadRun(t *testing.T, opt Options, qrels Qrels, p string, measures []Measure) {
	t.Helper()
	var want Result
	run, werr := ReadRunFile(p)
	if werr == nil {
		want, werr = opt.Evaluate(qrels, run, measures...)
	}
	got, gerr := opt.evaluateRunFile(qrels, p, measures...)
	if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
		t.Fatalf("errors differ: ReadRun+Evaluate %v, evaluateRunFile %v", werr, gerr)
	}
	if werr != nil {
		return
	}
	if !slices.Equal(got.Queries, want.Queries) || got.Tag != want.Tag {
		t.Fatalf("queries %v %q, want %v %q", got.Queries, got.Tag, want.Queries, want.Tag)
	}
	for i := range want.Values {
		if !slices.EqualFunc(got.Values[i], want.Values[i], sameFloat) {
			t.Fatalf("query %s differs", want.Queries[i])
		}
	}
}
