package lab

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// WithValues returns s with each field of Fields named in values (by its Key, as in a link) set
// to its value, the others kept as in s: the notebook's controls, written as one map
//
//	lab.DefaultState().WithValues(map[string]int64{"k": 10, "rerank": 20})
//
// An unknown key is a *chunking.FieldError naming the keys there are. Like WithLink it does not validate
// the ranges of the result (State.Validate and State.Outcome do).
func (s State) WithValues(values map[string]int64) (State, error) {
	for _, key := range slices.Sorted(maps.Keys(values)) {
		f, ok := fieldByKey(key)
		if !ok {
			return State{}, &fieldError{Field: key, Msg: fmt.Sprintf("unknown control (keys: %s)", strings.Join(fieldKeys(), ", "))}
		}
		s = f.Set(s, values[key])
	}
	return s, nil
}
