package eval

import (
	"errors"
	"io"
	"io/fs"

	"github.com/ranklab/ranklab/internal/scan"
)

// openInput opens path ("-" for standard input) and returns a reader over its content,
// gunzipped when it starts with gzip's magic bytes (1f 8b), whatever its name. A file that
// cannot be opened gives the *fs.PathError; a gzip header that does not parse gives a
// *ParseError at line 1.
func openInput(path string) (io.Reader, func() error, error) {
	r, closeFn, err := scan.Open(path)
	if err != nil {
		return nil, nil, inputErr(path, err)
	}
	return r, closeFn, nil
}

// inputErr keeps an *fs.PathError and makes any other opening error a *ParseError at line 1.
func inputErr(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return err
	}
	return readErr(path, 0, err)
}

// readFile opens path and reads it with read.
func readFile[T any](path string, read func(io.Reader, string) (T, error)) (T, error) {
	r, closeFn, err := openInput(path)
	if err != nil {
		var zero T
		return zero, err
	}
	defer closeFn()
	return read(r, path)
}
