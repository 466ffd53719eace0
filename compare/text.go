package compare

import (
	"strings"
	"text/tabwriter"
)

// Text returns the report as aligned plain text: the summary, the means table (baseline first,
// marks after the means), one row per comparison, and the notes.
func (r Report) Text() string {
	var b strings.Builder
	b.WriteString(r.Summary() + "\n\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	tw.Write([]byte("run\t" + strings.Join(r.Measures, "\t") + "\n"))
	for i, row := range meansTable(r) {
		name := r.Runs[i].Name
		if i == 0 {
			name += " (baseline)"
		}
		cells := []string{name}
		for _, c := range row {
			m := c.Mean
			if c.T {
				m += "*"
			}
			if c.Perm {
				m += "†"
			}
			cells = append(cells, m)
		}
		tw.Write([]byte(strings.Join(cells, "\t") + "\n"))
	}
	tw.Flush()
	b.WriteString("\n")
	header, rows := detailTable(r)
	tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	tw.Write([]byte(strings.Join(header, "\t") + "\n"))
	for _, row := range rows {
		tw.Write([]byte(strings.Join(row, "\t") + "\n"))
	}
	tw.Flush()
	if len(r.Notes) > 0 {
		b.WriteString("\nNotes:\n")
		for _, n := range r.Notes {
			b.WriteString("- " + n + "\n")
		}
	}
	return b.String()
}
