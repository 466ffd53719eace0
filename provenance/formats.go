package provenance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"strings"

	"github.com/ranklab/ranklab/internal/jsonx"
)

// Append returns out, an export in format, with the stamp added the way the format allows: a
// last member "provenance" of the JSON object ("json": the object's own members keep their
// order and bytes, the stamp indented like a member of an object indented by two spaces; an
// error when out is not one JSON object), leading "# " lines before a CSV header ("csv": pandas
// reads them past with comment="#"; R's read.csv with comment.char="#"), leading "% " comment
// lines ("latex": a "%" inside a value cannot end the comment, newlines become spaces), a footer
// ("md": a horizontal rule and the stamp as a bulleted list, every value escaped, hashes in code
// spans; "html": HTML), or trailing "# " lines ("text", "trec"). Another format is an error.
func (s Stamp) Append(format string, out []byte) ([]byte, error) {
	switch format {
	case "json":
		return appendJSON(out, s)
	case "csv":
		return append([]byte(s.Text()), out...), nil
	case "latex":
		return append([]byte(s.commentLines("% ")), out...), nil
	case "md":
		return append(out, s.markdown()...), nil
	case "html":
		return append(out, (s.HTML() + "\n")...), nil
	case "text", "trec":
		return append(out, ("\n" + s.Text())...), nil
	}
	return nil, fmt.Errorf("provenance: no stamp for format %q", format)
}

// appendJSON returns the JSON object js with a last member "provenance" holding s (Append).
func appendJSON(js []byte, s Stamp) ([]byte, error) {
	trimmed := bytes.Trim(js, " \t\r\n")
	if !json.Valid(trimmed) || len(trimmed) < 2 || trimmed[0] != '{' || trimmed[len(trimmed)-1] != '}' {
		return nil, errors.New("provenance: not a JSON object")
	}
	stamp, err := jsonx.MarshalIndent(s, "  ", "  ") // a file name or argument that is not UTF-8 kept losslessly
	if err != nil {
		return nil, err
	}
	body := bytes.TrimRight(trimmed[:len(trimmed)-1], " \t\r\n")
	var b bytes.Buffer
	b.Write(body)
	if len(bytes.TrimSpace(body)) > 1 { // not "{"
		b.WriteByte(',')
	}
	b.WriteString("\n  \"provenance\": ")
	b.Write(stamp)
	b.WriteString("\n}\n")
	return b.Bytes(), nil
}

// Text returns the stamp as "# key: value" comment lines: after a plain-text output (asked for
// with --stamp), or before a CSV header (pandas reads them past with comment="#"; R's read.csv
// with comment.char="#").
func (s Stamp) Text() string { return s.commentLines("# ") }

// markdown is the stamp's Markdown footer (Append).
func (s Stamp) markdown() string {
	var b strings.Builder
	b.WriteString("\n---\n\n*Provenance*\n\n")
	for _, l := range s.lines() {
		b.WriteString("- " + markdownEscape(l) + "\n")
	}
	return b.String()
}

func markdownEscape(s string) string {
	var b strings.Builder
	for _, r := range strings.NewReplacer("\n", " ", "\r", " ").Replace(s) {
		if strings.ContainsRune("\\`*_{}[]()#+-.!|<>~", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// HTML returns a footer element for a page or a notebook output: the stamp as a small list,
// and its JSON in a data-provenance attribute for programs. Every value is escaped.
func (s Stamp) HTML() string {
	js, _ := jsonx.Marshal(s)
	var b strings.Builder
	b.WriteString(`<footer class="ranklab-provenance" data-provenance="` + html.EscapeString(string(js)) + `" style="font:11px/1.4 system-ui,'DejaVu Sans',sans-serif;color:#555;margin-top:12px;border-top:1px solid #ddd;padding-top:4px"><ul style="margin:0;padding-left:16px">`)
	for _, l := range s.lines() {
		b.WriteString("<li>" + html.EscapeString(l) + "</li>")
	}
	b.WriteString("</ul></footer>")
	return b.String()
}
