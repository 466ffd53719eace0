// Package numflag parses the numbers of command-line flags with the grammar of ranklab's files,
// so a number means the same thing on the command line and in a file: an integer is an optional
// sign and decimal digits ("010" is ten, as a grade "010" in a qrels file is), a float is a
// finite decimal number (scan.Float: digits, an optional fraction and exponent). Hexadecimal
// ("0x10"), octal prefixes ("0o10"), "_" separators ("1_0"), "inf" and "nan" are refused. The
// standard flag package reads "010" as 8, "0x10" as 16 and, for floats, "1_0" as 10.
package numflag

import (
	"flag"
	"fmt"
	"math"
	"strconv"

	"github.com/ranklab/ranklab/internal/scan"
)

// Int parses a decimal integer: an optional sign and digits.
func Int(s string) (int, error) {
	n, err := Int64(s)
	if err != nil || n != int64(int(n)) {
		return 0, fmt.Errorf("%q is not a decimal integer", s)
	}
	return int(n), nil
}

// Int64 parses a decimal integer: an optional sign and digits.
func Int64(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64) // base 10: no prefix, no "_"
	if err != nil {
		return 0, fmt.Errorf("%q is not a decimal integer", s)
	}
	return n, nil
}

// Uint64 parses a decimal integer without sign ("+" allowed).
func Uint64(s string) (uint64, error) {
	if len(s) > 0 && s[0] == '+' {
		s = s[1:]
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a decimal integer >= 0", s)
	}
	return n, nil
}

// Float parses a finite decimal number in the grammar of a run's score (scan.Float).
func Float(s string) (float64, error) {
	v, ok := scan.Float([]byte(s))
	if !ok || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("%q is not a finite decimal number", s)
	}
	return v, nil
}

// value is a flag.Value over a number parsed by parse.
type value[T any] struct {
	p     *T
	parse func(string) (T, error)
}

func (v value[T]) Set(s string) error {
	n, err := v.parse(s)
	if err != nil {
		return err
	}
	*v.p = n
	return nil
}

func (v value[T]) String() string {
	if v.p == nil {
		return ""
	}
	return fmt.Sprint(*v.p)
}

// IntVar defines an int flag read by Int.
func IntVar(fs *flag.FlagSet, p *int, name string, def int, usage string) {
	*p = def
	fs.Var(value[int]{p, Int}, name, usage)
}

// Int64Var defines an int64 flag read by Int64.
func Int64Var(fs *flag.FlagSet, p *int64, name string, def int64, usage string) {
	*p = def
	fs.Var(value[int64]{p, Int64}, name, usage)
}

// Uint64Var defines a uint64 flag read by Uint64.
func Uint64Var(fs *flag.FlagSet, p *uint64, name string, def uint64, usage string) {
	*p = def
	fs.Var(value[uint64]{p, Uint64}, name, usage)
}

// Float64Var defines a float64 flag read by Float.
func Float64Var(fs *flag.FlagSet, p *float64, name string, def float64, usage string) {
	*p = def
	fs.Var(value[float64]{p, Float}, name, usage)
}

// NewInt defines an int flag read by Int and returns its address (as flag.Int does).
func NewInt(fs *flag.FlagSet, name string, def int, usage string) *int {
	p := new(int)
	IntVar(fs, p, name, def, usage)
	return p
}

// NewInt64 defines an int64 flag read by Int64 and returns its address.
func NewInt64(fs *flag.FlagSet, name string, def int64, usage string) *int64 {
	p := new(int64)
	Int64Var(fs, p, name, def, usage)
	return p
}

// NewFloat64 defines a float64 flag read by Float and returns its address.
func NewFloat64(fs *flag.FlagSet, name string, def float64, usage string) *float64 {
	p := new(float64)
	Float64Var(fs, p, name, def, usage)
	return p
}

// NewUint64 defines a uint64 flag read by Uint64 and returns its address.
func NewUint64(fs *flag.FlagSet, name string, def uint64, usage string) *uint64 {
	p := new(uint64)
	Uint64Var(fs, p, name, def, usage)
	return p
}
