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

func TestFloatGrammar(t *testing.T) {
	for _, s := range []string{"1", "-1.5", "+2", "5.", ".5", "1e3", "1E-2", "1e+2", "0001.10", "1e-400", "123456789012345678901234567890"} {
		if _, ok := Float([]byte(s)); !ok {
			t.Errorf("Float(%q) refused", s)
		}
	}
	for _, s := range []string{"", "1_000", "0x10", "0x1p4", "1e", "1e+", "1,5", "inf", "-Infinity", "nan", "1e400", "--1", "+-1", ".", "+.", "1.2.3", " 1", "1 ", "١"} {
		if v, ok := Float([]byte(s)); ok {
			t.Errorf("Float(%q) = %v, want a refusal", s, v)
		}
	}
}

// FuzzFloat checks Float against strconv.ParseFloat: whatever Float accepts is a decimal number
// that ParseFloat reads to the same value, and every finite decimal number is accepted.
func FuzzFloat(f *testing.F) {
	for _, s := range []string{"1.5", "1_0", "0x1p3", "1e5", ".5e-3", "9e999", "-0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := Float([]byte(s))
		want, err := strconv.ParseFloat(s, 64)
		dec := IsDecimal([]byte(s))
		switch {
		case ok && (!dec || err != nil || math.Float64bits(v) != math.Float64bits(want)):
			t.Fatalf("Float(%q) = %v; ParseFloat = %v, %v; decimal %v", s, v, want, err, dec)
		case !ok && dec && err == nil && !math.IsInf(want, 0):
			t.Fatalf("Float(%q) refused a finite decimal number %v", s, want)
		}
	})
}
