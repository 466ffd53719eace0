package numflag

import (
	"flag"
	"io"
	"strconv"
	"testing"
)

func TestNumbers(t *testing.T) {
	for s, want := range map[string]int{"10": 10, "010": 10, "+7": 7, "-3": -3} {
		if n, err := Int(s); err != nil || n != want {
			t.Errorf("Int(%q) = %d, %v; want %d", s, n, err, want)
		}
	}
	for _, s := range []string{"0x10", "0o7", "0b1", "1_0", "", "1.0", "1e3", " 1", "ten"} {
		if n, err := Int(s); err == nil {
			t.Errorf("Int(%q) = %d, want an error", s, n)
		}
	}
	for _, s := range []string{"1_0", "0x10", "inf", "NaN", "1e400", "", ".", "+"} {
		if v, err := Float(s); err == nil {
			t.Errorf("Float(%q) = %v, want an error", s, v)
		}
	}
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	k := NewInt(fs, "k", 5, "")
	w := NewFloat64(fs, "w", 1, "")
	if err := fs.Parse([]string{"-k", "010", "-w", "0.5"}); err != nil || *k != 10 || *w != 0.5 {
		t.Errorf("-k 010 -w 0.5: %d %v %v", *k, *w, err)
	}
	if err := fs.Parse([]string{"-k", "0x10"}); err == nil {
		t.Error("-k 0x10 accepted")
	}
}

// FuzzInt checks that Int reads exactly what strconv.ParseInt(s, 10, 64) reads.
func FuzzInt(f *testing.F) {
	for _, s := range []string{"010", "0x10", "1_0", "-0", "+1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := Int(s)
		want, werr := strconv.ParseInt(s, 10, 64)
		if (err == nil) != (werr == nil) || (err == nil && int64(n) != want) {
			t.Fatalf("Int(%q) = %d, %v; strconv %d, %v", s, n, err, want, werr)
		}
		if _, err := Float(s); err != nil && werr == nil && len(s) < 300 {
			t.Fatalf("Float refuses the integer %q", s)
		}
	})
}
