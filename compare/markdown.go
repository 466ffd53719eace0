package compare

import "strings"

// mdEscape escapes the characters that change a Markdown table cell: \ | * _ ` < > [ ].
var mdEscape = strings.NewReplacer(`\`, `\\`, `|`, `\|`, `*`, `\*`, `_`, `\_`, "`", "\\`",
	`<`, `&lt;`, `>`, `&gt;`, `[`, `\[`, `]`, `\]`, "\n", " ", "\r", " ")

// markdownText returns the report as GitHub-flavoured Markdown: the summary, the means table, the
// comparisons table and the notes. Every data string is escaped.
func (r Report) markdownText() string {
	var b strings.Builder
	b.WriteString(mdEscape.Replace(r.Summary()) + "\n\n")
	b.WriteString("| run |")
	for _, m := range r.Measures {
		b.WriteString(" " + mdEscape.Replace(m.String()) + " |")
	}
	b.WriteString("\n|---|" + strings.Repeat("---:|", len(r.Measures)) + "\n")
	for i, row := range meansTable(r) {
		name := mdEscape.Replace(r.Runs[i].Name)
		if i == 0 {
			name += " (baseline)"
		}
		b.WriteString("| " + name + " |")
		for _, c := range row {
			m := c.Mean
			if c.T {
				m += `\*`
			}
			if c.Perm {
				m += "†"
			}
			b.WriteString(" " + m + " |")
		}
		b.WriteString("\n")
	}
	header, rows := r.DetailTable()
	b.WriteString("\n|")
	for _, h := range header {
		b.WriteString(" " + mdEscape.Replace(h) + " |")
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---:|", len(header)-2) + "\n")
	for _, row := range rows {
		b.WriteString("|")
		for _, c := range row {
			b.WriteString(" " + mdEscape.Replace(c) + " |")
		}
		b.WriteString("\n")
	}
	if len(r.Notes) > 0 {
		b.WriteString("\n")
		for _, n := range r.Notes {
			b.WriteString("- " + mdEscape.Replace(n) + "\n")
		}
	}
	return b.String()
}
