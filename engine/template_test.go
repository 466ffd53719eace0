package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/retrieval"
)

// templates are requests a team might serve, over the text field of the SciFact index: each
// must rank as ranklab's own BM25 request does.
var templates = map[string][]struct{ name, body string }{
	"solr": {
		{"lucene", `{"query": "{!lucene q.op=OR df=text sow=false}{{query}}"}`},
		{"edismax", `{"query": "{{query}}", "params": {"defType": "edismax", "qf": "text", "q.op": "OR", "sow": "false"}}`},
	},
	"opensearch": {
		{"match", `{"query": {"match": {"text": {"query": "{{query}}"}}}}`},
		{"query_string", `{"query": {"query_string": {"query": "{{query}}", "default_field": "text", "default_operator": "OR"}}}`},
		{"simple_query_string", `{"query": {"simple_query_string": {"query": "{{query}}", "fields": ["text"], "default_operator": "OR"}}}`},
	},
}

// specials are the pieces of query syntax a question may hold; none may change the search.
var specials = []string{`+`, `-`, `&&`, `||`, `!`, `(`, `)`, `{`, `}`, `[`, `]`, `^`, `"`, `~`, `*`, `?`, `:`, `\`, `/`,
	`AND`, `OR`, `NOT`, `-cell`, `+cell^10`, `"gene expression"~2`, `text: cancer`, `{!knn f=vector}`, `$qq`, `((`, `\"`, `*:*`}

// syntaxChars are the characters of the specials that the analyzer drops as it drops a space;
// plain replaces them by spaces, giving the text as an analyzer reads it.
const syntaxChars = `+-&|!(){}[]^"~*?:\/$=`

func plain(text string) string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune(syntaxChars, r) {
			return ' '
		}
		return r
	}, text)
}

// withSpecials puts the specials between the words of text, a different one after each word.
func withSpecials(text string, seed int) string {
	words := strings.Fields(text)
	var b strings.Builder
	for i, w := range words {
		b.WriteString(w + " " + specials[(seed+i)%len(specials)] + " ")
	}
	return b.String()
}

// TestTemplateTextIsNotSyntax runs a team's own requests against the real engines: each equals
// ranklab's BM25 run score for score, and with query syntax put between the words of every query
// each searches exactly the words (the syntax read as the spaces the analyzer makes of it), while
// the same text inserted raw does not (so the check can fail).
func TestTemplateTextIsNotSyntax(t *testing.T) {
	for _, kind := range []string{"solr", "opensearch"} {
		t.Run(kind, func(t *testing.T) {
			f := scifact(t, kind)
			ctx := context.Background()
			queries := f.coll.Queries[:40]
			ref, err := f.one.Run(ctx, queries, RunOptions{Depth: 100, ChunkDepth: -1})
			if err != nil {
				t.Fatal(err)
			}
			noisy := make([]retrieval.Query, len(queries))
			cleaned := make([]retrieval.Query, len(queries))
			for i, q := range queries {
				noisy[i] = retrieval.Query{ID: q.ID, Text: withSpecials(q.Text, i)}
				cleaned[i] = retrieval.Query{ID: q.ID, Text: plain(noisy[i].Text)}
			}
			// What the noisy texts must search for: their words, the syntax read as spaces.
			want, err := f.one.Run(ctx, cleaned, RunOptions{Depth: 100, ChunkDepth: -1})
			if err != nil {
				t.Fatal(err)
			}
			for _, tpl := range templates[kind] {
				t.Run(tpl.name, func(t *testing.T) {
					run, err := f.client.Query(ctx, queries, Template{Index: f.one.Name, Body: tpl.body, K: 100})
					if err != nil {
						t.Fatal(err)
					}
					if d := diffScores(ref.Docs, run); d != "" {
						t.Errorf("the %s template differs from ranklab's BM25 request: %s", tpl.name, d)
					}
					run2, err := f.client.Query(ctx, noisy, Template{Index: f.one.Name, Body: tpl.body, K: 100})
					if err != nil {
						t.Fatal(err)
					}
					if d := diffScores(want.Docs, run2); d != "" {
						t.Errorf("query syntax in the text changed the %s search: %s (e.g. %q)", tpl.name, d, noisy[0].Text)
					}
					if tpl.name == "match" {
						return // a match query has no syntax: raw and escaped are the same
					}
					raw := Template{Index: f.one.Name, Body: strings.ReplaceAll(tpl.body, "{{query}}", "{{query:raw}}"), K: 100}
					run3, err := f.client.Query(ctx, noisy, raw)
					if err == nil && diffScores(want.Docs, run3) == "" {
						t.Errorf("the same text inserted raw searched as the plain text: the check cannot tell")
					} else if err != nil {
						t.Logf("raw insertion (for contrast) fails outright: %v", err)
					}
				})
			}
		})
	}
}

// TestTemplateRefusals: a template that is not a JSON object or holds no placeholder, and an ID
// field that repeats within one query's hits, are errors before any run is made.
func TestTemplateRefusals(t *testing.T) {
	f := scifact(t, "solr")
	ctx := context.Background()
	q := f.coll.Queries[:3]
	for _, tc := range []struct{ name, body, idField, want string }{
		{"not json", `{"query": `, "", "not JSON"},
		{"not an object", `["{{query}}"]`, "", "not a JSON object"},
		{"no placeholder", `{"query": "cancer"}`, "", "holds no {{query}}"},
		{"repeating id", `{"query": "{{query}}", "params": {"defType": "edismax", "qf": "text"}}`, "chunk_no", "is hit twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.client.Query(ctx, q, Template{Index: f.one.Name, Body: tc.body, IDField: tc.idField, K: 10})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
}

// TestEscapeLucene pins the escaping itself (the engine tests above show its effect).
func TestEscapeLucene(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"gene expression", "gene expression"},
		{`a+b -c && d || e!`, `a\+b \-c \&\& d \|\| e\!`},
		{`(x) {y} [z] ^2 "q" ~3 * ? : \ /`, `\(x\) \{y\} \[z\] \^2 \"q\" \~3 \* \? \: \\ \/`},
		{"AND OR NOT and or not", `\AND \OR \NOT \and \or \not`},
		{"ANDROID ORAL NOTCH band", "ANDROID ORAL NOTCH band"},
		{"x\tAND\nOR", "x\t\\AND\n\\OR"},
		{"x\u3000NOT y", "x\u3000\\NOT y"},
	} {
		if got := escapeLucene(tc.in); got != tc.want {
			t.Errorf("escapeLucene(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestFill checks where the placeholder is escaped and where it is not (OpenSearch).
func TestFill(t *testing.T) {
	body, err := parseTemplate(`{"query": {"bool": {"should": [{"match": {"title": "{{query}}"}}, {"query_string": {"query": "t:({{query}})"}}, {"simple_query_string": {"query": "{{query}}"}}, {"term": {"raw": "{{query:raw}}"}}]}}}`)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(fill(body, `a -b`, func(parent, key string) func(string) string {
		if key == "query" && parent == "query_string" {
			return escapeLucene
		}
		if key == "query" && parent == "simple_query_string" {
			return escapeSimple
		}
		return identity
	}, "", ""))
	for _, want := range []string{`title:a -b`, `query:t:(a \-b)`, `query:a \-b]`, `raw:a -b`} {
		if !strings.Contains(got, want) {
			t.Errorf("filled template %s lacks %q", got, want)
		}
	}
}
