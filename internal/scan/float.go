package scan

import (
	"math"
	"strconv"
)

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// FastFloat parses the common score forms [+-]digits[.digits] exactly (Clinger's fast path:
// an integer mantissa below 2^53 divided by an exact power of ten is correctly rounded, so it
// equals strconv.ParseFloat's result). ok is false for any other form; the caller then uses
// its general parser.
func FastFloat(b []byte) (v float64, ok bool) {
	i, neg := 0, false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		i++
	}
	var mant uint64
	digits, frac, any := 0, 0, false
	seenDot := false
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= '0' && c <= '9':
			if digits >= 15 {
				return 0, false
			}
			any = true
			mant = mant*10 + uint64(c-'0')
			if mant != 0 {
				digits++
			}
			if seenDot {
				frac++
			}
		case c == '.' && !seenDot:
			seenDot = true
		default:
			return 0, false
		}
	}
	if frac > 22 || !any {
		return 0, false
	}
	v = float64(mant) / pow10[frac]
	if neg {
		v = -v
	}
	return v, true
}

// Float parses b as a decimal number in the grammar
//
//	[+|-] ( digits [ "." [digits] ] | "." digits ) [ (e|E) [+|-] digits ]
//
// (the decimal part of C's strtod, and what strtod reads when it consumes the whole field)
// and reports ok = false for anything else: hexadecimal, inf, nan, "_" separators, a comma,
// trailing bytes, or a value too large for a float64. The value is correctly rounded; a value
// below the smallest float64 rounds to zero, as in strtod.
func Float(b []byte) (v float64, ok bool) {
	if v, ok := FastFloat(b); ok {
		return v, true
	}
	if !IsDecimal(b) {
		return 0, false
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// IsDecimal reports whether b is a number in Float's grammar (whatever its size).
func IsDecimal(b []byte) bool {
	i := 0
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		i++
	}
	digits := 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
		digits++
	}
	if i < len(b) && b[i] == '.' {
		i++
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		exp := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(b)
}
