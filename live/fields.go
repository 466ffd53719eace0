package live

import (
	"github.com/ranklab/ranklab/lab"
)

// fields are the panel's controls: lab.Fields marked Live, in their order. A field's Key is the
// control's data-field attribute and the key of the messages between page and kernel. Ranges
// are lab.Field.SliderRange; the state's own rules (lab.State.Validate) still decide what is
// valid. The one rule the UI enforces itself is overlap < chunk: the overlap slider's maximum
// follows the chunk size.
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
// come from the panel) and the overlap kept below the chunk size.
func apply(s lab.State, values map[string]int) lab.State {
	for _, f := range fields {
		if v, ok := values[f.Key]; ok {
			s = f.Set(s, int64(v))
		}
	}
	return keepOverlapBelowChunk(s)
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

// controlMax returns each slider's maximum for state s (the ranges follow the state).
func controlMax(s lab.State) map[string]int {
	m := make(map[string]int, len(fields))
	for _, f := range fields {
		if !f.Number {
			_, hi := f.SliderRange(s)
			m[f.Key] = int(hi)
		}
	}
	return m
}
