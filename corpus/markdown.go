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
// trimmed; the heading's title is its inline text. YAML front matter at the top (Hugo, Jekyll,
// MkDocs: frontMatter) is no text, and its title: is the page's title; an HTML comment standing
// as a block of its own is left out of the text, as the HTML reader leaves comments out.
func markdownSections(src string) (secs []section, title string) {
	src, title = frontMatter(src)
	source := []byte(src)
	// WithAttribute reads "## Title {#id}" as the heading "Title" (Go's own docs write them).
	doc := goldmark.New(goldmark.WithParserOptions(parser.WithAttribute())).Parser().Parse(text.NewReader(source))
	type mark struct {
		start, end, level int
		title             string
	}
	var marks []mark
	var comments [][2]int // the source ranges of HTML comment blocks, whole lines
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if hb, ok := n.(*ast.HTMLBlock); ok && hb.HTMLBlockType == ast.HTMLBlockType2 && hb.Lines().Len() > 0 {
			end := hb.Lines().At(hb.Lines().Len() - 1).Stop
			if hb.HasClosure() {
				end = max(end, hb.ClosureLine.Stop)
			}
			comments = append(comments, [2]int{lineStart(source, hb.Lines().At(0).Start), min(end, len(src))})
			continue
		}
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
	// between is the source from..to without the comment blocks, trimmed.
	between := func(from, to int) string {
		var b strings.Builder
		for _, c := range comments {
			if c[1] <= from || c[0] >= to {
				continue
			}
			b.WriteString(src[from:max(from, c[0])])
			from = min(max(from, c[1]), to)
		}
		b.WriteString(src[from:to])
		return strings.TrimSpace(b.String())
	}
	prev := section{}
	from := 0
	for _, m := range marks {
		prev.text = between(from, m.start)
		secs = append(secs, prev)
		prev = section{level: m.level, title: m.title}
		from = min(m.end+1, len(src))
	}
	prev.text = between(from, len(src))
	return append(secs, prev), title
}

// frontMatter splits YAML front matter off the top of Markdown source: a first line "---", then
// lines of YAML (key: value, indented or list lines, comments, blank lines), then a line "---" or
// "...". It returns the rest of the source and the value of a top-level title: key, unquoted ("" if
// none). Source without such a block is returned whole.
func frontMatter(src string) (rest, title string) {
	if !strings.HasPrefix(src, "---\n") {
		return src, ""
	}
	at := len("---\n")
	for at <= len(src) {
		end := strings.IndexByte(src[at:], '\n')
		line := src[at:]
		if end >= 0 {
			line = src[at : at+end]
		}
		switch {
		case line == "---" || line == "...":
			if end < 0 {
				return "", title
			}
			return src[at+end+1:], title
		case strings.HasPrefix(line, "title:"):
			title = strings.TrimSpace(strings.TrimPrefix(line, "title:"))
			if len(title) >= 2 && (title[0] == '"' || title[0] == '\'') && title[len(title)-1] == title[0] {
				title = title[1 : len(title)-1]
			}
		case line == "" || line[0] == ' ' || line[0] == '-' || line[0] == '#' || yamlKey(line):
		default:
			return src, "" // not YAML: a thematic break or a setext heading's underline, not front matter
		}
		if end < 0 {
			break
		}
		at += end + 1
	}
	return src, "" // never closed
}

// yamlKey reports whether line starts a top-level YAML mapping entry ("key:" of letters, digits,
// '_' and '-').
func yamlKey(line string) bool {
	k, _, ok := strings.Cut(line, ":")
	return ok && k != "" && strings.Trim(k, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == ""
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
