package eval

import (
	"errors"
	"fmt"
)

// Sentinel errors of the readers; a *ParseError unwraps to one of them.
var (
	ErrFieldCount = errors.New("wrong number of fields")
	ErrGrade      = errors.New("grade is not an integer")
	ErrScore      = errors.New("score is not a finite number")
	ErrDuplicate  = errors.New("duplicate doc")
	ErrEmpty      = errors.New("empty file")
	ErrEmptyLine  = errors.New("empty line")
	ErrHeader     = errors.New("bad header")
)

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
