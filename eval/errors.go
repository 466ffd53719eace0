package eval

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/ranklab/ranklab/internal/scan"
)

// Sentinel errors of the readers; a *ParseError unwraps to one of them (or, for a bad
// preference level or a gzip stream that ends early, to an internal one).
var (
	ErrFieldCount = errors.New("wrong number of fields")
	ErrGrade      = errors.New("grade is not an integer")
	ErrScore      = errors.New("score is not a finite number")
	errLevel      = errors.New("preference level is not a finite number")
	ErrDuplicate  = errors.New("duplicate doc")
	ErrEmpty      = errors.New("empty file")
	ErrEmptyLine  = errors.New("empty line")
	ErrHeader     = errors.New("bad header")
	errTruncated  = scan.ErrTruncated // a gzip stream that ends early
)

// ErrNoQueries is the error of an evaluation left with no query to evaluate.
var ErrNoQueries = errors.New("nothing to evaluate")

// ParseError is an error in an input file, with its position. It prints as "file:line: msg"
// ("file: msg" when Line is 0, for errors about the whole file).
type ParseError struct {
	File string
	Line int
	Err  error
}

func (e *ParseError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// parseErr builds a *ParseError whose message is sentinel followed by detail.
func parseErr(file string, line int, sentinel error, format string, args ...any) error {
	if format == "" {
		return &ParseError{File: file, Line: line, Err: sentinel}
	}
	return &ParseError{File: file, Line: line, Err: fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)}
}

// readErr builds the *ParseError of a read error that ends the input after line complete lines:
// the same cause and line for every reader.
func readErr(file string, line int, err error) error {
	return &ParseError{File: file, Line: line + 1, Err: scan.ReadError(err)}
}

// maxQuote is the longest prefix of a bad field an error message quotes.
const maxQuote = 40

// quoteField quotes a field for an error message: at most its first maxQuote bytes (cut at a
// character boundary), with its length when it is longer.
func quoteField(b []byte) string {
	if len(b) <= maxQuote {
		return strconv.Quote(string(b))
	}
	cut := maxQuote
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return strconv.Quote(string(b[:cut])) + fmt.Sprintf("... (%d bytes)", len(b))
}

// quoteString is quoteField for a string.
func quoteString(s string) string { return quoteField([]byte(s)) }
