package corpus

import (
	"io"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// skipped are the elements whose content is not text a reader sees.
var skipped = map[atom.Atom]bool{atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Svg: true, atom.Iframe: true, atom.Object: true}

// blocks are the elements that end a line of text.
var blocks = map[atom.Atom]bool{atom.P: true, atom.Div: true, atom.Br: true, atom.Li: true, atom.Tr: true, atom.Table: true,
	atom.Pre: true, atom.Blockquote: true, atom.Section: true, atom.Article: true, atom.Ul: true, atom.Ol: true, atom.Dl: true,
	atom.Dt: true, atom.Dd: true, atom.Hr: true, atom.Header: true, atom.Footer: true, atom.Nav: true, atom.Main: true,
	atom.Aside: true, atom.Figure: true, atom.Figcaption: true, atom.Caption: true, atom.Td: true, atom.Th: true, atom.Form: true}

// headingLevel returns the level of h1–h6, else 0.
func headingLevel(a atom.Atom) int {
	switch a {
	case atom.H1:
		return 1
	case atom.H2:
		return 2
	case atom.H3:
		return 3
	case atom.H4:
		return 4
	case atom.H5:
		return 5
	case atom.H6:
		return 6
	}
	return 0
}

// htmlSections splits an HTML page's visible text at its headings (h1–h6) with the HTML5
// tokenizer of golang.org/x/net/html: the text of script, style, the head and the like is left
// out, block elements end a line, white space runs become one space outside <pre>. title is
// the page's <title>.
func htmlSections(src string) (secs []section, title string, err error) {
	z := html.NewTokenizer(strings.NewReader(src))
	cur := section{}
	var text, heading strings.Builder
	var pageTitle strings.Builder
	skip, pre, inTitle, inHeading := 0, 0, false, 0
	flush := func() {
		cur.text = tidy(text.String())
		secs = append(secs, cur)
		text.Reset()
	}
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if err := z.Err(); err != io.EOF {
				return nil, "", err
			}
			flush()
			return secs, tidy(pageTitle.String()), nil
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			switch {
			case a == atom.Title:
				inTitle = tt == html.StartTagToken
			case skipped[a]:
				if tt == html.StartTagToken {
					skip++
				}
			case a == atom.Pre:
				pre++
				text.WriteByte('\n')
			case headingLevel(a) > 0 && skip == 0:
				flush()
				cur = section{level: headingLevel(a)}
				inHeading = cur.level
				heading.Reset()
			case blocks[a]:
				w := &text
				if inHeading > 0 {
					w = &heading
				}
				w.WriteByte('\n')
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			switch {
			case a == atom.Title:
				inTitle = false
			case skipped[a]:
				skip = max(skip-1, 0)
			case a == atom.Pre:
				pre = max(pre-1, 0)
				text.WriteByte('\n')
			case headingLevel(a) > 0 && inHeading > 0:
				cur.title = tidy(heading.String())
				inHeading = 0
			case blocks[a]:
				text.WriteByte('\n')
			}
		case html.TextToken:
			t := string(z.Text())
			switch {
			case inTitle:
				pageTitle.WriteString(t)
			case skip > 0:
			case inHeading > 0:
				heading.WriteString(t)
			case pre > 0:
				text.WriteString(strings.ReplaceAll(t, "\n", "\u2028")) // kept through tidy
			default:
				text.WriteString(t)
			}
		}
	}
}

// tidy collapses each run of white space within a line to one space, trims the lines and drops
// blank lines; U+2028 (a line of <pre>) becomes a newline, its spaces kept.
func tidy(s string) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if strings.Contains(line, "\u2028") {
			for _, l := range strings.Split(line, "\u2028") {
				if strings.TrimSpace(l) != "" {
					out = append(out, strings.TrimRight(l, " \t"))
				}
			}
			continue
		}
		if line = strings.Join(strings.Fields(line), " "); line != "" {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}
