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
var ErrLineTooLong = errors.New("line longer than 64 MiB (is it a text file?)")

// ErrBareCR is returned for a carriage return inside a line: a file whose lines end in a bare
// CR (classic Mac OS) would otherwise read as one long line.
var ErrBareCR = errors.New("carriage return inside the line (lines ending in a bare CR?): convert the line ends, e.g. tr '\\r' '\\n'")

// Lines reads text line by line, as bufio.Scanner does, with the rules every reader of the
// evaluator shares:
//
//   - a UTF-8 byte-order mark at the very start of the input is dropped;
//   - a trailing carriage return is dropped (files written on Windows); a carriage return
//     anywhere else in a line is ErrBareCR, so a file with bare-CR line ends is never read as
//     one line;
//   - a line longer than MaxLine (64 MiB) is ErrLineTooLong, read no further than the cap
//     (so /dev/zero ends);
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
	bom   bool
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
			l.bom = true
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
			return l.set(chunk[:len(chunk)-1])
		case err == bufio.ErrBufferFull:
			if len(l.long)+len(chunk) > MaxLine+1 { // +1: a CR before the newline
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
			return l.set(chunk)
		default:
			l.done, l.err = true, ReadError(err)
			return false
		}
	}
}

// set makes line (without its '\n') the current line.
func (l *Lines) set(line []byte) bool {
	line = TrimCR(line)
	if len(line) > MaxLine {
		l.done, l.err = true, ErrLineTooLong
		return false
	}
	if bytes.IndexByte(line, '\r') >= 0 {
		l.done, l.err = true, ErrBareCR
		return false
	}
	l.line = line
	l.n++
	return true
}

// BOM reports whether a byte-order mark was dropped from the start of the input.
func (l *Lines) BOM() bool { return l.bom }

// Bytes returns the current line without its line ending. It aliases the reader's buffer and
// is valid until the next call to Next.
func (l *Lines) Bytes() []byte { return l.line }

// Line returns the number of the current line, counted from 1.
func (l *Lines) Line() int { return l.n }

// Err returns the read error that ended the input, nil at a clean end. The error belongs to
// line Line()+1.
func (l *Lines) Err() error { return l.err }

// LineCap returns a reader over r with the rules of Lines for a reader that must parse the
// bytes itself (encoding/csv, whose quoted fields may hold newlines): a UTF-8 byte-order mark at
// the start is dropped, a line longer than MaxLine (a CR before its newline aside) fails with
// ErrLineTooLong, a carriage return not followed by a newline fails with ErrBareCR. Line gives
// the line of such an error.
func LineCap(r io.Reader) *LineCapReader {
	br := bufio.NewReaderSize(r, 1<<16)
	if head, _ := br.Peek(len(BOM)); bytes.Equal(head, BOM) {
		br.Discard(len(BOM))
	}
	return &LineCapReader{r: br, line: 1}
}

// LineCapReader is LineCap's reader.
type LineCapReader struct {
	r    io.Reader
	run  int  // bytes of the current line so far
	cr   bool // the last byte was a CR
	line int
	err  error
}

// Line returns the number of the line being read (from 1).
func (c *LineCapReader) Line() int { return c.line }

func (c *LineCapReader) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.r.Read(p)
	for _, b := range p[:n] {
		switch {
		case b == '\n':
			c.run, c.cr = 0, false
			c.line++
			continue
		case c.cr:
			c.err = ErrBareCR
		case c.run >= MaxLine && b != '\r':
			c.err = ErrLineTooLong
		}
		if c.err != nil {
			return 0, c.err
		}
		c.cr = b == '\r'
		c.run++
	}
	return n, err // a CR that ends the input is a line end, as for Lines
}
