package lab

import (
	"fmt"
	"strconv"
	"strings"
)

// linkKeys are the link's keys in the order Link writes them.
var linkKeys = []string{"k", "rerank", "grade", "total", "corpus", "chunk", "overlap", "seed", "n"}

// Link encodes every field of the state as a short query string, keys in a fixed order:
//
//	k=5&rerank=10&grade=1&total=0&corpus=10000&chunk=512&overlap=128&seed=7&n=20
//
// ParseLink(s.Link()) == s for every valid state.
func (s State) Link() string {
	vals := []int64{int64(s.K), int64(s.Rerank), int64(s.MinGrade), int64(s.Total),
		int64(s.Corpus), int64(s.Chunk), int64(s.Overlap), s.Seed, int64(s.Size)}
	var b strings.Builder
	for i, k := range linkKeys {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(strconv.FormatInt(vals[i], 10))
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
			return State{}, &FieldError{Field: "link", Msg: fmt.Sprintf("part %d %q is not key=value", i+1, part)}
		}
		if !isLinkKey(key) {
			return State{}, &FieldError{Field: "link", Msg: fmt.Sprintf("unknown key %q (keys: %s)", key, strings.Join(linkKeys, ", "))}
		}
		if seen[key] {
			return State{}, &FieldError{Field: key, Msg: "given twice"}
		}
		seen[key] = true
		v, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			return State{}, &FieldError{Field: key, Msg: fmt.Sprintf("%q is not an integer", val)}
		}
		if key == "seed" {
			s.Seed = v
			continue
		}
		if v != int64(int(v)) {
			return State{}, &FieldError{Field: key, Msg: fmt.Sprintf("%s is out of range", val)}
		}
		*s.intField(key) = int(v)
	}
	return s, nil
}

func isLinkKey(key string) bool {
	for _, k := range linkKeys {
		if k == key {
			return true
		}
	}
	return false
}

func (s *State) intField(key string) *int {
	switch key {
	case "k":
		return &s.K
	case "rerank":
		return &s.Rerank
	case "grade":
		return &s.MinGrade
	case "total":
		return &s.Total
	case "corpus":
		return &s.Corpus
	case "chunk":
		return &s.Chunk
	case "overlap":
		return &s.Overlap
	case "n":
		return &s.Size
	}
	panic("lab: no int field " + key)
}
