package compare

import (
	"fmt"
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

// Format returns the report in one of the formats of `ranklab compare -f`: "text" (Text),
// "json" (indented JSON: values not computed, such as a test not run or the t-test with one
// query, and infinite t statistics are null; "diffs" holds the per-query differences in
// "queries" order; lists are never null), "csv" (one row per run and measure, baseline rows
// first; the baseline's comparison fields and tests not run empty; "refused" says why a
// comparison is not a result), "md" (GitHub-flavoured Markdown: the summary, the means and the
// comparisons tables, the notes) or "latex" (two booktabs tables, means with $^{*}$ and
// $^{\dagger}$ marks where the Holm-adjusted p ≤ α, and the comparisons). Every data string is
// escaped for its format. Another name is an error.
func (r Report) Format(format string) (string, error) {
	switch format {
	case "text":
		return r.Text(), nil
	case "json":
		return r.jsonText(), nil
	case "csv":
		return r.csvText(), nil
	case "md":
		return r.markdownText(), nil
	case "latex":
		return r.latexText(), nil
	}
	return "", fmt.Errorf("compare: no format %q (want text, json, csv, md or latex)", format)
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
