package scan

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func gz(t *testing.T, s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	io.WriteString(w, s)
	w.Close()
	return b.Bytes()
}

// TestDecompress is defect 10 of issue 23: gzip is read as gzip -d reads it (concatenated
// members, zero padding after the last), trailing garbage and an early end are named as such,
// and bzip2, xz and zstd files are named, never read as text.
func TestDecompress(t *testing.T) {
	const text = "q1 Q0 d1 1 1 t\nq1 Q0 d2 2 0.5 t\n"
	g := gz(t, text)
	tests := []struct {
		name string
		in   []byte
		want string
		err  error
		msg  string
	}{
		{"plain", []byte(text), text, nil, ""},
		{"gzip", g, text, nil, ""},
		{"concatenated", append(gz(t, text[:15]), gz(t, text[15:])...), text, nil, ""},
		{"zero padded", append(append([]byte{}, g...), make([]byte, 4096)...), text, nil, ""},
		{"padded then member", append(append(append([]byte{}, g...), 0, 0), g...), "", ErrTrailingGarbage, ""},
		{"trailing garbage", append(append([]byte{}, g...), "garbage"...), "", ErrTrailingGarbage, ""},
		{"short trailing garbage", append(append([]byte{}, g...), 'x'), "", ErrTrailingGarbage, ""},
		{"truncated", g[:len(g)-5], "", ErrTruncated, ""},
		{"bzip2", []byte("BZh91AY&SY\x00\x00"), "", ErrCompressed, "bzip2"},
		{"empty bzip2", []byte("BZh9\x17\x72\x45\x38\x50\x90\x00\x00\x00\x00"), "", ErrCompressed, "bzip2"},
		{"xz", []byte("\xfd7zXZ\x00\x00\x04"), "", ErrCompressed, "xz"},
		{"zstd", []byte("\x28\xb5\x2f\xfd\x00\x00"), "", ErrCompressed, "zstd"},
		{"text starting BZh", []byte("BZh1 Q0 d 1 1 t\n"), "BZh1 Q0 d 1 1 t\n", nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Decompress(bytes.NewReader(tc.in))
			var got []byte
			if err == nil {
				got, err = io.ReadAll(r)
			}
			if !errors.Is(err, tc.err) || (tc.err == nil && string(got) != tc.want) {
				t.Errorf("got %q, %v; want %q, %v", got, err, tc.want, tc.err)
			}
			if tc.msg != "" && (err == nil || !strings.Contains(err.Error(), tc.msg)) {
				t.Errorf("error %v does not name %s", err, tc.msg)
			}
		})
	}
}

// TestKeepPipe is defect 1 of issue 23 at its root: a pipe given to Keep reads whole each time
// it is opened, even after a first reading stopped half-way.
func TestKeepPipe(t *testing.T) {
	text := strings.Repeat("q1 Q0 d 1 1 t\n", 20000)
	path := pipeWith(t, []byte(text))
	defer Keep(path)()
	r, closeFn, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	io.ReadFull(r, make([]byte, 1000)) // a first reader that stops early
	closeFn()
	for range 2 {
		r, closeFn, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		closeFn()
		if err != nil || string(got) != text {
			t.Fatalf("reading again: %d bytes, %v; want %d", len(got), err, len(text))
		}
	}
}

// TestSpoolOnlyWhenNeeded is defects 6 and 9 of issue 23: a pipe read once needs no $TMPDIR
// (the copy fails quietly, here TMPDIR is missing and memory holds 1 KiB); reading it again
// then fails with an error that says how much $TMPDIR it needs.
func TestSpoolOnlyWhenNeeded(t *testing.T) {
	defer func(n int) { MemSpool = n }(MemSpool)
	MemSpool = 1 << 10
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	text := strings.Repeat("q1 Q0 d 1 1 t\n", 300000) // 4.2 MB
	src, err := OpenSource(pipeWith(t, []byte(text)), true)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	got, err := io.ReadAll(src.Reader)
	if err != nil || len(got) != len(text) {
		t.Fatalf("first reading: %d bytes, %v; want %d", len(got), err, len(text))
	}
	r, err := src.Replay()
	if err == nil {
		_, err = io.ReadAll(r)
	}
	var se *SpoolError
	if !errors.As(err, &se) || se.Need < int64(len(text))-int64(MemSpool)-(1<<16) || !strings.Contains(err.Error(), "$TMPDIR") {
		t.Errorf("second reading: %v; want a SpoolError naming $TMPDIR and the bytes needed", err)
	}
}

// pipeWith returns the path of a named pipe that a goroutine fills with data.
func pipeWith(t *testing.T, data []byte) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() { w.Write(data); w.Close() }()
	t.Cleanup(func() { r.Close() })
	return "/dev/fd/" + itoa(int(r.Fd()))
}

func itoa(n int) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		if n /= 10; n == 0 {
			return string(b)
		}
	}
}

// FuzzDecompress checks that any input opens without a panic, that an input without a
// compression magic reads back unchanged, and that a gzip of any text reads back as the text,
// whatever zero padding follows.
func FuzzDecompress(f *testing.F) {
	f.Add([]byte("q 0 d 1\n"), 0)
	f.Add([]byte("\x1f\x8b\x08"), 3)
	f.Add([]byte("BZh91AY&SY"), 0)
	f.Fuzz(func(t *testing.T, in []byte, pad int) {
		r, err := Decompress(bytes.NewReader(in))
		if err == nil {
			got, err := io.ReadAll(r)
			if err == nil && !bytes.HasPrefix(in, []byte{0x1f, 0x8b}) && !bytes.Equal(got, in) {
				t.Fatalf("plain input %q read as %q", in, got)
			}
		}
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write(in)
		w.Close()
		b.Write(make([]byte, pad&0xfff))
		r, err = Decompress(&b)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := io.ReadAll(r); err != nil || !bytes.Equal(got, in) {
			t.Fatalf("gzip of %q with %d zero bytes read as %q, %v", in, pad&0xfff, got, err)
		}
	})
}

// FuzzLineCap checks LineCap against Lines: the same bytes through, the same bare-CR verdict.
func FuzzLineCap(f *testing.F) {
	for _, s := range []string{"a\r\nb", "\xef\xbb\xbfx\ry", "a\r", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := io.ReadAll(LineCap(strings.NewReader(in)))
		l := NewLines(strings.NewReader(in))
		for l.Next() {
		}
		if (err != nil) != (l.Err() != nil) {
			t.Fatalf("%q: LineCap %v, Lines %v", in, err, l.Err())
		}
		if err == nil && string(got) != strings.TrimPrefix(in, "\xef\xbb\xbf") {
			t.Fatalf("%q through LineCap: %q", in, got)
		}
	})
}
