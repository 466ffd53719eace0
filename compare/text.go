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
	b.WriteString(aligned(r.MeansTable()) + "\n")
	b.WriteString(aligned(r.DetailTable()))
	if len(r.Notes) > 0 {
		b.WriteString("\nNotes:\n")
		for _, n := range r.Notes {
			b.WriteString("- " + n + "\n")
		}
	}
	return b.String()
}

// aligned returns the header and rows as columns separated by two spaces.
func aligned(header []string, rows [][]string) string {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, row := range append([][]string{header}, rows...) {
		tw.Write([]byte(strings.Join(row, "\t") + "\n"))
	}
	tw.Flush()
	return b.String()
}
