package rag

import (
	"bytes"
	"errors"
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/sharedtest"
)

func TestReadChunkMap(t *testing.T) {
	in := "chunk-id\tdoc-id\tstart\tend\r\nd1#0 d1 0 10\nd1#1\td1\t8\t18\r\nd2#0 d2 0 3\nd2@x d2 0 3\n"
	m, err := readChunkMap(strings.NewReader(in), "m.tsv")
	if err != nil {
		t.Fatal(err)
	}
	want := ChunkMap{"d1#0": {"d1", 0, 10}, "d1#1": {"d1", 8, 18}, "d2#0": {"d2", 0, 3}, "d2@x": {"d2", 0, 3}}
	if !maps.Equal(m, want) {
		t.Errorf("ReadChunkMap = %v, want %v", m, want)
	}
	if m["d1#1"].len() != 10 || m["d1#0"].overlap(m["d1#1"]) != 2 || m["d1#0"].overlap(m["d2#0"]) != 0 {
		t.Errorf("len/overlap wrong: %v", m)
	}
	// Without the header too.
	if m2, err := readChunkMap(strings.NewReader("a d 0 1\n"), "m"); err != nil || m2["a"] != (Span{"d", 0, 1}) {
		t.Errorf("headerless map: %v, %v", m2, err)
	}
}

func TestReadChunkMapErrors(t *testing.T) {
	tests := []struct {
		name, in string
		sentinel error
		want     string
	}{
		{"empty file", "", eval.ErrEmpty, "m: empty file: no chunk"},
		{"header only", "chunk-id doc-id start end\n", eval.ErrEmpty, "m: empty file"},
		{"empty line", "a d 0 1\n\nb d 1 2\n", eval.ErrEmptyLine, "m:2: empty line"},
		{"three fields", "a d 0\n", eval.ErrFieldCount, "m:1: wrong number of fields: got 3, want 4"},
		{"five fields", "a d 0 1 x\n", eval.ErrFieldCount, "m:1: wrong number of fields: got 5"},
		{"negative start", "a d -1 4\n", errSpan, `m:1: bad span: start "-1"`},
		{"empty span", "a d 4 4\n", errSpan, `m:1: bad span: end "4" is not an integer > start 4`},
		{"reversed", "a d 5 4\n", errSpan, "m:1: bad span"},
		{"float", "a d 0 1.5\n", errSpan, "m:1: bad span"},
		{"duplicate", "a d 0 1\nb d 0 1\na e 0 1\n", eval.ErrDuplicate, `m:3: duplicate doc: chunk "a" listed twice (first on line 1)`},
		{"header later", "a d 0 1\nchunk-id doc-id start end\n", errSpan, "m:2: bad span"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readChunkMap(strings.NewReader(tc.in), "m")
			var pe *eval.ParseError
			if !errors.As(err, &pe) || !errors.Is(err, tc.sentinel) || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("err = %v, want a ParseError %q wrapping %v", err, tc.want, tc.sentinel)
			}
		})
	}
}

func TestWriteChunkMapRoundTrip(t *testing.T) {
	m := ChunkMap{"b#1": {"b", 5, 9}, "b#0": {"b", 0, 6}, "a#0": {"a", 0, 2}}
	var buf bytes.Buffer
	if err := WriteChunkMap(&buf, m); err != nil {
		t.Fatal(err)
	}
	want := "chunk-id\tdoc-id\tstart\tend\na#0\ta\t0\t2\nb#0\tb\t0\t6\nb#1\tb\t5\t9\n"
	if buf.String() != want {
		t.Errorf("WriteChunkMap =\n%s\nwant\n%s", buf.String(), want)
	}
	back, err := readChunkMap(&buf, "back")
	if err != nil || !maps.Equal(back, m) {
		t.Errorf("round trip: %v, %v", back, err)
	}
	for _, bad := range []ChunkMap{{"a b": {"d", 0, 1}}, {"a": {"", 0, 1}}, {"a": {"d", 1, 1}}, {"a": {"d", -1, 1}}} {
		if err := WriteChunkMap(&bytes.Buffer{}, bad); err == nil {
			t.Errorf("WriteChunkMap(%v): want an error", bad)
		}
	}
}

// TestReadChunkMapFileGzip reads the same map from a plain and a gzipped file.
func TestReadChunkMapFileGzip(t *testing.T) {
	text := "x#0 x 0 7\nx#1 x 5 12\n"
	// the name does not matter: gzip is found by its magic bytes
	dir := sharedtest.WriteTree(t, map[string]string{"m.tsv": text, "m.tsv.gz": string(sharedtest.Gzip([]byte(text)))})
	plain, zipped := filepath.Join(dir, "m.tsv"), filepath.Join(dir, "m.tsv.gz")
	a, err := ReadChunkMapFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadChunkMapFile(zipped)
	if err != nil || !maps.Equal(a, b) {
		t.Errorf("gzip: %v, %v; plain %v", b, err, a)
	}
	if _, err := ReadChunkMapFile(filepath.Join(dir, "missing")); err == nil {
		t.Error("missing file: want an error")
	}
}

func FuzzReadChunkMap(f *testing.F) {
	for _, s := range []string{"chunk-id doc-id start end\na d 0 1\n", "a d 0 1\nb d 1 3\r\n", "", "\n", "a d 3 2\n", "a d 0 99999999999999999999\n", "a d 0 1\na d 0 1\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		m, err := readChunkMap(strings.NewReader(in), "f")
		if err != nil {
			var pe *eval.ParseError
			if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "f:") {
				t.Errorf("error without position: %v", err)
			}
			return
		}
		for id, s := range m {
			if id == "" || s.Doc == "" || s.Start < 0 || s.End <= s.Start {
				t.Errorf("accepted a bad chunk %q: %+v", id, s)
			}
		}
		var buf bytes.Buffer
		if err := WriteChunkMap(&buf, m); err != nil {
			t.Fatalf("a map that was read does not write: %v", err)
		}
		back, err := readChunkMap(&buf, "back")
		if err != nil || !maps.Equal(back, m) {
			t.Errorf("round trip changed the map: %v", err)
		}
	})
}
