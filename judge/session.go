package judge

import (
	"fmt"
	"math"
	"slices"

	"github.com/ranklab/ranklab/pool"
)

// session is the judging state machine over a pool and a Store: which pair is on screen,
// and what each key does. It knows nothing of the page, so it is tested without a browser.
//
//   - The current pair is the focus (set by back and undo) if any, else the first pair of the
//     pool, in pool order, that has no grade and was not skipped in this session: a new Session
//     on the same files resumes at the next pair of the pool file not yet in the judgments file.
//   - Grade(g) records g for the current pair (durably, see Store.Record) and moves on: to the
//     pair judged after it when the focus came from back, else to the next pending pair.
//   - Skip leaves the current pair unjudged for now: it comes back once every other pending pair
//     is judged (and at the next session).
//   - Back shows the pair judged before the current one (in the order they were first
//     judged), to look at or re-judge; its grade stands until a new key is given.
//   - Undo reverts the newest judgment (an undo line in the side log; the qrels file drops the
//     grade, or restores the previous one after a re-judge) and shows that pair again.
type session struct {
	Pool    []pool.Pair
	store   *judgmentStore
	notes   *noteBook // nil: no notes (tests)
	inPool  map[pool.Pair]bool
	skipped map[pool.Pair]bool
	focus   *pool.Pair
}

// newSession starts judging pairs (a pool, in judging order) into s.
func newSession(pairs []pool.Pair, s *judgmentStore) *session {
	in := make(map[pool.Pair]bool, len(pairs))
	for _, p := range pairs {
		in[p] = true
	}
	return &session{Pool: pairs, store: s, inPool: in, skipped: map[pool.Pair]bool{}}
}

// Note returns the pair's note ("" when there is none).
func (ss *session) Note(p pool.Pair) string {
	if ss.notes == nil {
		return ""
	}
	return ss.notes.Note(p)
}

// Store is the session's store.
func (ss *session) Store() *judgmentStore { return ss.store }

// Current returns the pair to show; ok is false when every pair of the pool is judged.
func (ss *session) Current() (p pool.Pair, ok bool) {
	if ss.focus != nil {
		return *ss.focus, true
	}
	for pass := 0; pass < 2; pass++ {
		for _, p := range ss.Pool {
			if _, judged := ss.store.Grade(p); !judged && (pass == 1 || !ss.skipped[p]) {
				return p, true
			}
		}
		// Every pending pair was skipped: they come round again.
		clear(ss.skipped)
	}
	return pool.Pair{}, false
}

// judgedOrder returns the pool's judged pairs in the order they were first judged (a
// re-judged pair keeps its place, so back walks the judging order).
func (ss *session) judgedOrder() []pool.Pair {
	last := map[pool.Pair]int{}
	for i, e := range ss.store.entries {
		if _, seen := last[e.Pair]; e.Action == "judge" && ss.inPool[e.Pair] && !seen {
			last[e.Pair] = i
		}
	}
	var out []pool.Pair
	for p := range last {
		if _, ok := ss.store.Grade(p); ok {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b pool.Pair) int { return last[a] - last[b] })
	return out
}

// Grade records g (0..3) for the current pair, shown for seconds, and moves on.
func (ss *session) Grade(g int, seconds float64) error {
	p, ok := ss.Current()
	if !ok {
		return fmt.Errorf("judge: every pair is judged")
	}
	order := ss.judgedOrder()
	next := -1
	if ss.focus != nil {
		if i := slices.Index(order, p); i >= 0 && i+1 < len(order) {
			next = i + 1
		}
	}
	var after *pool.Pair
	if next >= 0 {
		n := order[next]
		after = &n
	}
	if err := ss.store.Record(p, g, seconds); err != nil {
		return err
	}
	delete(ss.skipped, p)
	ss.focus = after
	return nil
}

// Skip moves past the current pair without judging it.
func (ss *session) Skip() {
	p, ok := ss.Current()
	if !ok {
		return
	}
	if ss.focus != nil {
		order := ss.judgedOrder()
		ss.focus = nil
		if i := slices.Index(order, p); i >= 0 && i+1 < len(order) {
			n := order[i+1]
			ss.focus = &n
		}
		return
	}
	ss.skipped[p] = true
}

// Back shows the pair judged before the current one; false when there is none.
func (ss *session) Back() bool {
	order := ss.judgedOrder()
	i := len(order)
	if ss.focus != nil {
		i = slices.Index(order, *ss.focus)
	}
	if i <= 0 {
		return false
	}
	p := order[i-1]
	ss.focus = &p
	return true
}

// Undo reverts the newest judgment and shows its pair; false when there is nothing to undo.
func (ss *session) Undo() (bool, error) {
	p, ok, err := ss.store.Undo()
	if !ok || err != nil {
		return ok, err
	}
	delete(ss.skipped, p)
	if ss.inPool[p] {
		ss.focus = &p
	} else {
		ss.focus = nil
	}
	return true, nil
}

// progress is what the panel's progress line says.
type progress struct {
	Judged, Total int     // pool pairs with a grade, pool pairs
	Skipped       int     // pending pairs skipped in this session
	Pace          float64 // mean seconds per judgment (the log's judgments, each capped at MaxSeconds); 0: none yet
	Left          float64 // Pace × pairs left, in seconds
}

// maxSeconds caps one judgment's time in the pace: a pause (coffee, a meeting) is not pace.
const maxSeconds = 300

// Progress counts the pool's judged pairs and estimates the time left.
func (ss *session) Progress() progress {
	var pr progress
	pr.Total = len(ss.Pool)
	for _, p := range ss.Pool {
		if _, ok := ss.store.Grade(p); ok {
			pr.Judged++
		} else if ss.skipped[p] {
			pr.Skipped++
		}
	}
	n, sum := 0, 0.0
	for _, e := range ss.store.entries {
		if e.Action == "judge" {
			n++
			sum += math.Min(e.Seconds, maxSeconds)
		}
	}
	if n > 0 {
		pr.Pace = sum / float64(n)
		pr.Left = pr.Pace * float64(pr.Total-pr.Judged)
	}
	return pr
}

// String is "37 of 200 judged, about 12 min left at your pace" (no estimate before the first
// judgment; minutes rounded up, seconds under a minute).
func (pr progress) String() string {
	s := fmt.Sprintf("%d of %d judged", pr.Judged, pr.Total)
	switch {
	case pr.Judged == pr.Total:
		s += ", all done"
	case pr.Pace > 0 && pr.Left < 60:
		s += fmt.Sprintf(", about %d s left at your pace", int(math.Ceil(pr.Left)))
	case pr.Pace > 0:
		s += fmt.Sprintf(", about %d min left at your pace", int(math.Ceil(pr.Left/60)))
	}
	if pr.Skipped > 0 {
		s += fmt.Sprintf(" (%d skipped for now)", pr.Skipped)
	}
	return s
}
