package scan

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// BOM is the UTF-8 byte-order mark some editors put at the start of a text file.
var BOM = []byte{0xEF, 0xBB, 0xBF}

// MaxLine is the longest line the readers accept (64 MiB).
const MaxLine = 1 << 26

// ErrLineTooLong is returned for a line longer than MaxLine.
var ErrLineTooLong = errors.New("line longer than 64 MiB")

// Lines reads text line by line, as bufio.Scanner does, with the rules every reader of the
// evaluator shares:
//
//   - a UTF-8 byte-order mark at the very start of the input is dropped;
//   - a trailing carriage return is dropped (files written on Windows);
//   - the last line needs no newline;
//   - a read error (a truncated or corrupt gzip stream) ends the input after the last complete
//     line: the partial line before it is never returned, and Err reports the error, which
//     belongs to line Line()+1.
type Lines struct {
	r     *bufio.Reader
	line  []byte
	long  []byte
	n     int
	err   error
	first bool
	done  bool
}

// NewLines returns a line reader over r.
func NewLines(r io.Reader) *Lines {
	br, ok := r.(*bufio.Reader)
	if !ok || br.Size() < 1<<16 {
		br = bufio.NewReaderSize(r, 1<<16)
	}
	return &Lines{r: br, first: true}
}

// Next advances to the next line and reports whether there is one.
func (l *Lines) Next() bool {
	if l.done {
		return false
	}
	if l.first {
		l.first = false
		if head, _ := l.r.Peek(len(BOM)); bytes.Equal(head, BOM) {
			l.r.Discard(len(BOM))
		}
	}
	l.long = l.long[:0]
	for {
		chunk, err := l.r.ReadSlice('\n')
		switch {
		case err == nil:
			if len(l.long) > 0 {
				l.long = append(l.long, chunk...)
				chunk = l.long
			}
			l.line = TrimCR(chunk[:len(chunk)-1])
			l.n++
			return true
		case err == bufio.ErrBufferFull:
			if len(l.long)+len(chunk) > MaxLine {
				l.done, l.err = true, ErrLineTooLong
				return false
			}
			l.long = append(l.long, chunk...)
			continue
		case err == io.EOF:
			l.done = true
			if len(l.long)+len(chunk) == 0 {
				return false
			}
			if len(l.long) > 0 {
				chunk = append(l.long, chunk...)
			}
			l.line = TrimCR(chunk)
			l.n++
			return true
		default:
			l.done, l.err = true, ReadError(err)
			return false
		}
	}
}

// Bytes returns the current line without its line ending. It aliases the reader's buffer and
// is valid until the next call to Next.
func (l *Lines) Bytes() []byte { return l.line }

// Line returns the number of the current line, counted from 1.
func (l *Lines) Line() int { return l.n }

// Err returns the read error that ended the input, nil at a clean end. The error belongs to
// line Line()+1.
func (l *Lines) Err() error { return l.err }
