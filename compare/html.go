package compare

import (
	"html"
	"strings"
)

// HTML returns the report as one plain-HTML fragment for a notebook output: no JavaScript,
// inline styles, every data string escaped. It holds the summary, the means table (baseline
// named, significant improvements and drops marked * and †, bold when significant by a test
// that was run), the comparisons table and the notes.
func (r Report) HTML() string {
	const (
		table = `<table style="border-collapse:collapse;font:13px/1.4 system-ui,sans-serif;margin:6px 0">`
		th    = `<th style="border-bottom:2px solid #444;padding:3px 8px;text-align:right">`
		thL   = `<th style="border-bottom:2px solid #444;padding:3px 8px;text-align:left">`
		td    = `<td style="border-bottom:1px solid #ddd;padding:3px 8px;text-align:right;font-variant-numeric:tabular-nums">`
		tdL   = `<td style="border-bottom:1px solid #ddd;padding:3px 8px;text-align:left">`
	)
	e := html.EscapeString
	var b strings.Builder
	b.WriteString(`<div class="ranklab-compare">`)
	b.WriteString(`<p style="font:13px/1.4 system-ui,sans-serif;max-width:980px">` + e(r.Summary()) + `</p>`)
	b.WriteString(table + `<caption style="text-align:left;font-weight:600">Means (baseline: ` + e(r.Baseline()) + `)</caption><thead><tr>` + thL + `run</th>`)
	for _, m := range r.Measures {
		b.WriteString(th + e(m) + `</th>`)
	}
	b.WriteString(`</tr></thead><tbody>`)
	for i, row := range meansTable(r) {
		name := e(r.Runs[i].Name)
		if i == 0 {
			name += ` <em>(baseline)</em>`
		}
		b.WriteString(`<tr>` + tdL + name + `</td>`)
		for j, c := range row {
			cell := e(c.Mean)
			if c.T || c.Perm {
				m := ""
				if c.T {
					m += "*"
				}
				if c.Perm {
					m += "†"
				}
				color := "#1a7f37"
				title := "significantly above the baseline"
				if r.Comparison(i, j).Diff < 0 {
					color, title = "#b42318", "significantly below the baseline"
				}
				cell = `<strong style="color:` + color + `" title="` + title + `">` + cell + `<sup>` + m + `</sup></strong>`
			}
			b.WriteString(td + cell + `</td>`)
		}
		b.WriteString(`</tr>`)
	}
	b.WriteString(`</tbody></table>`)

	header, rows := detailTable(r)
	b.WriteString(table + `<caption style="text-align:left;font-weight:600">Each run against ` + e(r.Baseline()) + `</caption><thead><tr>`)
	for k, h := range header {
		if k < 2 {
			b.WriteString(thL + e(h) + `</th>`)
		} else {
			b.WriteString(th + e(h) + `</th>`)
		}
	}
	b.WriteString(`</tr></thead><tbody>`)
	for _, row := range rows {
		b.WriteString(`<tr>`)
		for k, c := range row {
			if k < 2 {
				b.WriteString(tdL + e(c) + `</td>`)
			} else {
				b.WriteString(td + e(c) + `</td>`)
			}
		}
		b.WriteString(`</tr>`)
	}
	b.WriteString(`</tbody></table>`)
	if len(r.Notes) > 0 {
		b.WriteString(`<ul style="font:13px/1.4 system-ui,sans-serif">`)
		for _, n := range r.Notes {
			b.WriteString(`<li>` + e(n) + `</li>`)
		}
		b.WriteString(`</ul>`)
	}
	b.WriteString(`</div>`)
	return b.String()
}
