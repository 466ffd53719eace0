package words

import (
	"fmt"
	"strings"
	"testing"
)

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "queries", 1: "query", 2: "queries"} {
		if got := Plural(n, "query", "queries"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestIDs(t *testing.T) {
	var twelve []string
	for i := 1; i <= 12; i++ {
		twelve = append(twelve, fmt.Sprintf("q%d", i))
	}
	tests := []struct {
		ids  []string
		want string
	}{
		{nil, ""},
		{[]string{"q1", "q2"}, "q1, q2"},
		{twelve[:10], "q1, q2, q3, q4, q5, q6, q7, q8, q9, q10"},
		{twelve, "q1, q2, q3, q4, q5, q6, q7, q8, q9, q10, … (2 more)"},
		{[]string{"q\x1b[31mred", "a b", "", "naïve"}, `"q\x1b[31mred", "a b", "", naïve`},
		{[]string{strings.Repeat("x", 50)}, strings.Repeat("x", 40) + "… (50 bytes)"},
	}
	for _, tc := range tests {
		if got := IDs(tc.ids); got != tc.want {
			t.Errorf("IDs(%v) = %q, want %q", tc.ids, got, tc.want)
		}
	}
}
