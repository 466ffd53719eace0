package scan

import (
	"strings"
	"testing"
)

func TestIDProblem(t *testing.T) {
	tests := []struct {
		id      string
		carried bool
		why     string // a part of the message; "" for a fit ID
	}{
		{"d1", true, ""},
		{"MED-10", true, ""},
		{"dé", true, ""},
		{"", false, "empty"},
		{"d 2", false, "U+0020"},
		{"d\t2", false, "U+0009"},
		{"d\x002", false, "U+0000"},
		{"d\x7f", false, "U+007F"},
		{"d\u00852", false, "U+0085"},
		{"\ufeffq1", false, "byte order mark"},
		{"d\u00a02", true, "U+00A0"},
		{"d\u200b2", true, "U+200B"},
		{"d\ufeff2", true, "U+FEFF"},
		{"d\xff", true, "UTF-8"},
	}
	for _, tc := range tests {
		why, carried := IDProblem(tc.id)
		if carried != tc.carried || (tc.why == "") != (why == "") || !strings.Contains(why, tc.why) {
			t.Errorf("IDProblem(%q) = %q, %v; want %v and a message with %q", tc.id, why, carried, tc.carried, tc.why)
		}
	}
}

// FuzzIDProblem: an ID a TREC file can carry survives a line of it: Fields gives it back whole,
// and a reader's byte-order-mark rule does not touch it.
func FuzzIDProblem(f *testing.F) {
	for _, s := range []string{"d1", "d 1", "\ufeffq", "d\u00a0", "\x85"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		if _, carried := IDProblem(id); !carried {
			return
		}
		line := []byte(id + " 0 " + id + " 1")
		fs, _ := Fields(line, nil, 0)
		if len(fs) != 4 || string(fs[0]) != id || string(fs[2]) != id {
			t.Fatalf("%q: fields %q", id, fs)
		}
		if strings.HasPrefix(string(line), "\ufeff") {
			t.Fatalf("%q starts with a byte order mark", id)
		}
	})
}
