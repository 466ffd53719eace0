package judge

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/pool"
	"github.com/ranklab/ranklab/retrieval"
)

// TestCardLengthAndEmpty: the card says how long a document is and how many query terms it
// marks, and an empty document gets a notice instead of a blank box (issue 34: a 27,674-word
// document in a 320 px box with no length; an empty one a blank card).
func TestCardLengthAndEmpty(t *testing.T) {
	s := mustOpen(t, filepath.Join(t.TempDir(), "j.qrels"))
	t.Cleanup(func() { s.Close() })
	long, empty, titled := pool.Pair{Query: "q", Doc: "long"}, pool.Pair{Query: "q", Doc: "empty"}, pool.Pair{Query: "q", Doc: "titled"}
	tx := docTexts{
		Docs: map[string]retrieval.Document{
			"long":   {ID: "long", Text: strings.Repeat("wing lift drag ", 9000) + "wing"}, // 27,001 words, 9,001 marked
			"empty":  {ID: "empty"},
			"titled": {ID: "titled", Title: "Wing", Text: " \n "},
		},
		Queries: map[string]string{"q": "wing"},
	}
	ss := newSession([]pool.Pair{long, empty, titled}, s)
	for _, tc := range []struct {
		p    pool.Pair
		want []string
		not  string
	}{
		{long, []string{`data-judge-length="27001"`, `data-judge-marks="9001"`, "27,001 words · 9,001 marked query terms (n: next, p: previous)"}, "data-judge-empty"},
		{empty, []string{"data-judge-empty", "This document is empty: no text at all."}, "data-judge-length"},
		{titled, []string{"data-judge-empty", "a title and no text"}, "data-judge-length"},
	} {
		h := pairHTML(tc.p, ss, tx)
		for _, w := range tc.want {
			if !strings.Contains(h, w) {
				t.Errorf("%s: card lacks %q", tc.p.Doc, w)
			}
		}
		if strings.Contains(h, tc.not) {
			t.Errorf("%s: card has %q", tc.p.Doc, tc.not)
		}
	}
}

// TestShare: the shares i/n of a pool are disjoint, whole queries, and together the pool.
func TestShare(t *testing.T) {
	var pairs []pool.Pair
	for _, q := range []string{"q3", "q1", "q2"} {
		for _, d := range []string{"a", "b"} {
			pairs = append(pairs, pool.Pair{Query: q, Doc: d})
		}
	}
	one, err1 := share(pairs, "1/2")
	two, err2 := share(pairs, "2/2")
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	// Queries in pool order q3, q1, q2: share 1 takes the 1st and 3rd, share 2 the 2nd.
	if want := []pool.Pair{{Query: "q3", Doc: "a"}, {Query: "q3", Doc: "b"}, {Query: "q2", Doc: "a"}, {Query: "q2", Doc: "b"}}; !slices.Equal(one, want) {
		t.Errorf("1/2 = %v, want %v", one, want)
	}
	if want := []pool.Pair{{Query: "q1", Doc: "a"}, {Query: "q1", Doc: "b"}}; !slices.Equal(two, want) {
		t.Errorf("2/2 = %v, want %v", two, want)
	}
	for _, bad := range []string{"0/2", "3/2", "1/0", "a/b", "1/2/3", "01/2"} {
		if _, err := share(pairs, bad); err == nil {
			t.Errorf("share %q: no error", bad)
		}
	}
}

// TestNotesDurable: a note is on disk when Add returns, the latest note of a pair wins, a torn
// last line (a crash mid-append) is dropped and any other bad line is an error with its line.
func TestNotesDurable(t *testing.T) {
	qrels := filepath.Join(t.TempDir(), "j.qrels")
	nb, err := openNotes(qrels, false)
	if err != nil {
		t.Fatal(err)
	}
	p := pool.Pair{Query: "q1", Doc: "d1"}
	for _, n := range []string{"first", "  cites the wrong section \t"} {
		if err := nb.Add(p, "ann", n); err != nil {
			t.Fatal(err)
		}
	}
	// Read back by a second reader while the first is open: the note is on disk already.
	back, err := openNotes(qrels, true)
	if err != nil || back.Note(p) != "cites the wrong section" {
		t.Fatalf("read back: %q, %v", back.Note(p), err)
	}
	nb.Close()
	if err := nb.Add(p, "ann", "late"); err == nil {
		t.Error("Add after Close: no error")
	}
	f, _ := os.OpenFile(qrels+".notes.jsonl", os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"time":"2026-01-01T00:00:00Z","judge":"ann","query":"q1","doc":"d1","no`) // torn
	f.Close()
	if back, err = openNotes(qrels, true); err != nil || back.Note(p) != "cites the wrong section" {
		t.Errorf("torn last line: %q, %v", back.Note(p), err)
	}
	// The next panel cuts the torn line off before it appends: the file reads whole again.
	nb, err = openNotes(qrels, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := nb.Add(p, "bob", "after the crash"); err != nil {
		t.Fatal(err)
	}
	nb.Close()
	if back, err = openNotes(qrels, true); err != nil || back.Note(p) != "after the crash" {
		t.Errorf("after repair: %q, %v", back.Note(p), err)
	}
	f, _ = os.OpenFile(qrels+".notes.jsonl", os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("{}\n")
	f.Close()
	if _, err := openNotes(qrels, true); err == nil || !strings.Contains(err.Error(), ".notes.jsonl:4:") {
		t.Errorf("bad line: %v", err)
	}
	if err := (&noteBook{}).Add(p, "x", strings.Repeat("x", maxNote+1)); err == nil {
		t.Error("closed notebook: no error")
	}
}
