package lab

import (
	"fmt"
	"strings"
)

// Link encodes every field of the state as a short query string, keys in a fixed order:
//
//	k=5&rerank=10&rerank_quality=50&grade=1&total=0&corpus=10000&chunk=512&overlap=128&seed=7&n=20
//
// ParseLink(s.Link()) == s for every valid state.
func (s State) Link() string {
	var b strings.Builder
	for i, f := range Fields {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(f.Key + "=" + f.format(s))
	}
	return b.String()
}

// ParseLink parses a link written by Link (an optional leading '?' is allowed) and validates the
// state (State.Validate). Keys may come in any order; a key left out keeps its default
// (DefaultState), so "" is the default state and "k=3" changes only k. Every value is a decimal
// integer. An unknown key, a repeated key, a part without '=', a value that is not an integer and
// a value outside its range are errors naming the key.
func ParseLink(link string) (State, error) {
	s, err := parseLinkFields(link, DefaultState())
	if err != nil {
		return State{}, err
	}
	if err := s.Validate(); err != nil {
		return State{}, err
	}
	return s, nil
}

// WithLink returns s with the fields a link names set to the link's values, the others kept as
// in s (so "k=8" on any state changes only k). It checks keys and integers as ParseLink does but
// does not validate the ranges of the result (State.Validate and State.Outcome do).
func (s State) WithLink(link string) (State, error) { return parseLinkFields(link, s) }

// parseLinkFields applies the link's fields to base without validating the result.
func parseLinkFields(link string, base State) (State, error) {
	link = strings.TrimPrefix(link, "?")
	if link == "" {
		return base, nil
	}
	s := base
	seen := map[string]bool{}
	for i, part := range strings.Split(link, "&") {
		key, val, ok := strings.Cut(part, "=")
		if !ok {
			return State{}, &fieldError{Field: "link", Msg: fmt.Sprintf("part %d %q is not key=value", i+1, part)}
		}
		f, known := fieldByKey(key)
		if !known {
			return State{}, &fieldError{Field: "link", Msg: fmt.Sprintf("unknown key %q (keys: %s)", key, strings.Join(fieldKeys(), ", "))}
		}
		if seen[key] {
			return State{}, &fieldError{Field: key, Msg: "given twice"}
		}
		seen[key] = true
		var err error
		if s, err = f.parse(s, val); err != nil {
			return State{}, err
		}
	}
	return s, nil
}
