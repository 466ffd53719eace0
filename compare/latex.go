package compare

import (
	"fmt"
	"strings"
)

// texEscape escapes LaTeX's special characters in text mode.
var texEscape = strings.NewReplacer(`\`, `\textbackslash{}`, `{`, `\{`, `}`, `\}`, `$`, `\$`, `&`, `\&`,
	`#`, `\#`, `^`, `\textasciicircum{}`, `_`, `\_`, `%`, `\%`, `~`, `\textasciitilde{}`,
	`<`, `\textless{}`, `>`, `\textgreater{}`, "†", `\dag{}`, "Δ", `$\Delta$`, "α", `$\alpha$`,
	"≤", `$\le$`, "×", `$\times$`, "…", `\ldots{}`, "\n", " ")

// latexText returns two booktabs tables (needs \usepackage{booktabs}): the means per run and
// measure, with $^{*}$ (t-test) and $^{\dagger}$ (randomization) marks where the Holm-adjusted
// p ≤ α, and the comparisons with their differences, intervals and p-values. Every data string
// is escaped.
func (r Report) latexText() string {
	var b strings.Builder
	b.WriteString("% " + texEscape.Replace(r.Summary()) + "\n")
	b.WriteString("\\begin{tabular}{l" + strings.Repeat("r", len(r.Measures)) + "}\n\\toprule\n")
	b.WriteString("Run")
	for _, m := range r.Measures {
		b.WriteString(" & " + texEscape.Replace(m.String()))
	}
	b.WriteString(" \\\\\n\\midrule\n")
	for i, row := range meansTable(r) {
		name := texEscape.Replace(r.Runs[i].Name)
		if i == 0 {
			name += " (baseline)"
		}
		b.WriteString(name)
		for _, c := range row {
			m := c.Mean
			var sup []string
			if c.T {
				sup = append(sup, "*")
			}
			if c.Perm {
				sup = append(sup, `\dagger`)
			}
			if len(sup) > 0 {
				m += "$^{" + strings.Join(sup, "") + "}$"
			}
			b.WriteString(" & " + m)
		}
		b.WriteString(" \\\\\n")
	}
	b.WriteString("\\bottomrule\n\\end{tabular}\n\n")

	header, rows := r.DetailTable()
	header = header[:len(header)-1] // the marks are in the means table
	b.WriteString("\\begin{tabular}{ll" + strings.Repeat("r", len(header)-2) + "}\n\\toprule\n")
	for k, h := range header {
		if k > 0 {
			b.WriteString(" & ")
		}
		b.WriteString(texEscape.Replace(h))
	}
	b.WriteString(" \\\\\n\\midrule\n")
	for _, row := range rows {
		for k, c := range row[:len(header)] {
			if k > 0 {
				b.WriteString(" & ")
			}
			b.WriteString(texEscape.Replace(c))
		}
		b.WriteString(" \\\\\n")
	}
	b.WriteString("\\bottomrule\n\\end{tabular}\n")
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "%% note: %s\n", texEscape.Replace(n))
	}
	return b.String()
}
