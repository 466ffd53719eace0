package embed

import (
	"slices"
	"strings"
	"testing"
)

func TestReadVectors(t *testing.T) {
	ids, vecs, err := readVectors(strings.NewReader("d1\t0.5 -0.25\n\nd2\t1e-3 2\r\n"), "v.tsv")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ids, []string{"d1", "d2"}) || !slices.Equal(vecs[0], []float32{0.5, -0.25}) || !slices.Equal(vecs[1], []float32{0.001, 2}) {
		t.Errorf("got %v %v", ids, vecs)
	}
	for _, c := range []struct{ name, in, err string }{
		{"no tab", "d1 0.5\n", "v.tsv:1: want id<TAB>numbers"},
		{"no numbers", "d1\t \n", "v.tsv:1: no numbers"},
		{"ragged", "d1\t1 2\nd2\t1\n", "v.tsv:2: 1 numbers, the first line has 2"},
		{"not a number", "d1\t1 x\n", "v.tsv:1: number 2:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := readVectors(strings.NewReader(c.in), "v.tsv")
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("error %v, want one containing %q", err, c.err)
			}
		})
	}
}

func FuzzReadVectors(f *testing.F) {
	f.Add("d1\t0.5 -0.25\nd2\t1 2\n")
	f.Add("x\t1e40\n")
	f.Add("\t1\n")
	f.Fuzz(func(t *testing.T, in string) {
		ids, vecs, err := readVectors(strings.NewReader(in), "f")
		if err != nil {
			return
		}
		if len(ids) != len(vecs) {
			t.Fatalf("%d ids, %d vectors", len(ids), len(vecs))
		}
		for _, v := range vecs {
			if len(v) != len(vecs[0]) || len(v) == 0 {
				t.Fatalf("vectors of lengths %d and %d", len(v), len(vecs[0]))
			}
		}
	})
}
