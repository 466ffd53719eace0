package eval

import "testing"

func TestParseFieldsExported(t *testing.T) {
	if v, err := ParseScore("0.10e1"); err != nil || v != 1 {
		t.Errorf("ParseScore(0.10e1) = %v, %v", v, err)
	}
	for _, bad := range []string{"nan", "inf", "1e309", "high", ""} {
		if _, err := ParseScore(bad); err == nil {
			t.Errorf("ParseScore(%q): no error", bad)
		}
	}
	if g, err := ParseGrade("-1"); err != nil || g != -1 {
		t.Errorf("ParseGrade(-1) = %v, %v", g, err)
	}
	for _, bad := range []string{"2147483648", "-2147483648", "1.0", "x", ""} {
		if _, err := ParseGrade(bad); err == nil {
			t.Errorf("ParseGrade(%q): no error", bad)
		}
	}
}
