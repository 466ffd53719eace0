package scan

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestLines(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"a\nb\n", []string{"a", "b"}},
		{"a\r\nb", []string{"a", "b"}},
		{"\xef\xbb\xbfa\n", []string{"a"}},
		{"a\xef\xbb\xbf\n\xef\xbb\xbfb\n", []string{"a\xef\xbb\xbf", "\xef\xbb\xbfb"}}, // only a leading BOM goes
		{"\n\n", []string{"", ""}},
		{strings.Repeat("x", 200000) + "\ny", []string{strings.Repeat("x", 200000), "y"}},
	}
	for _, tc := range tests {
		l := NewLines(strings.NewReader(tc.in))
		var got []string
		for l.Next() {
			got = append(got, string(l.Bytes()))
			if l.Line() != len(got) {
				t.Errorf("Line() = %d at line %d", l.Line(), len(got))
			}
		}
		if l.Err() != nil || strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
			t.Errorf("Lines(%.30q) = %.60q, %v; want %.60q", tc.in, got, l.Err(), tc.want)
		}
	}
	// A read error: complete lines, then the error, never the partial line.
	l := NewLines(io.MultiReader(strings.NewReader("a\nb\npart"), errReader{}))
	var got []string
	for l.Next() {
		got = append(got, string(l.Bytes()))
	}
	if strings.Join(got, "|") != "a|b" || !errors.Is(l.Err(), errTest) || l.Line() != 2 {
		t.Errorf("got %q, %v at line %d; want a, b then the error (line 3)", got, l.Err(), l.Line()+1)
	}
}

// FuzzLines checks that the lines rebuild the input: less a leading BOM, one trailing \r a line;
// and that a carriage return anywhere else ends the input with ErrBareCR at its line.
func FuzzLines(f *testing.F) {
	for _, s := range []string{"a\nb", "\xef\xbb\xbf\r\n\r\r\n", "", "\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		l := NewLines(shortReader{strings.NewReader(in), 7})
		var b bytes.Buffer
		n := 0
		for l.Next() {
			b.Write(l.Bytes())
			b.WriteByte('\n')
			n++
		}
		want := strings.TrimPrefix(in, "\xef\xbb\xbf")
		var w strings.Builder
		var wantErr error
		for i, line := range strings.Split(want, "\n") {
			if i == strings.Count(want, "\n") && line == "" {
				break
			}
			line = strings.TrimSuffix(line, "\r")
			if strings.Contains(line, "\r") {
				wantErr = ErrBareCR
				if l.Line() != i {
					t.Fatalf("bare CR of %q reported after line %d, want %d", in, l.Line(), i)
				}
				break
			}
			w.WriteString(line + "\n")
		}
		if l.Err() != wantErr || b.String() != w.String() {
			t.Fatalf("lines of %q rebuild %q, want %q (%v)", in, b.String(), w.String(), l.Err())
		}
	})
}
