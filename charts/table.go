package charts

import (
	"html"
	"strings"
	"unicode"
)

// Table returns rows as a plain HTML table (no JavaScript): the caption above it, the header
// row, the rows, then each note as a line under the table. Every string is HTML-escaped. A
// column whose cells are all numbers (or empty) is right-aligned; a table wider than the output
// scrolls sideways. Rows may be shorter than the header (missing cells are empty).
func Table(caption string, header []string, rows [][]string, notes ...string) string {
	right := make([]bool, len(header))
	for k := range header {
		right[k] = true
		for _, row := range rows {
			if k < len(row) && !numeric(row[k]) {
				right[k] = false
				break
			}
		}
	}
	align := func(k int) string {
		if k < len(right) && right[k] {
			return "right"
		}
		return "left"
	}
	e := html.EscapeString
	var b strings.Builder
	b.WriteString(`<div class="ranklab-table" style="font-family:system-ui,'DejaVu Sans',sans-serif;color:var(--jp-content-font-color1,#222);max-width:980px;overflow-x:auto;margin:6px 0">` + "\n")
	b.WriteString(`<table style="border-collapse:collapse;font-size:13px;font-variant-numeric:tabular-nums">`)
	if caption != "" {
		b.WriteString(`<caption style="text-align:left;font-weight:600;padding:4px 0">` + e(caption) + `</caption>`)
	}
	b.WriteString("\n<thead><tr>")
	for k, h := range header {
		b.WriteString(`<th style="border-bottom:2px solid #888;padding:3px 10px;white-space:nowrap;text-align:` + align(k) + `">` + e(h) + `</th>`)
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, row := range rows {
		b.WriteString("<tr>")
		for k := range max(len(header), len(row)) {
			cell := ""
			if k < len(row) {
				cell = row[k]
			}
			b.WriteString(`<td style="border-bottom:1px solid var(--jp-border-color2,#ddd);padding:2px 10px;white-space:nowrap;text-align:` + align(k) + `">` + e(cell) + `</td>`)
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody></table>\n")
	for _, n := range notes {
		b.WriteString(`<p style="font-size:13px;margin:6px 0">` + e(n) + "</p>\n")
	}
	b.WriteString("</div>\n")
	return b.String()
}

// numeric reports whether a cell reads as a number: empty, n/a, ±inf, or a digit after an
// optional sign, bracket or point (0.7518, +0.0519, -1, .5, 1.8e-08, 33.3%, 0.9400*†, 30/0/0,
// [+0.0397, +0.0661]).
func numeric(cell string) bool {
	s := strings.TrimSpace(cell)
	switch s {
	case "", "n/a", "inf", "-inf", "+inf":
		return true
	}
	s = strings.TrimLeft(s, "+-−[")
	s = strings.TrimPrefix(s, ".")
	r := []rune(s + " ")[0]
	return unicode.IsDigit(r)
}
