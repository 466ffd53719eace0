package scan

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"os"
)

// Open opens path and returns a reader over its content, gunzipped when the file starts with
// gzip's magic bytes (1f 8b), whatever its name, and the function that closes it. A gzip header
// that does not parse is returned as the error.
func Open(path string) (io.Reader, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	r, err := decompress(f)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if c, ok := r.(io.Closer); ok && r != io.Reader(f) {
		return r, func() error { c.Close(); return f.Close() }, nil
	}
	return r, f.Close, nil
}

// decompress returns a buffered reader over r, gunzipped when r starts with gzip's magic bytes.
func decompress(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	magic, _ := br.Peek(2)
	if bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, err
		}
		return zr, nil
	}
	return br, nil
}
