package pool

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/eval"
)

// ranking builds a run's ranking of one query: docs in rank order (scores n, n-1, ..., 1).
func ranking(docs ...string) []eval.ScoredDoc {
	out := make([]eval.ScoredDoc, len(docs))
	for i, d := range docs {
		out[i] = eval.ScoredDoc{Doc: d, Score: float64(len(docs) - i)}
	}
	return out
}

func run(name string, queries map[string][]eval.ScoredDoc) eval.Run {
	return eval.Run{Tag: name, Queries: queries}
}

func pairs(s ...string) []Pair {
	var out []Pair
	for _, x := range s {
		f := strings.Fields(x)
		out = append(out, Pair{f[0], f[1]})
	}
	return out
}

func TestDepth(t *testing.T) {
	// A ranks q1: a b c; B ranks q1: b d a and q2: x.
	runs := []eval.Run{
		run("A", map[string][]eval.ScoredDoc{"q1": ranking("a", "b", "c")}),
		run("B", map[string][]eval.ScoredDoc{"q1": ranking("b", "d", "a"), "q2": ranking("x")}),
	}
	tests := []struct {
		name   string
		k      int
		judged eval.Qrels
		want   []Pair
		runs   []contribution
		judges int
	}{
		{
			// top 2: A {a, b}, B {b, d}, {x}. Order by best rank then run: a (0, A), b (0, B), d (1, B).
			name: "k=2", k: 2,
			want: pairs("q1 a", "q1 b", "q1 d", "q2 x"),
			// A: a b in its top 2 (2), a only in A's (1), both new (2); B: b d x (3), d x only B's (2),
			// d x not in A's top 2 (2). Added sums to the pool's 4 pairs.
			runs: []contribution{{"A", 2, 1, 2}, {"B", 3, 2, 2}},
		},
		{
			// a is judged (grade 1), d has -1 ("pooled, not judged"): only a leaves the pool.
			name: "k=2 grown", k: 2, judged: eval.Qrels{"q1": {"a": 1, "d": -1}},
			want:   pairs("q1 b", "q1 d", "q2 x"),
			runs:   []contribution{{"A", 1, 0, 1}, {"B", 3, 2, 2}},
			judges: 1,
		},
		{
			// whole runs: q1 a (0, A), b (0, B), d (1, B), c (2, A); a is at rank 2 in B but rank 0 in A.
			name: "k=0", k: 0,
			want: pairs("q1 a", "q1 b", "q1 d", "q1 c", "q2 x"),
			runs: []contribution{{"A", 3, 1, 3}, {"B", 4, 2, 2}},
		},
		{
			// judging the first pool (k=2) then growing to k=3 lists only c.
			name: "k=2 judged then k=3", k: 3, judged: eval.Qrels{"q1": {"a": 1, "b": 0, "d": 0}, "q2": {"x": 2}},
			want:   pairs("q1 c"),
			runs:   []contribution{{"A", 1, 1, 1}, {"B", 0, 0, 0}},
			judges: 4,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Depth(runs, tc.k, tc.judged)
			if !reflect.DeepEqual(p.Pairs, tc.want) {
				t.Errorf("pairs %v, want %v", p.Pairs, tc.want)
			}
			if !reflect.DeepEqual(p.Runs, tc.runs) {
				t.Errorf("contributions %+v, want %+v", p.Runs, tc.runs)
			}
			if p.Judged != tc.judges || p.Queries != 2 {
				t.Errorf("judged %d queries %d, want %d and 2", p.Judged, p.Queries, tc.judges)
			}
		})
	}
}

func TestDepthDuplicateDoc(t *testing.T) {
	// A run built in code may list a doc twice (a file reader refuses it): it counts once.
	runs := []eval.Run{run("A", map[string][]eval.ScoredDoc{"q": {{Doc: "a", Score: 2}, {Doc: "a", Score: 1}}})}
	p := Depth(runs, 0, nil)
	if want := []contribution{{"A", 1, 1, 1}}; len(p.Pairs) != 1 || !reflect.DeepEqual(p.Runs, want) {
		t.Errorf("pairs %v contributions %+v", p.Pairs, p.Runs)
	}
}

func TestDepthTiesAndNames(t *testing.T) {
	// Tied scores rank by doc ID descending (trec_eval): "q" before "p". An unnamed run takes its
	// tag, else "run N".
	runs := []eval.Run{
		{Tag: "tagged", Queries: map[string][]eval.ScoredDoc{"q": {{Doc: "p", Score: 1}, {Doc: "q", Score: 1}}}},
		{Queries: map[string][]eval.ScoredDoc{"q": {{Doc: "z", Score: 5}}}},
	}
	p := Depth(runs, 1, nil)
	if want := pairs("q q", "q z"); !reflect.DeepEqual(p.Pairs, want) {
		t.Errorf("pairs %v, want %v", p.Pairs, want)
	}
	if p.Runs[0].Run != "tagged" || p.Runs[1].Run != "run 2" {
		t.Errorf("names %q %q", p.Runs[0].Run, p.Runs[1].Run)
	}
}

func TestMoveToFront(t *testing.T) {
	ab := []eval.Run{
		run("A", map[string][]eval.ScoredDoc{"q": ranking("a1", "a2", "a3")}),
		run("B", map[string][]eval.ScoredDoc{"q": ranking("b1", "b2", "b3")}),
	}
	abc := append(ab[:2:2], run("C", map[string][]eval.ScoredDoc{"q": ranking("c1", "c2")}))
	shared := []eval.Run{ab[0], run("B", map[string][]eval.ScoredDoc{"q": ranking("a1", "b1", "b2")})}
	short := []eval.Run{run("A", map[string][]eval.ScoredDoc{"q": ranking("a1")}), ab[1]}
	tests := []struct {
		name   string
		runs   []eval.Run
		judged map[string]int
		want   string // the next doc, "" for none
		steps  []int  // the run of each step, the next one included
	}{
		// Nothing judged: the first run's first doc.
		{"start", ab, nil, "a1", []int{0}},
		// a1 relevant: A keeps the front.
		{"relevant stays", ab, map[string]int{"a1": 1}, "a2", []int{0, 0}},
		// a2 not relevant: p_A = -1, B (0) takes the front.
		{"non-relevant moves", ab, map[string]int{"a1": 1, "a2": 0}, "b1", []int{0, 0, 1}},
		// b1 not relevant: p_B = -1; the other run A (-1) is next, not B again.
		{"back and forth", ab, map[string]int{"a1": 1, "a2": 0, "b1": 0}, "a3", []int{0, 0, 1, 0}},
		// a3 not relevant: p_A = -2 < p_B = -1: B.
		{"lower priority", ab, map[string]int{"a1": 1, "a2": 0, "b1": 0, "a3": 0}, "b2", []int{0, 0, 1, 0, 1}},
		// Three runs, each first doc not relevant: A (-1) → B (0, before C) → C (0) → A (-1, before B).
		{"three runs", abc, map[string]int{"a1": 0, "b1": 0, "c1": 0}, "a2", []int{0, 1, 2, 0}},
		// A relevant doc keeps C in front after the round.
		{"three runs relevant", abc, map[string]int{"a1": 0, "b1": 0, "c1": 2, "c2": 0}, "a2", []int{0, 1, 2, 2, 0}},
		// B's first doc a1 was reached through A: skipped, no priority change.
		{"reached doc skipped", shared, map[string]int{"a1": 1, "a2": 0}, "b1", []int{0, 0, 1}},
		// A runs out after a relevant doc: B.
		{"exhausted", short, map[string]int{"a1": 1}, "b1", []int{0, 1}},
		// Grade -1 is "pooled, not judged": a1 is still next.
		{"negative grade", ab, map[string]int{"a1": -1}, "a1", []int{0}},
		// Everything judged: no next pair.
		{"all judged", short, map[string]int{"a1": 1, "b1": 0, "b2": 3, "b3": 0}, "", []int{0, 1, 1, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			judged := eval.Qrels{"q": tc.judged}
			p := MoveToFront(tc.runs, 0, judged, 1)
			var next string
			if len(p.Pairs) == 1 {
				next = p.Pairs[0].Doc
			} else if len(p.Pairs) > 1 {
				t.Fatalf("pairs %v: want at most one per query", p.Pairs)
			}
			if next != tc.want {
				t.Errorf("next %q, want %q", next, tc.want)
			}
			_, top := tops(tc.runs, 0)
			var got []int
			for _, s := range mtfReplay(top["q"], "q", judged, 1) {
				got = append(got, s.Run)
			}
			if !reflect.DeepEqual(got, tc.steps) {
				t.Errorf("runs of the steps %v, want %v", got, tc.steps)
			}
		})
	}
}

func TestMoveToFrontDepthAndContribution(t *testing.T) {
	runs := []eval.Run{
		run("A", map[string][]eval.ScoredDoc{"q": ranking("a1", "s", "a3")}),
		run("B", map[string][]eval.ScoredDoc{"q": ranking("s", "b2", "b3")}),
	}
	// k = 2: A's list a1 s, B's s b2. a1 rel, s non-rel (from A): B, whose s is reached: b2 next.
	p := MoveToFront(runs, 2, eval.Qrels{"q": {"a1": 1, "s": 0}}, 1)
	if want := pairs("q b2"); !reflect.DeepEqual(p.Pairs, want) {
		t.Fatalf("pairs %v, want %v", p.Pairs, want)
	}
	// A gave a1 (only A's) and s (both); B gave b2 (only B's in the top 2).
	want := []contribution{{"A", 2, 1, 2}, {"B", 1, 1, 1}}
	if !reflect.DeepEqual(p.Runs, want) || p.Judged != 2 {
		t.Errorf("contributions %+v judged %d, want %+v and 2", p.Runs, p.Judged, want)
	}
	// Relevance level 2: grade 1 is not relevant, so a1 already moves A back: B's s, then b2.
	steps := mtfReplay([][]string{{"a1", "s"}, {"s", "b2"}}, "q", eval.Qrels{"q": {"a1": 1, "s": 2}}, 2)
	var docs []string
	for _, s := range steps {
		docs = append(docs, s.Doc)
	}
	if want := []string{"a1", "s", "b2"}; !reflect.DeepEqual(docs, want) {
		t.Errorf("relevance level 2: reached %v, want %v", docs, want)
	}
}

func TestWriteRead(t *testing.T) {
	in := pairs("q2 d9", "q1 d10", "q1 d2")
	path := filepath.Join(t.TempDir(), "pool.txt")
	if err := WriteFile(path, in); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if want := "q2 0 d9 -1\nq1 0 d10 -1\nq1 0 d2 -1\n"; string(data) != want {
		t.Errorf("file %q, want %q", data, want)
	}
	got, grades, err := ReadFile(path)
	if err != nil || !reflect.DeepEqual(got, in) || !reflect.DeepEqual(grades, []int{-1, -1, -1}) {
		t.Errorf("read back %v %v %v", got, grades, err)
	}
	// Every qrels reader reads it: eval's gives the -1 grades.
	q, err := eval.ReadQrelsFile(path)
	if err != nil || q["q1"]["d10"] != -1 || len(q["q1"]) != 2 {
		t.Errorf("eval.ReadQrelsFile: %v %v", q, err)
	}
	// Nothing but the file itself is left in the folder (the temporary file was renamed).
	if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 1 {
		t.Errorf("%d entries in the folder, want 1", len(ents))
	}
	if err := Write(&strings.Builder{}, pairs("q a")[:0]); err != nil {
		t.Error(err)
	}
	if err := Write(&strings.Builder{}, []Pair{{"q 1", "d"}}); err == nil {
		t.Error("an ID with a space was written")
	}
}

// TestWriteRefusesIDsThatReadBackOtherwise is defect 11 of issue 33 (found by FuzzRead): a query
// ID starting with U+FEFF, written first, read back as another query (every reader drops a
// leading byte order mark). Such IDs, and control characters, are refused on write and on read.
func TestWriteRefusesIDsThatReadBackOtherwise(t *testing.T) {
	for _, p := range []Pair{{"\ufeffq1", "d"}, {"q1", "\ufeffd"}, {"q\x001", "d"}, {"q1", "d\x7f"}, {"q1", "d\u0085"}} {
		var b strings.Builder
		if err := Write(&b, []Pair{p}); err == nil {
			back, _, rerr := read(strings.NewReader(b.String()), "f")
			t.Errorf("%q written as %q, reads back as %v (%v)", p, b.String(), back, rerr)
		}
	}
	if _, _, err := read(strings.NewReader("q 0 d -1\n\ufeffq 0 d -1\n"), "f"); err == nil || !strings.HasPrefix(err.Error(), "f:2: query ID") {
		t.Errorf("a U+FEFF starting an ID on line 2: %v", err)
	}
}

func TestWriteFileKeepsOldOnError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pool.txt")
	os.WriteFile(path, []byte("old\n"), 0o644)
	if err := WriteFile(path, []Pair{{"q", "bad doc"}}); err == nil {
		t.Fatal("no error")
	}
	if data, _ := os.ReadFile(path); string(data) != "old\n" {
		t.Errorf("old file changed to %q", data)
	}
	if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 1 {
		t.Errorf("temporary file left: %d entries", len(ents))
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct {
		in       string
		line     int
		sentinel error
	}{
		{"q 0 d -1\nq 0 d\n", 2, eval.ErrFieldCount},
		{"# comment\n\nq 0 d x\n", 3, eval.ErrGrade},
		{"q 0 d 1.5\n", 1, eval.ErrGrade},
		{"q 0 d -1\nq 0 e 1\nq 0 d 2\n", 3, eval.ErrDuplicate},
	}
	for _, tc := range tests {
		_, _, err := read(strings.NewReader(tc.in), "f")
		var pe *eval.ParseError
		if !errors.As(err, &pe) || pe.Line != tc.line || !errors.Is(err, tc.sentinel) || !strings.HasPrefix(err.Error(), "f:") {
			t.Errorf("%q: %v, want line %d %v", tc.in, err, tc.line, tc.sentinel)
		}
	}
}

func FuzzRead(f *testing.F) {
	for _, s := range []string{"q 0 d -1\n", "q1 0 d1 2\r\nq1 0 d2 0\n", "\ufeffq 0 d 1\n", "# x\n\n", "q 0 d\n", "q 0 d 9999999999\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		ps, gs, err := read(strings.NewReader(in), "f")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f:") {
				t.Errorf("error %q does not name the file", err)
			}
			return
		}
		if len(ps) != len(gs) {
			t.Fatalf("%d pairs, %d grades", len(ps), len(gs))
		}
		// What was read writes and reads back to the same pairs.
		var b strings.Builder
		if err := Write(&b, ps); err != nil {
			t.Fatalf("pairs read do not write back: %v", err)
		}
		back, _, err := read(strings.NewReader(b.String()), "g")
		if err != nil || !reflect.DeepEqual(back, ps) {
			t.Errorf("round trip: %v %v, want %v", back, err, ps)
		}
	})
}

func TestPending(t *testing.T) {
	ps := pairs("q1 a", "q1 b", "q2 c", "q2 d")
	// a graded 0 and c graded 2 are judged; b's -1 is not; d has no grade.
	got := pending(ps, eval.Qrels{"q1": {"a": 0, "b": -1}, "q2": {"c": 2}, "q3": {"a": 1}})
	if want := pairs("q1 b", "q2 d"); !reflect.DeepEqual(got, want) {
		t.Errorf("pending %v, want %v", got, want)
	}
	if got := pending(ps, nil); !reflect.DeepEqual(got, ps) {
		t.Errorf("nothing judged: %v", got)
	}
}
