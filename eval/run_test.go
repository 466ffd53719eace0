package eval

import (
	"bytes"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

func TestReadRun(t *testing.T) {
	in := "q1 Q0 a 1 2.5 tagA\nq2\tQ0\tb\t1\t-1e-3\ttagA extra fields\r\nq1 Q0 c 2 0.10e1 tagB\n"
	got, err := ReadRun(strings.NewReader(in), "run")
	if err != nil {
		t.Fatal(err)
	}
	// Tag is the last line's (trec_eval's runid).
	want := Run{Tag: "tagB", Queries: map[string][]ScoredDoc{
		"q1": {{"a", 2.5}, {"c", 1}},
		"q2": {{"b", -0.001}},
	}}
	if !runEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func runEqual(a, b Run) bool {
	return a.Tag == b.Tag && maps.EqualFunc(a.Queries, b.Queries, slices.Equal)
}

func TestReadRunErrors(t *testing.T) {
	tests := []struct {
		name, in string
		is       error
		msg      string
	}{
		{"five fields", "q1 Q0 a 1 2 t\nq1 Q0 b 2 1\n", ErrFieldCount, "run:2: wrong number of fields: got 5, want at least 6"},
		{"word score", "q1 Q0 a 1 high t\n", ErrScore, `run:1: score is not a finite number: "high"`},
		{"underscore score", "q1 Q0 a 1 1_000 t\n", ErrScore, `run:1: score is not a finite number: "1_000"`},
		{"hex score", "q1 Q0 a 1 0x10 t\n", ErrScore, "run:1:"},
		{"comma score", "q1 Q0 a 1 1,5 t\n", ErrScore, "run:1:"},
		{"exponent without digits", "q1 Q0 a 1 1e t\n", ErrScore, "run:1:"},
		{"long score quoted short", "q1 Q0 a 1 " + strings.Repeat("9", 5000) + "x t\n", ErrScore, `run:1: score is not a finite number: "9999999999999999999999999999999999999999"... (5001 bytes)`},
		{"NaN score", "q1 Q0 a 1 NaN t\n", ErrScore, "run:1:"},
		{"infinite score", "q1 Q0 a 1 1e999 t\n", ErrScore, "run:1:"},
		{"duplicate", "q1 Q0 a 1 2 d\nq1 Q0 a 2 1 d\n", ErrDuplicate, `run:2: duplicate doc: "a" listed twice for query "q1" (first on line 1)`},
		{"empty", "", ErrEmpty, "run: empty file"},
		{"only comments and blank lines", "# a run\n\n  # more\n", ErrEmpty, "run: empty file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadRun(strings.NewReader(tc.in), "run")
			if !errors.Is(err, tc.is) || !strings.HasPrefix(err.Error(), tc.msg) {
				t.Errorf("err = %v, want %v with prefix %q", err, tc.is, tc.msg)
			}
		})
	}
}

func TestWriteRunRoundTrip(t *testing.T) {
	run := Run{Tag: "bm25", Queries: map[string][]ScoredDoc{
		"q2": {{"x", 0.1}, {"y", 0.30000000000000004}},
		"q1": {{"a", 1}, {"b", 1}, {"c", 3e-300}},
	}}
	var buf bytes.Buffer
	if err := WriteRun(&buf, run); err != nil {
		t.Fatal(err)
	}
	want := "q1 Q0 b 1 1 bm25\nq1 Q0 a 2 1 bm25\nq1 Q0 c 3 3e-300 bm25\nq2 Q0 y 1 0.30000000000000004 bm25\nq2 Q0 x 2 0.1 bm25\n"
	if buf.String() != want {
		t.Errorf("wrote\n%s\nwant\n%s", buf.String(), want)
	}
	back, err := ReadRun(&buf, "written")
	if err != nil {
		t.Fatal(err)
	}
	for q, docs := range run.Queries {
		if !slices.Equal(back.Queries[q], Rank(docs)) {
			t.Errorf("query %s read back as %v, want %v", q, back.Queries[q], Rank(docs))
		}
	}
	if run.Queries["q1"][0].Doc != "a" {
		t.Error("WriteRun reordered its input")
	}
	// Defects 10 and 11 of issue 33: a control character went raw into the run; a query ID
	// starting with U+FEFF, written first, read back as another query.
	for _, bad := range []Run{{Tag: ""}, {Tag: "a b"}, {Tag: "t", Queries: map[string][]ScoredDoc{"q": {{"d d", 1}}}},
		{Tag: "t", Queries: map[string][]ScoredDoc{"q": {{"d\x002", 1}}}}, {Tag: "t", Queries: map[string][]ScoredDoc{"\ufeffq": {{"d", 1}}}},
		{Tag: "t", Queries: map[string][]ScoredDoc{"q\x7f": {{"d", 1}}}}} {
		if err := WriteRun(&bytes.Buffer{}, bad); err == nil {
			t.Errorf("WriteRun(%+v) gave no error", bad)
		}
	}
}

func TestReadRunFileGzip(t *testing.T) {
	p := sharedtest.WriteFile(t, "", "run", "q1 Q0 a 1 2 t\n")
	got, err := ReadRunFile(p)
	if err != nil || len(got.Queries["q1"]) != 1 {
		t.Fatalf("got %+v, %v", got, err)
	}
}

func TestRank(t *testing.T) {
	docs := []ScoredDoc{{"a", 1}, {"B", 1}, {"d10", 1}, {"d9", 1}, {"c", 1}, {"b", 1}, {"z", 2}, {"y", -1}}
	got := Rank(docs)
	var ids []string
	for _, d := range got {
		ids = append(ids, d.Doc)
	}
	want := []string{"z", "d9", "d10", "c", "b", "a", "B", "y"}
	if !slices.Equal(ids, want) {
		t.Errorf("Rank order %v, want %v", ids, want)
	}
	if docs[0].Doc != "a" {
		t.Error("Rank modified its input")
	}
}

func FuzzReadRun(f *testing.F) {
	for _, s := range []string{"q1 Q0 a 1 2.5 t\n", "q1 Q0 a 1 2 t\nq1 Q0 a 2 1 t\n", "q Q0 d 1 0x1p-3 t x y\r\n", "", "\n\n", "q Q0 d 1 inf t\n", "a b c d e\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		run, err := ReadRun(strings.NewReader(in), "f")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f:") {
				t.Errorf("error %q does not name the file", err)
			}
			return
		}
		var buf bytes.Buffer
		if WriteRun(&buf, run) != nil {
			return // e.g. a tag the writer refuses
		}
		back, err := ReadRun(&buf, "back")
		if err != nil {
			t.Fatalf("written run does not read back: %v", err)
		}
		for q, docs := range run.Queries {
			if !slices.Equal(back.Queries[q], Rank(docs)) {
				t.Errorf("query %q changed in a round trip", q)
			}
		}
	})
}
