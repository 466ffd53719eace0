package eval

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"os"
)

// openInput opens path and returns a reader over its content, gunzipped when the file starts
// with gzip's magic bytes (1f 8b), whatever its name.
func openInput(path string) (io.Reader, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	br := bufio.NewReaderSize(f, 1<<16)
	magic, _ := br.Peek(2)
	if bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			f.Close()
			return nil, nil, &ParseError{File: path, Err: err}
		}
		return zr, func() error { zr.Close(); return f.Close() }, nil
	}
	return br, f.Close, nil
}

// lineScanner returns a scanner over r with room for long lines.
func lineScanner(r io.Reader) *bufio.Scanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<26)
	return sc
}

// trimCR drops a trailing carriage return (files written on Windows).
func trimCR(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\r' {
		return b[:n-1]
	}
	return b
}
