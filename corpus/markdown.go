package corpus

import (
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// markdownSections splits Markdown source at its headings, ATX ("## Title") and setext (a line
// underlined with = or -), as goldmark's CommonMark parser finds them: a "#" line inside a code
// block is no heading. A section's text is the source between its heading and the next,
// trimmed; the heading's title is its inline text.
func markdownSections(src string) []section {
	source := []byte(src)
	// WithAttribute reads "## Title {#id}" as the heading "Title" (Go's own docs write them).
	doc := goldmark.New(goldmark.WithParserOptions(parser.WithAttribute())).Parser().Parse(text.NewReader(source))
	type mark struct {
		start, end, level int
		title             string
	}
	var marks []mark
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.Heading)
		if !ok {
			continue
		}
		lines := h.Lines()
		if lines.Len() == 0 { // an empty ATX heading "##" stays in the text
			continue
		}
		start := lineStart(source, lines.At(0).Start)
		end := lineEnd(source, lines.At(lines.Len()-1).Stop)
		if atx := strings.TrimLeft(string(source[start:min(start+4, len(source))]), " "); !strings.HasPrefix(atx, "#") && setext(source, end) {
			end = lineEnd(source, end+1)
		}
		marks = append(marks, mark{start, end, h.Level, strings.TrimSpace(inlineText(h, source))})
	}
	var secs []section
	prev := section{}
	from := 0
	for _, m := range marks {
		prev.text = strings.TrimSpace(src[from:m.start])
		secs = append(secs, prev)
		prev = section{level: m.level, title: m.title}
		from = min(m.end+1, len(src))
	}
	prev.text = strings.TrimSpace(src[from:])
	return append(secs, prev)
}

// inlineText returns the text of n's inline children (code spans and emphasis included,
// their markers left out).
func inlineText(n ast.Node, source []byte) string {
	var b strings.Builder
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(source))
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// lineStart returns the offset where the line holding offset i starts.
func lineStart(src []byte, i int) int {
	for i > 0 && src[i-1] != '\n' {
		i--
	}
	return i
}

// lineEnd returns the offset of the newline ending the line holding offset i (len(src) for
// the last line).
func lineEnd(src []byte, i int) int {
	for i < len(src) && src[i] != '\n' {
		i++
	}
	return i
}

// setext reports whether the line after the newline at nl is a setext underline (= or -).
func setext(src []byte, nl int) bool {
	if nl >= len(src) {
		return false
	}
	line := strings.TrimSpace(string(src[nl+1 : lineEnd(src, nl+1)]))
	return line != "" && (strings.Trim(line, "=") == "" || strings.Trim(line, "-") == "")
}
