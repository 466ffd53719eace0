package scan

import "testing"

// TestGrade: the 32-bit range minus math.MinInt32 (eval.Unjudged), with a sign; nothing else.
func TestGrade(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{{"0", 0}, {"-1", -1}, {"+2", 2}, {"007", 7}, {"2147483647", 2147483647}, {"-2147483647", -2147483647}, {"0000000000001", 1}} {
		if g, ok := Grade([]byte(c.in)); !ok || g != c.want {
			t.Errorf("Grade(%q) = %d, %v; want %d", c.in, g, ok, c.want)
		}
	}
	for _, bad := range []string{"2147483648", "-2147483648", "1.0", "x", "", "-", "1 ", "0x1", "1_0"} {
		if g, ok := Grade([]byte(bad)); ok {
			t.Errorf("Grade(%q) = %d, want not ok", bad, g)
		}
	}
}
