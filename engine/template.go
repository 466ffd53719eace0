package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/retrieval"
)

// Template is a team's own search request, run by Client.Query once per query against an index
// ranklab did not make:
//
//   - Solr: a body of Solr's JSON Request API, posted to /INDEX/select, e.g.
//     {"query": "{{query}}", "params": {"defType": "edismax", "qf": "title^2 body"}};
//   - OpenSearch: a _search body, e.g. {"query": {"multi_match": {"query": "{{query}}",
//     "fields": ["title^2", "body"]}}}.
//
// Every JSON string holding {{query}} gets the query's text there, as text, never as syntax: in
// Solr the characters of the standard and edismax syntax are escaped (+ - && || ! ( ) { } [ ] ^
// " ~ * ? : \ / and the words AND, OR, NOT); in OpenSearch the text is a JSON string, escaped for
// the syntax only where it is the "query" of a query_string or simple_query_string. {{query:raw}}
// inserts the text unescaped, for parsers that take literal text (Solr's {!field}, {!term}).
// The number of hits (Solr's limit and fields, OpenSearch's size and _source) is ranklab's.
type Template struct {
	Index   string // the Solr collection or core, or the OpenSearch index, alias or pattern
	Body    string // the request, JSON, with {{query}} where the text goes
	IDField string // the field holding the document ID; "" means Solr's id, OpenSearch's _id
	K       int    // documents per query; 0 means 1000
	Tag     string // the run's tag; "" means the index's name
	// DFS asks OpenSearch for dfs_query_then_fetch (statistics from every shard); Solr takes
	// its statistics mode from the collection's configuration.
	DFS     bool
	Workers int // queries in flight at once; 0 means 4
}

// The placeholders of a Template.
const (
	placeholder    = "{{query}}"
	placeholderRaw = "{{query:raw}}"
)

// Query runs every query through tpl and returns the run: each query's hits with the engine's
// scores, in trec_eval's order. The run is returned only when every query has been answered;
// a document hit twice for one query (an ID field that repeats, e.g. on chunks) is an error
// saying to collapse in the template, since a run lists a document once.
func (c *Client) Query(ctx context.Context, queries []retrieval.Query, tpl Template) (eval.Run, error) {
	if tpl.Index == "" {
		return eval.Run{}, errors.New("engine: the template names no index")
	}
	if tpl.K == 0 {
		tpl.K = 1000
	}
	if tpl.K < 1 {
		return eval.Run{}, fmt.Errorf("engine: k %d: want at least 1", tpl.K)
	}
	if tpl.IDField == "" {
		tpl.IDField = map[string]string{"solr": "id", "opensearch": "_id"}[c.Kind]
	}
	if tpl.Tag == "" {
		tpl.Tag = tpl.Index
	}
	if tpl.Workers <= 0 {
		tpl.Workers = 4
	}
	if _, err := parseTemplate(tpl.Body); err != nil {
		return eval.Run{}, err
	}
	if !strings.Contains(tpl.Body, placeholder) && !strings.Contains(tpl.Body, placeholderRaw) {
		return eval.Run{}, fmt.Errorf("engine: the template holds no %s: every query would get the same ranking", placeholder)
	}
	c.sync()
	res := make([][]eval.ScoredDoc, len(queries))
	err := forEach(ctx, len(queries), tpl.Workers, func(ctx context.Context, i int) error {
		hits, err := c.b.template(ctx, tpl, queries[i].Text, tpl.K)
		if err != nil {
			return fmt.Errorf("query %s: %w", queries[i].ID, err)
		}
		seen := make(map[string]bool, len(hits))
		for _, h := range hits {
			if seen[h.Doc] {
				return fmt.Errorf("query %s: document %q is hit twice: the ID field %q repeats (chunks of one document?); collapse them in the template (Solr: \"filter\": \"{!collapse field=%s}\"; OpenSearch: \"collapse\": {\"field\": \"%s\"}), since a run lists a document once", queries[i].ID, h.Doc, tpl.IDField, tpl.IDField, tpl.IDField)
			}
			seen[h.Doc] = true
		}
		res[i] = eval.Rank(hits)
		return nil
	})
	if err != nil {
		return eval.Run{}, err
	}
	run := eval.Run{Tag: tpl.Tag, Queries: make(map[string][]eval.ScoredDoc, len(queries))}
	for i, q := range queries {
		run.Queries[q.ID] = res[i]
	}
	return run, nil
}

// parseTemplate decodes a template body: one JSON object, numbers kept as written.
func parseTemplate(body string) (map[string]any, error) {
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("engine: the template is not JSON: %v", err)
	}
	if dec.More() {
		return nil, errors.New("engine: the template holds more than one JSON value")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("engine: the template is not a JSON object")
	}
	return m, nil
}

// fill returns a copy of v with every placeholder replaced: escape(text) for {{query}} where
// esc says how the string at that place is read (parent: the key of the enclosing object's
// enclosing member, key: this member's key), text for {{query:raw}}.
func fill(v any, text string, esc func(parent, key string) func(string) string, parent, key string) any {
	switch x := v.(type) {
	case string:
		if !strings.Contains(x, "{{query") {
			return x
		}
		x = strings.ReplaceAll(x, placeholderRaw, "\x00raw\x00")
		x = strings.ReplaceAll(x, placeholder, esc(parent, key)(text))
		return strings.ReplaceAll(x, "\x00raw\x00", text)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = fill(e, text, esc, key, k)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = fill(e, text, esc, parent, key)
		}
		return out
	}
	return v
}

func identity(s string) string { return s }

func (s *solr) template(ctx context.Context, tpl Template, text string, k int) ([]eval.ScoredDoc, error) {
	body, err := parseTemplate(tpl.Body)
	if err != nil {
		return nil, err
	}
	filled := fill(body, text, func(string, string) func(string) string { return escapeLucene }, "", "").(map[string]any)
	filled["limit"] = k
	filled["fields"] = tpl.IDField + ",score"
	data, err := json.Marshal(filled)
	if err != nil {
		return nil, err
	}
	var r solrResponse
	path := "/" + url.PathEscape(tpl.Index) + "/select"
	if err := s.t.do(ctx, http.MethodPost, path, data, "application/json", &r); err != nil {
		return nil, err
	}
	return hitsOf(r.Response.Docs, tpl.IDField, s.t.base+path)
}

func (o *openSearch) template(ctx context.Context, tpl Template, text string, k int) ([]eval.ScoredDoc, error) {
	body, err := parseTemplate(tpl.Body)
	if err != nil {
		return nil, err
	}
	filled := fill(body, text, func(parent, key string) func(string) string {
		if key == "query" && parent == "query_string" {
			return escapeLucene
		}
		if key == "query" && parent == "simple_query_string" {
			return escapeSimple
		}
		return identity
	}, "", "").(map[string]any)
	filled["size"] = k
	if tpl.IDField == "_id" {
		filled["_source"] = false
	} else {
		filled["_source"] = []string{tpl.IDField}
	}
	return o.searchBody(ctx, tpl.Index, filled, tpl.DFS, tpl.IDField)
}

// escapeSimple escapes the operators of OpenSearch's simple_query_string (+ | - " * ( ) ~ and
// the backslash) with a backslash.
func escapeSimple(text string) string {
	var b bytes.Buffer
	for _, r := range text {
		if strings.ContainsRune(`\+|-"*()~`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
