package lab

import (
	"strings"
	"testing"
)

func TestWithValues(t *testing.T) {
	s, err := DefaultState().WithValues(map[string]int64{"k": 10, "rerank": 20, "n": 30, "seed": -7})
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultState()
	want.K, want.Rerank, want.Size, want.Seed = 10, 20, 30, -7
	if s != want {
		t.Errorf("got %+v, want %+v", s, want)
	}
	// Every field by its key gives the state back: the map is another spelling of a link.
	all := map[string]int64{}
	for _, f := range Fields {
		all[f.Key] = f.Get(want)
	}
	if back, err := (State{}).WithValues(all); err != nil || back != want {
		t.Errorf("all fields: %+v (%v), want %+v", back, err, want)
	}
	if _, err := DefaultState().WithValues(map[string]int64{"depth": 3}); err == nil || !strings.Contains(err.Error(), "depth: unknown control (keys: k, rerank,") {
		t.Errorf("unknown key: %v", err)
	}
	// Not validated: an overlap above the chunk size is kept for Validate to report.
	if s, err := DefaultState().WithValues(map[string]int64{"overlap": 600}); err != nil || s.Overlap != 600 || s.Validate() == nil {
		t.Errorf("overlap 600: %+v, %v", s, err)
	}
}
