package lab

import (
	"testing"
)

// The range each field declares is exactly what State.Validate accepts, in the default state
// and in a few others: lo and hi are valid, lo−1 and hi+1 are not (0 is valid where zero is
// true), so a control built from Range offers only valid values.
func TestFieldRangeAgreesWithValidate(t *testing.T) {
	states := []State{DefaultState()}
	s := DefaultState()
	s.Size, s.Rerank, s.Chunk, s.Overlap, s.MinGrade = 7, 3, 40, 39, 2
	states = append(states, s)
	s = DefaultState()
	s.Seed, s.Size, s.Rerank = 11, 300, 300
	states = append(states, s)
	for _, st := range states {
		if err := st.Validate(); err != nil {
			t.Fatalf("%s: %v", st.Link(), err)
		}
		for _, f := range Fields {
			if f.Key == "seed" {
				continue // every int64 is a seed
			}
			lo, hi, zero := f.Range(st)
			valid := func(v int64) bool { return f.Set(st, v).Validate() == nil }
			if !valid(lo) || !valid(hi) {
				t.Errorf("%s: %s range %d..%d: an end is refused", st.Link(), f.Key, lo, hi)
			}
			if valid(lo-1) && !(zero && lo-1 == 0) {
				t.Errorf("%s: %s = %d below the range is accepted", st.Link(), f.Key, lo-1)
			}
			if valid(hi + 1) {
				t.Errorf("%s: %s = %d above the range is accepted", st.Link(), f.Key, hi+1)
			}
			if lo > 0 && zero != valid(0) {
				t.Errorf("%s: %s: zero %v but Validate(0) %v", st.Link(), f.Key, zero, valid(0))
			}
			slo, shi := f.SliderRange(st)
			if f.Key == "chunk" {
				slo = lo // the chunk slider reaches 1: the panel lowers the overlap with it
			}
			if slo < lo && !(zero && slo == 0) || shi > hi {
				t.Errorf("%s: %s slider %d..%d leaves the range %d..%d", st.Link(), f.Key, slo, shi, lo, hi)
			}
		}
	}
}

func TestDefaultStateFromFields(t *testing.T) {
	want := State{K: 5, Rerank: 10, MinGrade: 1, Total: 0, Corpus: 10000, Chunk: 512, Overlap: 128, Seed: 2278, Size: 20}
	if got := DefaultState(); got != want {
		t.Errorf("DefaultState() = %+v, want %+v", got, want)
	}
}
