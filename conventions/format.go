package conventions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/ranklab/ranklab/internal/jsonx"

	"github.com/ranklab/ranklab/internal/csvcell"
)

// note is a cell that differs from the reference or fails, numbered in row-major order.
type note struct {
	n       int
	row     int
	measure int
}

// notes numbers the cells that need a note: those that differ from the reference or fail.
func (t Table) notes() (list []note, index map[[2]int]int) {
	index = map[[2]int]int{}
	for i, r := range t.Rows {
		for j, c := range r.Cells {
			if c.available() && !c.Agrees {
				list = append(list, note{len(list) + 1, i, j})
				index[[2]int{i, j}] = len(list)
			}
		}
	}
	return list, index
}

// value prints a cell's number with 4 decimals, "—" when the tool has no such measure and
// "error" when it stops.
func (c Cell) value() string {
	switch {
	case !c.available():
		return "—"
	case c.Err != "":
		return "error"
	}
	return strconv.FormatFloat(c.Value, 'f', 4, 64)
}

// summary is one line on the query sets: how many qrels queries, how many the run ranks, and
// the queries on one side only.
func (t Table) summary() string {
	s := fmt.Sprintf("%d qrels queries, %d ranked by the run", len(t.Queries), len(t.Queries)-len(t.Missing))
	if len(t.Missing) > 0 {
		s += "; without a ranking: " + quoteIDs(t.Missing)
	}
	if len(t.Ignored) > 0 {
		s += fmt.Sprintf("; %d run-only (not judged): %s", len(t.Ignored), quoteIDs(t.Ignored))
	}
	return s
}

// Format returns the table in one of the formats of `ranklab conventions -f`: "text" (Text),
// "json" (indented, as MarshalJSON), "csv" (one row per cell, with the header
// convention,measure,tool_measure,value,queries,agrees,error,reasons; value empty when the tool
// has no such measure or stops, reasons joined by " | "), "md" (a GitHub Markdown table followed
// by the numbered notes) or "html" (HTML). Every name, ID and reason is escaped for its format.
// Another name is an error.
func (t Table) Format(format string) (string, error) {
	switch format {
	case "text":
		return t.Text(), nil
	case "json":
		js, err := json.MarshalIndent(t, "", "  ")
		return string(js) + "\n", err
	case "csv":
		return t.csvText(), nil
	case "md":
		return t.markdownText(), nil
	case "html":
		return t.HTML(), nil
	}
	return "", fmt.Errorf("conventions: no format %q (want text, json, csv, md or html)", format)
}

// Text returns the table for a terminal: one row per convention, one column per measure, a
// "[n]" after each number that differs from the reference (or "error [n]"), then the notes:
// the tool's name for the measure, its number against the reference's, and the reasons.
func (t Table) Text() string {
	var b bytes.Buffer
	b.WriteString(t.summary() + "\n\n")
	notes, index := t.notes()
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "convention")
	for _, m := range t.Measures {
		fmt.Fprintf(tw, "\t%s", m)
	}
	fmt.Fprintln(tw, "\t")
	for i, r := range t.Rows {
		fmt.Fprint(tw, r.Convention.Name)
		for j, c := range r.Cells {
			v := c.value()
			if n, ok := index[[2]int{i, j}]; ok {
				v += fmt.Sprintf(" [%d]", n)
			}
			fmt.Fprintf(tw, "\t%s", v)
		}
		fmt.Fprintln(tw, "\t")
	}
	tw.Flush()
	if len(notes) > 0 {
		fmt.Fprintf(&b, "\nwhy the numbers differ from %s:\n", Reference)
	}
	for _, n := range notes {
		c := t.Rows[n.row].Cells[n.measure]
		fmt.Fprintf(&b, "[%d] %s, %s as %s: %s\n", n.n, t.Rows[n.row].Convention.Name, t.Measures[n.measure], c.Name, t.against(n))
		for _, r := range c.Reasons {
			fmt.Fprintf(&b, "    %s\n", r)
		}
	}
	return b.String()
}

// against prints "0.6450 against 0.6409" or "stops".
func (t Table) against(n note) string {
	c := t.Rows[n.row].Cells[n.measure]
	if c.Err != "" {
		return "stops"
	}
	return againstText(c.Value, t.Rows[0].Cells[n.measure].Value)
}

// againstText prints two numbers with 4 decimals, or with as many more (up to 12) as it takes
// for them to print differently.
func againstText(v, ref float64) string {
	for d := 4; ; d++ {
		a, b := strconv.FormatFloat(v, 'f', d, 64), strconv.FormatFloat(ref, 'f', d, 64)
		if a != b || d == 12 {
			return a + " against " + b
		}
	}
}

// markdownEscape escapes the characters that Markdown tables and emphasis would read.
func markdownEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_{}[]()#+-.!|<>~", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// markdownText returns the table as a GitHub Markdown table followed by the numbered notes;
// every name, ID and reason is escaped.
func (t Table) markdownText() string {
	var b strings.Builder
	e := markdownEscape
	notes, index := t.notes()
	b.WriteString(e(t.summary()) + "\n\n| convention |")
	for _, m := range t.Measures {
		b.WriteString(" " + e(m.String()) + " |")
	}
	b.WriteString("\n|---|" + strings.Repeat("---:|", len(t.Measures)) + "\n")
	for i, r := range t.Rows {
		b.WriteString("| " + e(r.Convention.Name) + " |")
		for j, c := range r.Cells {
			v := e(c.value())
			if n, ok := index[[2]int{i, j}]; ok {
				v += fmt.Sprintf(" \\[%d\\]", n)
			}
			b.WriteString(" " + v + " |")
		}
		b.WriteString("\n")
	}
	if len(notes) > 0 {
		b.WriteString("\nWhy the numbers differ from " + e(Reference) + ":\n\n")
	}
	for _, n := range notes {
		c := t.Rows[n.row].Cells[n.measure]
		fmt.Fprintf(&b, "%d. %s, %s as %s: %s", n.n, e(t.Rows[n.row].Convention.Name), e(t.Measures[n.measure].String()), e(c.Name), e(t.against(n)))
		for _, r := range c.Reasons {
			b.WriteString("\n   - " + e(r))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// csvText returns one row per cell, with the header
//
//	convention,measure,tool_measure,value,queries,agrees,error,reasons
//
// value is empty when the tool has no such measure or stops; reasons are joined by " | ".
func (t Table) csvText() string {
	var b bytes.Buffer
	w := csvcell.NewWriter(&b)
	w.Write([]string{"convention", "measure", "tool_measure", "value", "queries", "agrees", "error", "reasons"})
	for _, r := range t.Rows {
		for j, c := range r.Cells {
			v := ""
			if c.available() && c.Err == "" {
				v = strconv.FormatFloat(c.Value, 'g', -1, 64)
			}
			q := ""
			if c.available() && c.Err == "" {
				q = strconv.Itoa(c.Queries)
			}
			w.Write([]string{r.Convention.Name, t.Measures[j].String(), c.Name, v, q, strconv.FormatBool(c.Agrees), c.Err, strings.Join(c.Reasons, " | ")})
		}
	}
	w.Flush()
	return b.String()
}

// jsonFloat encodes NaN as null.
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(f))
}

type jsonCell struct {
	Measure     string    `json:"measure"`
	ToolMeasure string    `json:"tool_measure"`
	Value       jsonFloat `json:"value"`
	Queries     int       `json:"queries"`
	Agrees      bool      `json:"agrees"`
	Error       string    `json:"error,omitempty"`
	Reasons     []string  `json:"reasons"`
}

type jsonRow struct {
	Convention string     `json:"convention"`
	Package    string     `json:"package,omitempty"`
	Sources    []source   `json:"sources"`
	Cells      []jsonCell `json:"cells"`
}

type jsonTable struct {
	Reference string    `json:"reference"`
	Measures  []string  `json:"measures"`
	Queries   int       `json:"queries"`
	Missing   []string  `json:"missing"`
	Ignored   []string  `json:"ignored"`
	Rows      []jsonRow `json:"rows"`
}

// MarshalJSON encodes the table: the reference's name, the measures, the query sets, and per
// convention its package, sources and cells (value null when the tool has no such measure or
// stops). Lists are never null.
func (t Table) MarshalJSON() ([]byte, error) {
	out := jsonTable{Reference: Reference, Queries: len(t.Queries), Missing: nonNil(t.Missing), Ignored: nonNil(t.Ignored), Rows: []jsonRow{}}
	for _, m := range t.Measures {
		out.Measures = append(out.Measures, m.String())
	}
	for _, r := range t.Rows {
		jr := jsonRow{Convention: r.Convention.Name, Package: r.Convention.Package, Sources: r.Convention.Sources}
		for j, c := range r.Cells {
			jr.Cells = append(jr.Cells, jsonCell{Measure: t.Measures[j].String(), ToolMeasure: c.Name, Value: jsonFloat(c.Value),
				Queries: c.Queries, Agrees: c.Agrees, Error: c.Err, Reasons: nonNil(c.Reasons)})
		}
		out.Rows = append(out.Rows, jr)
	}
	return jsonx.Marshal(out) // invalid UTF-8 IDs escaped losslessly
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// HTML returns the table as a plain HTML fragment (no JavaScript): the conventions table with
// the tool's own measure name under each number, numbered marks on the numbers that differ,
// and the notes below. Every string from the data is escaped.
func (t Table) HTML() string {
	const (
		th  = `<th style="border-bottom:2px solid #444;padding:3px 8px;text-align:%s">`
		td  = `<td style="border-bottom:1px solid #ddd;padding:3px 8px;text-align:%s;vertical-align:top%s">`
		sub = `<div style="font-size:11px;color:#666">%s</div>`
	)
	e := html.EscapeString
	notes, index := t.notes()
	var b strings.Builder
	b.WriteString(`<div class="ranklab-conventions" style="font:13px/1.4 system-ui,'DejaVu Sans',sans-serif;max-width:1100px;overflow-x:auto">`)
	b.WriteString(`<p>` + e(t.summary()) + `</p>`)
	b.WriteString(`<table style="border-collapse:collapse;font-variant-numeric:tabular-nums"><thead><tr>` + fmt.Sprintf(th, "left") + `convention</th>`)
	for _, m := range t.Measures {
		b.WriteString(fmt.Sprintf(th, "right") + e(m.String()) + `</th>`)
	}
	b.WriteString(`</tr></thead><tbody>`)
	for i, r := range t.Rows {
		style := ""
		if i == 0 {
			style = ";font-weight:600;background:#f2f5fa"
		}
		b.WriteString(`<tr>` + fmt.Sprintf(td, "left", style) + e(r.Convention.Name) + `</td>`)
		for j, c := range r.Cells {
			cellStyle := style
			v := e(c.value())
			if n, ok := index[[2]int{i, j}]; ok {
				cellStyle += ";color:#b00020"
				v += fmt.Sprintf(`<sup>[%d]</sup>`, n)
			}
			b.WriteString(fmt.Sprintf(td, "right", cellStyle) + v)
			if c.available() {
				b.WriteString(fmt.Sprintf(sub, e(c.Name)))
			}
			b.WriteString(`</td>`)
		}
		b.WriteString(`</tr>`)
	}
	b.WriteString(`</tbody></table>`)
	if len(notes) > 0 {
		b.WriteString(`<p style="margin:8px 0 2px">Why the numbers differ from ` + e(Reference) + `:</p><ol style="margin:0;padding-left:22px">`)
	}
	for _, n := range notes {
		c := t.Rows[n.row].Cells[n.measure]
		fmt.Fprintf(&b, `<li><b>%s</b>, %s as %s: %s<ul style="margin:0">`, e(t.Rows[n.row].Convention.Name), e(t.Measures[n.measure].String()), e(c.Name), e(t.against(n)))
		for _, r := range c.Reasons {
			b.WriteString(`<li>` + e(r) + `</li>`)
		}
		b.WriteString(`</ul></li>`)
	}
	if len(notes) > 0 {
		b.WriteString(`</ol>`)
	}
	b.WriteString(`</div>`)
	return b.String()
}
