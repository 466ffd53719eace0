package scan

import (
	"math"
	"strconv"
	"testing"
)

func TestFastFloat(t *testing.T) {
	for _, s := range []string{"0", "-0", "1", "1.0", "29.994707", "-0.000001", "123456789012345", "0.1", "3.14159265358979", ".5", "5.", "+2.5", "0000.1000"} {
		want, err := strconv.ParseFloat(s, 64)
		got, ok := FastFloat([]byte(s))
		if err != nil || !ok || math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("FastFloat(%q) = %v, %v; ParseFloat gives %v", s, got, ok, want)
		}
	}
	for _, s := range []string{"", "-", ".", "1e5", "1234567890123456", "0x10", "inf", "1.2.3", "1,5", "0.00000000000000000000001"} {
		if v, ok := FastFloat([]byte(s)); ok {
			t.Errorf("FastFloat(%q) = %v, want it to defer to ParseFloat", s, v)
		}
	}
}

func FuzzFastFloat(f *testing.F) {
	for _, s := range []string{"1.5", "-0.25", "12345678901234", ".", "+.1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := FastFloat([]byte(s))
		if !ok {
			return
		}
		want, err := strconv.ParseFloat(s, 64)
		if err != nil || math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("FastFloat(%q) = %v; ParseFloat = %v, %v", s, got, want, err)
		}
	})
}
