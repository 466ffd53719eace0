// Package csvcell neutralises CSV cells that a spreadsheet would execute. Excel, LibreOffice and
// Google Sheets take a cell that starts with '=', '+', '-' or '@' as a formula (and a leading tab
// or carriage return can hide such a start), so an ID or a run name like =HYPERLINK("x") or
// =cmd|'/C calc'!A0 in a CSV export would run when the file is opened (OWASP "CSV injection").
// Every CSV ranklab writes passes its cells through Cell:
//
//	=SUM(1+1)   → '=SUM(1+1)     (shown as text, not computed)
//	+x, -x, @x  → '+x, '-x, '@x
//	-0.25, +3   → unchanged      (a plain number is not a formula, nor a lone "-")
//	'quoted     → ''quoted       (so Uncell gives back exactly what was written)
//
// Uncell undoes Cell, for the CSV ranklab reads back (the lab's).
package csvcell

import (
	"encoding/csv"
	"io"
	"strconv"
)

// Cell returns s with a leading "'" when a spreadsheet would run it as a formula (it starts with
// '=', '+', '-', '@', a tab or a carriage return, and is not a plain decimal number) or when it
// already starts with "'"; any other s is returned unchanged.
func Cell(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '\'':
		return "'" + s
	case '=', '@', '\t', '\r':
		return "'" + s
	case '+', '-':
		if len(s) == 1 || isNumber(s) { // "-" (standard input's name) is no formula
			return s
		}
		return "'" + s
	}
	return s
}

// Record applies Cell to every field of rec, in place, and returns it.
func Record(rec []string) []string {
	for i, s := range rec {
		rec[i] = Cell(s)
	}
	return rec
}

// Uncell undoes Cell: it drops one leading "'".
func Uncell(s string) string {
	if len(s) > 0 && s[0] == '\'' {
		return s[1:]
	}
	return s
}

// isNumber reports whether s is a plain decimal number: digits, '.', 'e', 'E', '+', '-' only,
// and a float64 strconv reads.
func isNumber(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
			return false
		}
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// Writer is a csv.Writer whose every cell goes through Cell.
type Writer struct{ *csv.Writer }

// NewWriter returns a Writer writing RFC 4180 CSV to w (encoding/csv's defaults).
func NewWriter(w io.Writer) *Writer { return &Writer{csv.NewWriter(w)} }

// Write writes one record, its cells neutralised (Cell); rec is not modified.
func (w *Writer) Write(rec []string) error {
	return w.Writer.Write(Record(append([]string(nil), rec...)))
}

// WriteAll writes the records (Write each), then flushes.
func (w *Writer) WriteAll(recs [][]string) error {
	for _, rec := range recs {
		if err := w.Write(rec); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}
