package eval

import (
	"testing"

	"github.com/ranklab/ranklab/internal/evalhook"
)

func TestParseFieldsHooks(t *testing.T) {
	if v, err := evalhook.ParseScore("0.10e1"); err != nil || v != 1 {
		t.Errorf("evalhook.ParseScore(0.10e1) = %v, %v", v, err)
	}
	for _, bad := range []string{"nan", "inf", "1e309", "high", ""} {
		if _, err := evalhook.ParseScore(bad); err == nil {
			t.Errorf("evalhook.ParseScore(%q): no error", bad)
		}
	}
	if g, err := evalhook.ParseGrade("-1"); err != nil || g != -1 {
		t.Errorf("evalhook.ParseGrade(-1) = %v, %v", g, err)
	}
	for _, bad := range []string{"2147483648", "-2147483648", "1.0", "x", ""} {
		if _, err := evalhook.ParseGrade(bad); err == nil {
			t.Errorf("evalhook.ParseGrade(%q): no error", bad)
		}
	}
}
