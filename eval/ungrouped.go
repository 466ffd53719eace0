package eval

import (
	"bytes"
	"hash/maphash"
	"math"

	"github.com/ranklab/ranklab/internal/scan"
)

// passBudget bounds the bytes of run lines one pass of evaluateUngrouped keeps (a variable for
// tests).
var passBudget = 128 << 20

// lineCost estimates the bytes a kept run line takes besides its doc ID: its offset, score and
// line number.
const lineCost = 4 + 8 + 8

// evaluateUngrouped evaluates a run whose queries are not grouped (its lines of one query not
// adjacent) with bounded memory: a first pass over the input checks every line and counts them;
// then each of K passes keeps the lines of the queries whose ID hashes to it (K chosen so a pass
// keeps about passBudget bytes) and evaluates those queries. The values, errors and line numbers
// are ReadRun's and Evaluate's: the first error in file order, a bad line or a doc listed twice.
func (ev *evaluator) evaluateUngrouped(src *scan.Source, name string, qrels Qrels) (Result, error) {
	// Pass 0: the lines up to the first bad one, their number and the doc bytes, the run's tag.
	r, err := src.Replay()
	if err != nil {
		return Result{}, inputErr(name, err)
	}
	lines := scan.NewLines(r)
	limit := math.MaxInt // lines from limit on are not evaluated (an error is there)
	var firstErr error
	data, docBytes := 0, 0
	var tag []byte
	var f, f6 [][]byte
	for lines.Next() {
		line := lines.Line()
		var more bool
		f, more = scan.Fields(lines.Bytes(), f[:0], 5)
		if len(f) == 0 || f[0][0] == '#' {
			continue
		}
		if !more {
			firstErr = parseErr(name, line, ErrFieldCount, "got %d, want at least 6 (query-id Q0 doc-id rank score tag)", len(f))
			limit = line
			break
		}
		if _, ok := scan.Float(f[4]); !ok {
			firstErr = parseErr(name, line, ErrScore, "%s", quoteField(f[4]))
			limit = line
			break
		}
		data++
		docBytes += len(f[2])
		if f6, _ = scan.Fields(lines.Bytes(), f6[:0], 6); len(f6) == 6 && !bytes.Equal(f6[5], tag) {
			tag = append(tag[:0], f6[5]...)
		}
	}
	if err := lines.Err(); err != nil && firstErr == nil {
		firstErr = readErr(name, lines.Line(), err)
		limit = lines.Line() + 1
	}
	if data == 0 && firstErr == nil {
		return Result{}, parseErr(name, 0, ErrEmpty, "no data line")
	}
	passes := 1 + (docBytes+lineCost*data)/passBudget
	seed := maphash.MakeSeed()

	queries := map[string]bool{}
	rows := map[string]row{}
	var dupErr error
	dupLine := math.MaxInt
	w := &queryEvaluator{name: name, qrels: qrels, ev: ev}
	for pass := range passes {
		r, err := src.Replay()
		if err != nil {
			return Result{}, inputErr(name, err)
		}
		groups := map[string]*lineGroup{}
		var order []string
		lines := scan.NewLines(r)
		for lines.Next() {
			line := lines.Line()
			if line >= limit {
				break
			}
			f, _ = scan.Fields(lines.Bytes(), f[:0], 5)
			if len(f) == 0 || f[0][0] == '#' {
				continue
			}
			if passes > 1 && int(maphash.Bytes(seed, f[0])%uint64(passes)) != pass {
				continue
			}
			g := groups[string(f[0])]
			if g == nil {
				g = &lineGroup{}
				groups[string(f[0])] = g
				order = append(order, string(f[0]))
			}
			score, _ := scan.Float(f[4])
			g.arena = append(g.arena, f[2]...)
			g.ends = append(g.ends, int32(len(g.arena)))
			g.scores = append(g.scores, score)
			g.lines = append(g.lines, line)
		}
		for _, q := range order {
			g := groups[q]
			queries[q] = true
			w.docs = w.docs[:0]
			start := int32(0)
			for _, end := range g.ends {
				w.docs = append(w.docs, g.arena[start:end])
				start = end
			}
			w.scores, w.lines = g.scores, g.lines
			r, errAt := w.query(q)
			if errAt != nil {
				if err := errAt(0); err.(*ParseError).Line < dupLine {
					dupErr, dupLine = err, err.(*ParseError).Line
				}
			} else if r.vals != nil {
				rows[q] = r
			}
			delete(groups, q) // its lines are no longer needed
		}
	}
	switch {
	case dupErr != nil:
		return Result{}, dupErr // every duplicate is before limit
	case firstErr != nil:
		return Result{}, firstErr
	}
	res, err := ev.assemble(qrels, queries, func(q string) (row, error) { return rows[q], nil })
	if err != nil {
		return Result{}, err
	}
	res.Tag = string(tag)
	return res, nil
}

// lineGroup holds the kept lines of one query: the doc IDs end to end in arena (doc i ends at
// ends[i]), the scores and the line numbers.
type lineGroup struct {
	arena  []byte
	ends   []int32
	scores []float64
	lines  []int
}
