package judge

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/pool"
)

// TestStoreScenarios replays random sequences of judgments, undos, reopenings, hand edits (a
// changed grade, a deleted line, an added line, a comment) and crashes between the log's fsync
// and the qrels rewrite against a model of what the store promises: the file always holds the
// model's grades; undo restores the grade before the newest judgment not yet undone, also after a
// reopen, and stops at a hand edit of its pair; a hand edit is kept; a crash loses nothing.
//
// 40 sequences of 40 steps by default (each step fsyncs); JUDGE_SCENARIOS=300 for more.
func TestStoreScenarios(t *testing.T) {
	runs, steps := 40, 40
	if n, err := strconv.Atoi(os.Getenv("JUDGE_SCENARIOS")); err == nil && n > 0 {
		runs = n
	}
	pairs := []pool.Pair{pp("1", "a"), pp("1", "b"), pp("2", "a"), pp("2", "c")}
	type step struct {
		p    pool.Pair
		prev int // noGrade: none
	}
	for run := range runs {
		r := rand.New(rand.NewPCG(uint64(run), 33))
		dir := t.TempDir()
		path := filepath.Join(dir, "j.qrels")
		model := map[pool.Pair]int{}
		var stack []step
		var trace []string
		if r.IntN(3) == 0 { // another tool's grades to start with
			model[pairs[0]] = 1
			os.WriteFile(path, []byte("# from another tool\n1 0 a 1\n"), 0o644)
		}
		s := mustOpen(t, path)
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("run %d after %s: %s", run, strings.Join(trace, ", "), fmt.Sprintf(format, args...))
		}
		for range steps {
			switch op := r.IntN(10); {
			case op < 4:
				p, g := pairs[r.IntN(len(pairs))], r.IntN(4)
				prev, ok := model[p]
				if !ok {
					prev = noGrade
				}
				if err := s.Record(p, g, 1); err != nil {
					fail("record: %v", err)
				}
				model[p] = g
				stack = append(stack, step{p, prev})
				trace = append(trace, fmt.Sprintf("judge %s%s=%d", p.Query, p.Doc, g))
			case op < 6:
				p, ok, err := s.Undo()
				if err != nil {
					fail("undo: %v", err)
				}
				if len(stack) == 0 {
					if ok {
						fail("undo of %v with nothing to undo", p)
					}
					trace = append(trace, "undo (nothing)")
					break
				}
				u := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if !ok || p != u.p {
					fail("undo gave %v %v, want %v", p, ok, u.p)
				}
				if u.prev == noGrade {
					delete(model, u.p)
				} else {
					model[u.p] = u.prev
				}
				trace = append(trace, "undo")
			case op < 8:
				s = reopen(t, s, path)
				trace = append(trace, "reopen")
			case op < 9: // a hand edit of one pair while closed
				s.Close()
				p := pairs[r.IntN(len(pairs))]
				was, had := model[p]
				if _, ok := model[p]; ok && r.IntN(2) == 0 {
					delete(model, p)
					trace = append(trace, fmt.Sprintf("hand-delete %s%s", p.Query, p.Doc))
				} else {
					model[p] = r.IntN(4)
					trace = append(trace, fmt.Sprintf("hand-set %s%s=%d", p.Query, p.Doc, model[p]))
				}
				if g, has := model[p]; has != had || g != was { // an edit that changes nothing is no edit
					stack = slices.DeleteFunc(stack, func(u step) bool { return u.p == p })
				}
				var b strings.Builder
				b.WriteString("# edited by hand\n")
				for _, q := range pairs {
					if g, ok := model[q]; ok {
						fmt.Fprintf(&b, "%s 0 %s %d\n", q.Query, q.Doc, g)
					}
				}
				os.WriteFile(path, []byte(b.String()), 0o644) // as an editor writes it, now
				s = mustOpen(t, path)
			default: // a crash between the log's fsync and the rename: the file is one judgment behind
				p, g := pairs[r.IntN(len(pairs))], r.IntN(4)
				before, _ := os.ReadFile(path)
				st, statErr := os.Stat(path)
				prev, ok := model[p]
				if !ok {
					prev = noGrade
				}
				if err := s.Record(p, g, 1); err != nil {
					fail("record: %v", err)
				}
				s.Close()
				if statErr == nil {
					os.WriteFile(path, before, 0o644)
					os.Chtimes(path, st.ModTime(), st.ModTime())
				} else {
					os.Remove(path)
				}
				model[p] = g
				stack = append(stack, step{p, prev})
				trace = append(trace, fmt.Sprintf("judge %s%s=%d, crash before the rewrite", p.Query, p.Doc, g))
				s = mustOpen(t, path)
			}
			got := map[pool.Pair]int{}
			if data, err := os.ReadFile(path); err == nil && strings.TrimSpace(strings.ReplaceAll(string(data), "# from another tool", "")) != "" {
				file, err := readQrelsFile(path)
				if err != nil {
					fail("%v", err)
				}
				got = file.grades
			}
			if !equalGrades(got, model) {
				fail("the file holds %v, the model %v", got, model)
			}
		}
		s.Close()
	}
}
