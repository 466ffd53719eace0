package live

import (
	"slices"

	"github.com/ranklab/ranklab/lab"
)

// fields are the panel's controls: lab.Fields marked Live, in their order. A field's Key is the
// control's data-field attribute and the key of the messages between page and kernel. A slider
// offers exactly the valid values: lab.Field.SliderRange, and for a field that may also be 0
// (total: 0 = the qrels' count) one more position just below it that stands for 0 (sliderSpan).
// The ranges follow the state (the kernel sends them with every reply). Two rules keep a move of
// one control from making another invalid: overlap stays below the chunk size (the overlap
// slider's maximum follows the chunk), and a non-zero total stays at least the relevant items
// found (raised when a lower grade finds more). The state's own rules (lab.State.Validate) still
// decide what is valid: a typed corpus size out of range shows lab's message.
var fields = func() []lab.Field {
	var out []lab.Field
	for _, f := range lab.Fields {
		if f.Live {
			out = append(out, f)
		}
	}
	return out
}()

// apply returns s with the given control values set (unknown names are ignored: they cannot
// come from the panel), the overlap kept below the chunk size and a non-zero total kept at least
// the relevant items found.
func apply(s lab.State, values map[string]int) lab.State {
	for _, f := range fields {
		if v, ok := values[f.Key]; ok {
			s = f.Set(s, int64(v))
		}
	}
	return keepTotalValid(keepOverlapBelowChunk(s))
}

// keepTotalValid raises a non-zero Total below the relevant items found in the ranking to that
// count, the least valid non-zero value (lowering the grade finds more relevant items).
func keepTotalValid(s lab.State) lab.State {
	total := lab.Fields[slices.IndexFunc(lab.Fields, func(f lab.Field) bool { return f.Key == "total" })]
	lo, _, _ := total.Range(s)
	if s.Total > 0 && int64(s.Total) < lo {
		s.Total = int(lo)
	}
	return s
}

// sliderSpan returns the positions a slider for f offers in state s: SliderRange, extended one
// position below by zeroAt when the field may also be 0 (lab.Field.Range's zero): that position
// stands for 0, so every position is a valid value. zeroAt is -1 when there is no such position.
func sliderSpan(f lab.Field, s lab.State) (lo, hi, zeroAt int) {
	l, h := f.SliderRange(s)
	lo, hi, zeroAt = int(l), int(h), -1
	if _, _, zero := f.Range(s); zero {
		lo--
		zeroAt = lo
	}
	return lo, hi, zeroAt
}

// keepOverlapBelowChunk lowers Overlap to Chunk−1 when the chunk shrank below it (a chunk of
// size <= 0 is left to the state's validation).
func keepOverlapBelowChunk(s lab.State) lab.State {
	if s.Chunk >= 1 && s.Overlap > s.Chunk-1 {
		s.Overlap = s.Chunk - 1
	}
	return s
}

// controlValues returns the state's control values by field key.
func controlValues(s lab.State) map[string]int {
	m := make(map[string]int, len(fields))
	for _, f := range fields {
		m[f.Key] = int(f.Get(s))
	}
	return m
}

// controlSpans returns each slider's span for state s (the ranges follow the state): its
// minimum and maximum, and the position that stands for 0 where there is one (sliderSpan).
func controlSpans(s lab.State) (lo, hi, zeroAt map[string]int) {
	lo, hi, zeroAt = map[string]int{}, map[string]int{}, map[string]int{}
	for _, f := range fields {
		if !f.Number {
			l, h, z := sliderSpan(f, s)
			lo[f.Key], hi[f.Key] = l, h
			if z >= 0 {
				zeroAt[f.Key] = z
			}
		}
	}
	return lo, hi, zeroAt
}

// controlNotes returns the note under each control that has one (zeroNote), by field key.
func controlNotes(s lab.State) map[string]string {
	m := map[string]string{}
	for _, f := range fields {
		if n := zeroNote(f, s); n != "" {
			m[f.Key] = n
		}
	}
	return m
}
