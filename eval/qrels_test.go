package eval

import (
	"errors"
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

func TestReadQrels(t *testing.T) {
	in := "q1 0 a 1\nq1 0 b 0\nq2\t0\tc\t-1\r\nq1 0 d 3\n"
	got, err := ReadQrels(strings.NewReader(in), "qrels")
	if err != nil {
		t.Fatal(err)
	}
	want := Qrels{"q1": {"a": 1, "b": 0, "d": 3}, "q2": {"c": -1}}
	if !qrelsEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func qrelsEqual(a, b Qrels) bool {
	return maps.EqualFunc(a, b, func(x, y map[string]int) bool { return maps.Equal(x, y) })
}

func TestReadQrelsErrors(t *testing.T) {
	tests := []struct {
		name, in string
		is       error
		msg      string
	}{
		{"three fields", "q1 0 a 1\nq1 0 b\n", ErrFieldCount, "qrels:2: wrong number of fields: got 3, want 4"},
		{"five fields", "q1 0 a 1 x\n", ErrFieldCount, "qrels:1: wrong number of fields: got 5"},
		{"fractional grade", "q1 0 a 1\nq1 0 b 1.5\n", ErrGrade, `qrels:2: grade is not an integer: "1.5"`},
		{"word grade", "q1 0 a yes\n", ErrGrade, "qrels:1:"},
		{"duplicate", "q1 0 a 1\nq2 0 a 1\nq1 0 a 0\n", ErrDuplicate, `qrels:3: duplicate doc: "a" judged twice for query "q1"`},
		{"empty line", "q1 0 a 1\n\nq1 0 b 1\n", ErrEmptyLine, "qrels:2: empty line"},
		{"empty file", "", ErrEmpty, "qrels: empty file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadQrels(strings.NewReader(tc.in), "qrels")
			if !errors.Is(err, tc.is) {
				t.Fatalf("err = %v, want %v", err, tc.is)
			}
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != "qrels" {
				t.Errorf("err %v is not a *ParseError naming the file", err)
			}
			if !strings.HasPrefix(err.Error(), tc.msg) {
				t.Errorf("message %q, want prefix %q", err, tc.msg)
			}
		})
	}
}

func TestReadQrelsBEIR(t *testing.T) {
	in := "query-id\tcorpus-id\tscore\n1\t31715818\t1\n1\t2\t0\r\n10\t2\t2\n"
	got, err := readBEIRQrels(strings.NewReader(in), "test.tsv")
	if err != nil {
		t.Fatal(err)
	}
	want := Qrels{"1": {"31715818": 1, "2": 0}, "10": {"2": 2}}
	if !qrelsEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	bad := []struct {
		name, in string
		is       error
		msg      string
	}{
		{"no header", "1\t2\t1\n", ErrHeader, "test.tsv:1: bad header"},
		{"two fields", "query-id\tcorpus-id\tscore\n1\t2\n", ErrFieldCount, "test.tsv:2:"},
		{"bad grade", "query-id\tcorpus-id\tscore\n1\t2\tx\n", ErrGrade, "test.tsv:2:"},
		{"duplicate", "query-id\tcorpus-id\tscore\n1\t2\t1\n1\t2\t0\n", ErrDuplicate, "test.tsv:3:"},
		{"header only", "query-id\tcorpus-id\tscore\n", ErrEmpty, "test.tsv: empty file"},
		{"empty", "", ErrEmpty, "test.tsv: empty file"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readBEIRQrels(strings.NewReader(tc.in), "test.tsv")
			if !errors.Is(err, tc.is) || !strings.HasPrefix(err.Error(), tc.msg) {
				t.Errorf("err = %v, want %v with prefix %q", err, tc.is, tc.msg)
			}
		})
	}
}

func TestReadQrelsFile(t *testing.T) {
	dir := t.TempDir()
	trec := "q1 0 a 2\nq1 0 b 0\n"
	beir := "query-id\tcorpus-id\tscore\nq1\ta\t2\nq1\tb\t0\n"
	want := Qrels{"q1": {"a": 2, "b": 0}}
	files := map[string][]byte{"qrels.txt": []byte(trec), "qrels.tsv": []byte(beir), "qrels.bin": sharedtest.Gzip([]byte(beir))}
	for name, content := range files {
		t.Run(name, func(t *testing.T) {
			p := sharedtest.WriteFile(t, dir, name, content)
			got, err := ReadQrelsFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if !qrelsEqual(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
	if _, err := ReadQrelsFile(filepath.Join(dir, "absent")); err == nil {
		t.Error("no error for a missing file")
	}
}

func FuzzReadQrels(f *testing.F) {
	for _, s := range []string{"q1 0 a 1\n", "q1 0 a 1\nq1 0 a 2\n", "q 0 d -3\r\nq 0 e 1", "", "\n", "a b c d e\n", "q 0 d 99999999999\n",
		"query-id\tcorpus-id\tscore\n1\t2\t1\n", "# c\nq 0 d 1\n#\n", "\xef\xbb\xbfq 0 d 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		q, err := readTRECQrels(strings.NewReader(in), "f")
		if err == nil {
			n := 0
			for _, docs := range q {
				n += len(docs)
			}
			lines := 0
			for _, l := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(in, "\xef\xbb\xbf"), "\n"), "\n") {
				if f := strings.FieldsFunc(l, isSpace); len(f) > 0 && f[0][0] != '#' {
					lines++
				}
			}
			if n != lines {
				t.Errorf("%d judgments from %d data lines", n, lines)
			}
		} else if !strings.HasPrefix(err.Error(), "f:") {
			t.Errorf("error %q does not name the file", err)
		}
		if _, err := readBEIRQrels(strings.NewReader(in), "f"); err != nil && !strings.HasPrefix(err.Error(), "f:") {
			t.Errorf("error %q does not name the file", err)
		}
		if _, err := ReadQrels(strings.NewReader(in), "f"); err != nil && !strings.HasPrefix(err.Error(), "f:") {
			t.Errorf("error %q does not name the file", err)
		}
	})
}
