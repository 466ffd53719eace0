package scan

import (
	"slices"
	"strings"
	"testing"
)

func TestFields(t *testing.T) {
	tests := []struct {
		line string
		n    int
		want []string
		more bool
	}{
		{"", 0, nil, false},
		{"  \t ", 0, nil, false},
		{"q1 Q0 d1 1 2.5 tag", 0, []string{"q1", "Q0", "d1", "1", "2.5", "tag"}, false},
		{"q1 Q0 d1 1 2.5 tag", 5, []string{"q1", "Q0", "d1", "1", "2.5"}, true},
		{"q1 Q0 d1 1 2.5   ", 5, []string{"q1", "Q0", "d1", "1", "2.5"}, false},
		{" \tq1\v0\fd1\r2", 0, []string{"q1", "0", "d1", "2"}, false},
		{"q1 rest", 1, []string{"q1"}, true},
		{"q1", 1, []string{"q1"}, false},
	}
	for _, tc := range tests {
		got, more := Fields([]byte(tc.line), nil, tc.n)
		var gs []string
		for _, f := range got {
			gs = append(gs, string(f))
		}
		if !slices.Equal(gs, tc.want) || more != tc.more {
			t.Errorf("Fields(%q, %d) = %q, %v; want %q, %v", tc.line, tc.n, gs, more, tc.want, tc.more)
		}
	}
}

// FuzzFields checks Fields against strings.FieldsFunc with the same separators.
func FuzzFields(f *testing.F) {
	for _, s := range []string{"q1 Q0 d1 1 2.5 tag", " a\tb ", "", "\x00 \xff"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = n % 8
		if n < 0 {
			n = -n
		}
		all := strings.FieldsFunc(s, func(r rune) bool { return r < 128 && IsSpace(byte(r)) })
		got, more := Fields([]byte(s), nil, n)
		want := all
		if n > 0 && len(all) > n {
			want = all[:n]
		}
		if len(got) != len(want) || more != (len(all) > len(want)) {
			t.Fatalf("Fields(%q, %d) = %d fields, more %v; FieldsFunc gives %d of %d", s, n, len(got), more, len(want), len(all))
		}
		for i := range got {
			if string(got[i]) != want[i] {
				t.Fatalf("Fields(%q, %d)[%d] = %q, want %q", s, n, i, got[i], want[i])
			}
		}
	})
}
