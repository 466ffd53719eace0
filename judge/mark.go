package judge

import (
	"html"
	"strings"
	"unicode"

	"github.com/ranklab/ranklab/retrieval"
)

// marker marks a query's terms in a document's text. A word is marked when one of its index
// terms (retrieval's English analyzer: lower case, stop words dropped, Porter stem) is one of
// the query's, so "wings" in the text is marked for "wing" in the query, and "the" never is.
type marker struct {
	a     retrieval.Analyzer
	terms map[string]bool
}

// newMarker returns a Marker for query (the English analyzer's terms of it).
func newMarker(query string) (marker, error) {
	a, err := retrieval.English()
	if err != nil {
		return marker{}, err
	}
	m := marker{a: a, terms: map[string]bool{}}
	for _, t := range a.Terms(query) {
		m.terms[t] = true
	}
	return m, nil
}

// HTML returns text as escaped HTML with each word that matches a query term wrapped in
// <mark>. Every byte of text goes through html.EscapeString: markup, quotes and & in a
// document show as text and never become elements or attributes.
func (m marker) HTML(text string) string {
	var b strings.Builder
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	for len(text) > 0 {
		i := strings.IndexFunc(text, isWord)
		if i < 0 {
			b.WriteString(html.EscapeString(text))
			break
		}
		b.WriteString(html.EscapeString(text[:i]))
		text = text[i:]
		j := strings.IndexFunc(text, func(r rune) bool { return !isWord(r) })
		if j < 0 {
			j = len(text)
		}
		w := html.EscapeString(text[:j])
		if m.match(text[:j]) {
			w = "<mark>" + w + "</mark>"
		}
		b.WriteString(w)
		text = text[j:]
	}
	return b.String()
}

func (m marker) match(word string) bool {
	if len(m.terms) == 0 {
		return false
	}
	for _, t := range m.a.Terms(word) {
		if m.terms[t] {
			return true
		}
	}
	return false
}
