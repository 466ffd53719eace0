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
	want := State{K: 5, Rerank: 10, RerankQuality: 50, MinGrade: 1, Total: 0, Corpus: 10000, Chunk: 512, Overlap: 128, Seed: 2278, Size: 20}
	if got := DefaultState(); got != want {
		t.Errorf("DefaultState() = %+v, want %+v", got, want)
	}
}

// Every value a slider offers is valid (chunk below the overlap aside: the live panel lowers the
// overlap with it), total's slider starts at the relevant items found (0 is offered separately),
// and k's slider reaches beyond the list.
func TestSliderOffersValidValues(t *testing.T) {
	g2 := DefaultState()
	g2.MinGrade = 2
	for _, st := range []State{DefaultState(), g2} {
		for _, f := range Fields {
			if f.Number {
				continue
			}
			lo, hi := f.SliderRange(st)
			for v := lo; v <= hi; v++ {
				if f.Key == "chunk" && v <= int64(st.Overlap) {
					continue
				}
				if err := f.Set(st, v).Validate(); err != nil {
					t.Errorf("%s: %s slider offers %d: %v", st.Link(), f.Key, v, err)
				}
			}
		}
	}
	total, _ := fieldByKey("total")
	// The default candidates hold 5 items with grade >= 1 (d02, d03, d09, d14, d15) and 1 with
	// grade >= 2 (d03, grade 3); the slider ends at twice the 20 candidates.
	for _, c := range []struct {
		s      State
		lo, hi int64
	}{{DefaultState(), 5, 40}, {g2, 1, 40}} {
		lo, hi := total.SliderRange(c.s)
		_, _, zero := total.Range(c.s)
		if lo != c.lo || hi != c.hi || !zero {
			t.Errorf("%s: total slider %d..%d (zero %v), want %d..%d and zero", c.s.Link(), lo, hi, zero, c.lo, c.hi)
		}
	}
	k, _ := fieldByKey("k")
	if _, hi := k.SliderRange(DefaultState()); hi != 20+10 {
		t.Errorf("k slider ends at %d, want 10 beyond the 20 candidates", hi)
	}
}
