package eval

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func init() {
	anchorEvaluators["fast"] = evalTrecFast
}

// evalTrecFast evaluates with EvaluateRunFile and prints trec_eval's format.
func evalTrecFast(qrelsPath, runPath string, names []string, opt Options, perQuery bool, digits int) (string, error) {
	qrels, err := ReadQrelsFile(qrelsPath)
	if err != nil {
		return "", err
	}
	ms, err := ParseMeasures(names...)
	if err != nil {
		return "", err
	}
	res, err := opt.EvaluateRunFile(qrels, runPath, ms...)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	err = WriteTrecEval(&buf, res, perQuery, digits)
	return buf.String(), err
}

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
	measures := []Measure{P(5), P(10), Recall(10), Recall(0), RR(), RRAt(3), AP(), APAt(5), NDCG(5), NDCG(0), NDCGExp(10),
		Rprec(), Bpref(), Success(1), Judged(10), NumQ(), NumRet(), NumRel(), NumRelRet(), P(5).WithRel(2)}
	rng := rand.New(rand.NewPCG(1, 2))
	checked := 0
	for iter := range 300 {
		grouped := iter%3 != 0
		qrels, text := randomPair(rng, grouped)
		if len(qrels) == 0 || text == "" {
			continue
		}
		path := filepath.Join(dir, "run"+strconv.Itoa(iter))
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		opt := Options{RelLevel: rng.IntN(3), AllQueries: rng.IntN(2) == 0}
		if rng.IntN(3) == 0 {
			opt.Depth = 1 + rng.IntN(20)
		}
		run, err := ReadRunFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, werr := opt.Evaluate(qrels, run, measures...)
		got, gerr := opt.EvaluateRunFile(qrels, path, measures...)
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
		if !slices.Equal(got.Means, want.Means) {
			t.Fatalf("iteration %d: means differ", iter)
		}
		checked++
	}
	if checked < 100 {
		t.Fatalf("only %d random pairs compared", checked)
	}
}

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
	plain := filepath.Join(dir, "run")
	os.WriteFile(plain, []byte(b.String()), 0o644)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(b.String()))
	zw.Close()
	zipped := filepath.Join(dir, "run.gz")
	os.WriteFile(zipped, gz.Bytes(), 0o644)
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
		got, err := EvaluateRunFile(qrels, p, ms...)
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
		"short line":         "q1 Q0 a 1 2 t\nq1 Q0 b 2\n",
		"bad score":          "q1 Q0 a 1 2 t\nq1 Q0 b 2 x t\n",
		"duplicate":          "q1 Q0 a 1 2 t\nq1 Q0 b 2 1 t\nq1 Q0 a 3 0 t\n",
		"empty line":         "q1 Q0 a 1 2 t\n\n",
		"empty":              "",
		"late error":         big.String() + "q1 Q0 a 1 nan t\n",
		"ungrouped dup":      "q1 Q0 a 1 2 t\nq2 Q0 b 1 1 t\nq1 Q0 a 2 1 t\n",
		"late duplicate doc": big.String() + "q7 Q0 d 1 1 t\n",
	}
	for name, text := range tests {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, "run")
			os.WriteFile(p, []byte(text), 0o644)
			_, rerr := ReadRunFile(p)
			_, ferr := EvaluateRunFile(qrels, p, RR())
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
