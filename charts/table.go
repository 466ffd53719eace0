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
	t := table{caption: html.EscapeString(caption), header: header, notes: notes}
	for _, r := range rows {
		t.rows = append(t.rows, tableRow{cells: r})
	}
	return t.html()
}

// table is what the one HTML table writer of the package writes: Table and the lab's ranking
// table (RankingTable) are built on it.
type table struct {
	attrs   string // attributes of the <table> element, already escaped (test hooks)
	caption string // HTML, already escaped
	header  []string
	rows    []tableRow
	notes   []string
	compact bool // smaller type and padding (the live panel)
}

// tableRow is one row: its cells (text, escaped by the writer), the attributes of its <tr>
// (names are the caller's constants, values are escaped) and whether it is highlighted.
type tableRow struct {
	cells     []string
	attrs     [][2]string
	highlight bool
}

// html writes the table. Rules under the header and between rows use colorRule, which keeps
// 3:1 against light and dark backgrounds; a highlighted row gets colorHighlight's translucent
// band, so its text keeps the theme's colour.
func (t table) html() string {
	right := make([]bool, len(t.header))
	for k := range t.header {
		right[k] = true
		for _, row := range t.rows {
			if k < len(row.cells) && !numeric(row.cells[k]) {
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
	font, pad, tdPad := "13px", "3px 10px", "2px 10px"
	if t.compact {
		font, pad, tdPad = "12px", "2px 8px", "1px 8px"
	}
	e := html.EscapeString
	var b strings.Builder
	b.WriteString(`<div class="ranklab-table" style="font-family:system-ui,'DejaVu Sans',sans-serif;color:var(--jp-content-font-color1,#222);max-width:980px;overflow-x:auto;margin:6px 0">` + "\n")
	b.WriteString(`<table` + t.attrs + ` style="border-collapse:collapse;font-size:` + font + `;font-variant-numeric:tabular-nums">`)
	if t.caption != "" {
		b.WriteString(`<caption style="text-align:left;font-weight:600;padding:4px 0">` + t.caption + `</caption>`)
	}
	b.WriteString("\n<thead><tr>")
	for k, h := range t.header {
		b.WriteString(`<th style="border-bottom:2px solid ` + colorRule + `;padding:` + pad + `;white-space:nowrap;text-align:` + align(k) + `">` + e(h) + `</th>`)
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, row := range t.rows {
		b.WriteString("<tr")
		for _, a := range row.attrs {
			b.WriteString(" " + a[0] + `="` + e(a[1]) + `"`)
		}
		if row.highlight {
			b.WriteString(` style="background:` + colorHighlight + `"`)
		}
		b.WriteString(">")
		for k := range max(len(t.header), len(row.cells)) {
			cell := ""
			if k < len(row.cells) {
				cell = row.cells[k]
			}
			b.WriteString(`<td style="border-bottom:1px solid ` + colorRule + `;padding:` + tdPad + `;white-space:nowrap;text-align:` + align(k) + `">` + e(cell) + `</td>`)
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody></table>\n")
	for _, n := range t.notes {
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
