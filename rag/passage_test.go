package rag

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/eval"
)

func TestReadPassageQrels(t *testing.T) {
	in := "query-id doc-id start end grade\nq1 d1 5 12 1\nq1\td2\t0\t3\t2\r\nq2 d1 0 4 -1\n"
	pq, err := readPassageQrels(strings.NewReader(in), "p")
	if err != nil {
		t.Fatal(err)
	}
	if len(pq["q1"]) != 2 || pq["q1"][1] != (Passage{Span{"d2", 0, 3}, 2}) || pq["q2"][0].Grade != -1 {
		t.Errorf("ReadPassageQrels = %v", pq)
	}
	tests := []struct {
		name, in string
		sentinel error
		want     string
	}{
		{"empty", "", eval.ErrEmpty, "p: empty file"},
		{"header only", "query-id doc-id start end grade\n", eval.ErrEmpty, "p: empty file"},
		{"blank line", "q d 0 1 1\n\n", eval.ErrEmptyLine, "p:2: empty line"},
		{"four fields", "q d 0 1\n", eval.ErrFieldCount, "p:1: wrong number of fields: got 4, want 5"},
		{"bad span", "q d 3 1 1\n", errSpan, "p:1: bad span"},
		{"bad grade", "q d 0 1 high\n", eval.ErrGrade, `p:1: grade is not an integer: "high"`},
		{"duplicate", "q d 0 1 1\nq d 0 1 2\n", eval.ErrDuplicate, `p:2: duplicate doc: span d [0, 1) judged twice for query "q" (first on line 1)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readPassageQrels(strings.NewReader(tc.in), "p")
			var pe *eval.ParseError
			if !errors.As(err, &pe) || !errors.Is(err, tc.sentinel) || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q wrapping %v", err, tc.want, tc.sentinel)
			}
		})
	}
}

func TestChunkAndDocQrels(t *testing.T) {
	// q1 judges d1 [5, 12) grade 1 and d1 [16, 17) grade 2; d2 [12, 14) grade 0.
	pq := PassageQrels{"q1": {{Span{"d1", 5, 12}, 1}, {Span{"d1", 16, 17}, 2}, {Span{"d2", 12, 14}, 0}}}
	cq := pq.ChunkQrels(testMap)
	// d1#0 [0,10) overlaps [5,12): 1. d1#1 [8,18) overlaps both: max 2. d2#1 [8,15) overlaps the
	// grade-0 span: judged 0. d2#0 [0,10) and d3#0 overlap nothing: unjudged.
	want := map[string]int{"d1#0": 1, "d1#1": 2, "d2#1": 0}
	if len(cq["q1"]) != len(want) {
		t.Errorf("ChunkQrels = %v, want %v", cq, want)
	}
	for id, g := range want {
		if cq["q1"][id] != g {
			t.Errorf("chunk %s grade %d, want %d", id, cq["q1"][id], g)
		}
	}
	dq := pq.docQrels()
	if dq["q1"]["d1"] != 2 || dq["q1"]["d2"] != 0 || len(dq["q1"]) != 2 {
		t.Errorf("DocQrels = %v", dq)
	}
}

func TestEvaluatePassages(t *testing.T) {
	// J = d1 [5, 12) ∪ [10, 14) = [5, 14): 9 relevant units; the grade-0 span on d2 is not relevant.
	pq := PassageQrels{
		"q1": {{Span{"d1", 5, 12}, 1}, {Span{"d1", 10, 14}, 1}, {Span{"d2", 0, 10}, 0}},
		"q3": {{Span{"d3", 0, 5}, 1}},
	}
	ms := []BudgetMeasure{SpanRecallAt(25), SpanPrecisionAt(25), SpanRecallAt(30), SpanPrecisionAt(30)}
	res, err := EvaluatePassages(pq, testRun, testMap, eval.Options{}, ms...)
	if err != nil {
		t.Fatal(err)
	}
	// B = 25: d1#1 [8,18) and d2#0 [0,10): C = 20 units, C ∩ J = [8, 14) = 6.
	// B = 30: d1#0 [0,10) joins: C = d1 [0,18) ∪ d2 [0,10) = 28 units, C ∩ J = [5, 14) = 9.
	want := []float64{6.0 / 9, 6.0 / 20, 9.0 / 9, 9.0 / 28}
	for j, m := range ms {
		if got := res.Values[0][j]; math.Abs(got-want[j]) > 1e-15 {
			t.Errorf("q1 %s = %v, want %v", m, got, want[j])
		}
		if res.Values[1][j] != 0 {
			t.Errorf("q3 (not in the run) %s = %v, want 0", m, res.Values[1][j])
		}
	}
	if len(res.Missing) != 1 || res.Missing[0] != "q3" || len(res.Ignored) != 1 || res.Ignored[0] != "q2" {
		t.Errorf("missing %v, ignored %v", res.Missing, res.Ignored)
	}
	if _, err := EvaluatePassages(pq, testRun, testMap, eval.Options{}, recallAt(5)); err == nil {
		t.Error("a document measure in EvaluatePassages: want an error")
	}
}

func FuzzReadPassageQrels(f *testing.F) {
	for _, s := range []string{"query-id doc-id start end grade\nq d 0 1 1\n", "q d 0 1 -2\r\nq d 1 2 0\n", "", "q d 1 0 1\n", "q d 0 1 2147483648\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		pq, err := readPassageQrels(strings.NewReader(in), "f")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f:") {
				t.Errorf("error without position: %v", err)
			}
			return
		}
		n := 0
		for q, ps := range pq {
			seen := map[Span]bool{}
			for _, p := range ps {
				if q == "" || p.Doc == "" || p.Start < 0 || p.End <= p.Start || p.Grade == eval.Unjudged || seen[p.Span] {
					t.Errorf("accepted a bad passage %q %v", q, p)
				}
				seen[p.Span] = true
				n++
			}
		}
		if n == 0 || n > strings.Count(in, "\n")+1 {
			t.Errorf("%d passages from %d lines", n, strings.Count(in, "\n")+1)
		}
	})
}
