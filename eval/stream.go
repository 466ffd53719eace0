package eval

import (
	"bufio"
	"errors"
	"io"
	"io/fs"

	"github.com/ranklab/ranklab/internal/scan"
)

// openInput opens path and returns a reader over its content, gunzipped when the file starts
// with gzip's magic bytes (1f 8b), whatever its name. A file that cannot be opened gives the
// *fs.PathError; a gzip header that does not parse gives a *ParseError.
func openInput(path string) (io.Reader, func() error, error) {
	r, closeFn, err := scan.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, nil, err
		}
		return nil, nil, &ParseError{File: path, Err: err}
	}
	return r, closeFn, nil
}

// lineScanner returns a scanner over r with room for long lines.
func lineScanner(r io.Reader) *bufio.Scanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<26)
	return sc
}
