package eval

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/internal/scan"
)

// TestBEIRQrelsKeepUnicodeSpaces is defect 3 of issue 23: BEIR TSV qrels drop only the ASCII
// spaces around a field, as TREC qrels split only on ASCII spaces, so a doc ID ending in U+00A0
// is the same ID in both formats (trec_eval keeps it too) and the values agree.
func TestBEIRQrelsKeepUnicodeSpaces(t *testing.T) {
	beir, err := readBEIRQrels(strings.NewReader("query-id\tcorpus-id\tscore\nq\td1\u00a0\t1\nq\t d2 \t1\n"), "b")
	if err != nil {
		t.Fatal(err)
	}
	trec, err := ReadQrels(strings.NewReader("q 0 d1\u00a0 1\nq 0 d2 1\n"), "t")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(beir, trec) {
		t.Errorf("BEIR %v, TREC %v: want the same judgments", beir, trec)
	}
	run := Run{Queries: map[string][]ScoredDoc{"q": {{Doc: "d1\u00a0", Score: 2}, {Doc: "d1", Score: 1}, {Doc: "d2", Score: 0}}}}
	ap := AP()
	rb, _ := Evaluate(beir, run, ap)
	rt, _ := Evaluate(trec, run, ap)
	// AP = (1/1 + 2/3) / 2: d1\u00a0 at rank 1, d2 at rank 3.
	if want := (1.0 + 2.0/3) / 2; math.Abs(rb.Mean(ap)-want) > 1e-15 || rt.Mean(ap) != rb.Mean(ap) {
		t.Errorf("AP from BEIR %v, from TREC %v; want %v", rb.Mean(ap), rt.Mean(ap), want)
	}
}

// TestDevZeroEnds is defect 6 of issue 23: a run line with no end (/dev/zero) is refused at line
// 1 once 64 MiB of it are read, by the streaming evaluator as by every reader, instead of
// growing memory and a temporary file without bound.
func TestDevZeroEnds(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	qrels := Qrels{"q": {"a": 1}}
	_, err := evaluateRunFile(qrels, "/dev/zero", AP())
	var pe *ParseError
	if !errors.Is(err, scan.ErrLineTooLong) || !errors.As(err, &pe) || pe.Line != 1 || pe.File != "/dev/zero" {
		t.Errorf("evaluateRunFile(/dev/zero) = %v; want /dev/zero:1: line longer than 64 MiB", err)
	}
	if _, err := ReadRunFile("/dev/zero"); !errors.Is(err, scan.ErrLineTooLong) {
		t.Errorf("ReadRunFile(/dev/zero) = %v", err)
	}
	if _, err := ReadQrelsFile("/dev/zero"); !errors.Is(err, scan.ErrLineTooLong) {
		t.Errorf("ReadQrelsFile(/dev/zero) = %v", err)
	}
}

// TestPipedRunNeedsNoTmpdir is defect 9 of issue 23: a grouped run from a pipe streams: it
// needs no $TMPDIR (here TMPDIR is missing and the in-memory copy holds 1 KiB); an ungrouped
// one, which needs a second pass, fails with an error that says what $TMPDIR it needs.
func TestPipedRunNeedsNoTmpdir(t *testing.T) {
	defer func(n int) { scan.MemSpool = n }(scan.MemSpool)
	scan.MemSpool = 1 << 10
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	var b strings.Builder
	for q := range 3000 {
		for d := range 100 {
			fmt.Fprintf(&b, "q%d Q0 d%d %d %d t\n", q, d, d+1, 100-d) // 4 MB, grouped
		}
	}
	qrels := Qrels{"q7": {"d3": 1}}
	run := b.String()
	want, err := Evaluate(qrels, mustRun(t, run), AP())
	if err != nil {
		t.Fatal(err)
	}
	got, err := evaluateRunFile(qrels, pipeOf(t, run), AP())
	if err != nil || got.Mean(AP()) != want.Mean(AP()) || want.Mean(AP()) != 1.0/4 {
		t.Errorf("piped grouped run: %v, %v; want AP %v (1/4)", got.Means, err, want.Means)
	}
	ungrouped := run + "q7 Q0 dx 101 0 t\n"
	_, err = evaluateRunFile(qrels, pipeOf(t, ungrouped), AP())
	if err == nil || !strings.Contains(err.Error(), "$TMPDIR") {
		t.Errorf("piped ungrouped run without $TMPDIR: %v; want an error naming $TMPDIR", err)
	}
}

func mustRun(t *testing.T, s string) Run {
	t.Helper()
	r, err := ReadRun(strings.NewReader(s), "run")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// pipeOf returns a path (/dev/fd/N) reading data from a pipe.
func pipeOf(t *testing.T, data string) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() { io.WriteString(w, data); w.Close() }()
	t.Cleanup(func() { r.Close() })
	return fmt.Sprintf("/dev/fd/%d", r.Fd())
}

// TestIRMeasuresNames is defect 14 of issue 23: ir_measures' names give ir_measures' values,
// provider by provider, and its quoted spelling is read.
func TestIRMeasuresNames(t *testing.T) {
	mustParse := func(s string) Measure {
		m, err := ParseMeasure(s)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	// The smallest case: a and b tie at 1.0, a is relevant. ir_measures' RR@10 (msmarco:
	// ties by doc ID ascending) is 1/1; its RR (pytrec_eval: trec_eval's order, ties descending)
	// is 1/2.
	qrels := Qrels{"q": {"a": 1}}
	run := Run{Queries: map[string][]ScoredDoc{"q": {{Doc: "a", Score: 1}, {Doc: "b", Score: 1}}}}
	for _, opt := range []Options{{}, {TrecEval9: true}} {
		res, err := opt.Evaluate(qrels, run, mustParse("RR@10"), mustParse("RR"))
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Values[0]; got[0] != 1.0/1 || got[1] != 1.0/2 {
			t.Errorf("TrecEval9 %v: RR@10, RR = %v; want 1/1 (msmarco), 1/2 (pytrec_eval)", opt.TrecEval9, got)
		}
	}
	// ir_measures' quoted spelling.
	if m := mustParse("nDCG(dcg='exp-log2')@10"); m != NDCGExp(10) || mustParse(`nDCG(dcg="exp-log2")@10`) != m {
		t.Errorf("nDCG(dcg='exp-log2')@10 = %v, want %v", m, NDCGExp(10))
	}
	// gdeval ranks by float64 scores, pytrec_eval by float32: 16777217 and 16777216 tie as
	// float32 (c then b, doc ID descending) and not as float64 (b first). Under TrecEval9,
	// nDCG@10 is pytrec_eval's (b at rank 2: (2/log2(3)) / (2/log2(2))) and
	// nDCG(dcg='exp-log2')@10 gdeval's (b at rank 1: 1).
	qrels = Qrels{"1": {"b": 2, "c": 0}}
	run = Run{Queries: map[string][]ScoredDoc{"1": {{Doc: "b", Score: 16777217}, {Doc: "c", Score: 16777216}}}}
	res, err := Options{TrecEval9: true}.Evaluate(qrels, run, NDCG(10), mustParse("nDCG(dcg='exp-log2')@10"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Values[0], []float64{(2 / math.Log2(3)) / (2 / math.Log2(2)), 1}; math.Abs(got[0]-want[0]) > 1e-15 || got[1] != want[1] {
		t.Errorf("TrecEval9: nDCG@10, exp-log2 = %v; want %v", got, want)
	}
	// The streaming evaluator agrees.
	p := filepath.Join(t.TempDir(), "run")
	os.WriteFile(p, []byte("1 Q0 b 1 16777217 t\n1 Q0 c 2 16777216 t\n"), 0o644)
	fr, err := Options{TrecEval9: true}.evaluateRunFile(qrels, p, NDCG(10), NDCGExp(10), RRAt(1))
	if err != nil || fr.Values[0][0] != res.Values[0][0] || fr.Values[0][1] != 1 || fr.Values[0][2] != 1 {
		t.Errorf("EvaluateRunFile: %v, %v", fr.Values, err)
	}
}
