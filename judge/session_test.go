package judge

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/pool"
)

func fivePairs() []pool.Pair {
	return []pool.Pair{pp("1", "a"), pp("1", "b"), pp("1", "c"), pp("2", "d"), pp("2", "e")}
}

func cur(t *testing.T, ss *session) string {
	t.Helper()
	p, ok := ss.Current()
	if !ok {
		return "done"
	}
	return p.Query + p.Doc
}

func TestSessionKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.qrels")
	s := mustOpen(t, path)
	ss := newSession(fivePairs(), s)
	type step struct {
		key  string
		want string // the pair shown after the key
	}
	steps := []step{
		{"", "1a"},
		{"2", "1b"},
		{"s", "1c"}, // 1b skipped
		{"0", "2d"},
		{"b", "1c"}, // back: the pair judged before the current one
		{"b", "1a"},
		{"b", "1a"}, // nothing before 1a
		{"3", "1c"}, // re-judge 1a, then on to the pair judged after it
		{"s", "2d"}, // skip in back mode steps forward, keeping 1c's grade
		{"1", "2e"},
		{"u", "2d"}, // undo shows the undone pair again
		{"1", "2e"},
		{"1", "1b"}, // the skipped pair comes back last
		{"2", "done"},
	}
	for i, st := range steps {
		switch st.key {
		case "s":
			ss.Skip()
		case "b":
			ss.Back()
		case "u":
			if ok, err := ss.Undo(); !ok || err != nil {
				t.Fatalf("step %d undo: %v %v", i, ok, err)
			}
		case "":
		default:
			if err := ss.Grade(int(st.key[0]-'0'), 1); err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
		}
		if got := cur(t, ss); got != st.want {
			t.Fatalf("step %d (%q): shows %s, want %s", i, st.key, got, st.want)
		}
	}
	s.Close()
	want := eval.Qrels{"1": {"a": 3, "b": 2, "c": 0}, "2": {"d": 1, "e": 1}}
	if got := readQrels(t, path); !reflect.DeepEqual(got, want) {
		t.Fatalf("eval reads %v, want %v", got, want)
	}
}

// Resume: a new store and session on the same files start at the first pool pair (pool order)
// without a grade, even when a later one was judged; an undone first judgment is pending again.
func TestSessionResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.qrels")
	s := mustOpen(t, path)
	ss := newSession(fivePairs(), s)
	ss.Grade(1, 2) // 1a
	ss.Skip()      // 1b
	ss.Grade(0, 4) // 1c
	ss.Grade(2, 6) // 2d
	ss.Undo()      // 2d pending again
	s.Close()

	s = mustOpen(t, path)
	defer s.Close()
	ss = newSession(fivePairs(), s)
	if got := cur(t, ss); got != "1b" {
		t.Fatalf("resumes at %s, want 1b", got)
	}
	pr := ss.Progress()
	// 2 of 5 judged; pace = mean of the 3 judgments' seconds (2+4+6)/3 = 4 s; 3 left -> 12 s.
	if pr.Judged != 2 || pr.Total != 5 || pr.Pace != 4 || pr.Left != 12 {
		t.Fatalf("progress %+v", pr)
	}
	if got := pr.String(); got != "2 of 5 judged, about 12 s left at your pace" {
		t.Fatalf("progress %q", got)
	}
}

func TestProgressString(t *testing.T) {
	for _, c := range []struct {
		pr   progress
		want string
	}{
		{progress{Judged: 0, Total: 200}, "0 of 200 judged"},
		// 163 left × 4.4 s = 717.2 s = 11.95 min -> about 12 min
		{progress{Judged: 37, Total: 200, Pace: 4.4, Left: 717.2}, "37 of 200 judged, about 12 min left at your pace"},
		{progress{Judged: 3, Total: 3, Pace: 2}, "3 of 3 judged, all done"},
		{progress{Judged: 1, Total: 4, Skipped: 2, Pace: 10, Left: 30}, "1 of 4 judged, about 30 s left at your pace (2 skipped for now)"},
	} {
		if got := c.pr.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.pr, got, c.want)
		}
	}
}

// Pace caps one judgment's seconds at MaxSeconds: (10 + 300) / 2 = 155.
func TestPaceCapsPauses(t *testing.T) {
	s := mustOpen(t, filepath.Join(t.TempDir(), "j.qrels"))
	defer s.Close()
	ss := newSession(fivePairs(), s)
	ss.Grade(1, 10)
	ss.Grade(1, 5000)
	if pr := ss.Progress(); pr.Pace != 155 || pr.Left != 155*3 {
		t.Fatalf("progress %+v", pr)
	}
}
