package rag

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/eval"
)

// TestPassageQrelsBOM is defect 2 of issue 23: a byte-order mark at the start of a passage qrels
// file (or a chunk map) is dropped, as every ranklab reader drops it, so the first query keeps
// its ID and its judged spans.
func TestPassageQrelsBOM(t *testing.T) {
	plain := "q1 d1 0 10 2\nq2 d2 5 9 1\n"
	want, err := readPassageQrels(strings.NewReader(plain), "p")
	if err != nil {
		t.Fatal(err)
	}
	got, err := readPassageQrels(strings.NewReader("\ufeff"+plain), "p")
	if err != nil || len(got["q1"]) != 1 || got["q1"][0] != want["q1"][0] || len(got) != 2 {
		t.Errorf("with a BOM: %v, %v; want %v", got, err, want)
	}
	m, err := readChunkMap(strings.NewReader("\ufeffd1#0 d1 0 10\n"), "m")
	if err != nil || m["d1#0"] != (Span{"d1", 0, 10}) {
		t.Errorf("chunk map with a BOM: %v, %v", m, err)
	}
	// The measure the issue saw drop to 0: SpanR of q1 with the BOM is the plain file's.
	run := eval.Run{Queries: map[string][]eval.ScoredDoc{"q1": {{Doc: "d1#0", Score: 1}}}}
	for _, pq := range []PassageQrels{want, got} {
		res, err := EvaluatePassages(pq, run, m, eval.Options{}, SpanRecallAt(100))
		if err != nil || res.Values[0][0] != 1 {
			t.Errorf("SpanR@100tok of q1 = %v, %v; want 1 (10 of 10 units)", res.Values, err)
		}
	}
}

// TestBudgetOverflow is defect 5 of issue 23: budgets and span totals are compared and summed
// without integer overflow, and a span read from a file ending beyond 2^40 units is refused
// with file:line.
func TestBudgetOverflow(t *testing.T) {
	// A chunk of 2^63-1 tokens after a 10-token chunk does not fit a 100-token budget.
	m := ChunkMap{"a": {"x", 0, 10}, "huge": {"y", 0, math.MaxInt}}
	ids, used, err := Context([]eval.ScoredDoc{{Doc: "a", Score: 2}, {Doc: "huge", Score: 1}}, m, 100)
	if err != nil || !slices.Equal(ids, []string{"a"}) || used != 10 {
		t.Errorf("Context = %v, %d, %v; want [a], 10", ids, used, err)
	}
	// Two passages of 2^62 units each: their total overflows an int; an error, not SpanR 0.
	pq := PassageQrels{"q": {{Span{"x", 0, 1 << 62}, 1}, {Span{"y", 0, 1 << 62}, 1}}}
	run := eval.Run{Queries: map[string][]eval.ScoredDoc{"q": {{Doc: "a", Score: 1}}}}
	if res, err := EvaluatePassages(pq, run, m, eval.Options{}, SpanRecallAt(100)); err == nil {
		t.Errorf("spans adding up beyond 2^63: got %v, want an error", res.Values)
	}
	// From files: an end beyond 2^40 is ErrSpan at its line.
	for name, read := range map[string]func(string) error{
		"passages":  func(s string) error { _, err := readPassageQrels(strings.NewReader(s+" 1\n"), "f"); return err },
		"chunk map": func(s string) error { _, err := readChunkMap(strings.NewReader(s+"\n"), "f"); return err },
	} {
		if err := read("q d 0 1099511627776"); err != nil {
			t.Errorf("%s: end 2^40 refused: %v", name, err)
		}
		err := read("q d 0 1099511627777")
		var pe *eval.ParseError
		if !errors.Is(err, errSpan) || !errors.As(err, &pe) || pe.Line != 1 || pe.File != "f" {
			t.Errorf("%s: end 2^40+1: %v; want f:1: bad span", name, err)
		}
	}
}
