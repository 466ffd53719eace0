package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/ranklab/ranklab/eval"
)

// openSearch speaks OpenSearch's REST API: PUT /index to make an index, _bulk to add documents,
// _search to search. Distributed statistics are a property of the search, not of the index:
// search_type=dfs_query_then_fetch gathers every shard's term statistics first.
type openSearch struct{ t *transport }

func (o *openSearch) create(ctx context.Context, name string, spec indexSpec) error {
	props := map[string]any{
		"doc_id":   map[string]any{"type": "keyword"},
		"chunk_no": map[string]any{"type": "integer"},
		"text":     map[string]any{"type": "text", "analyzer": "english"},
	}
	settings := map[string]any{
		"number_of_shards":   spec.Shards,
		"number_of_replicas": 0,
		// Lucene's BM25 with Anserini's parameters; the built-in "english" analyzer is Lucene's
		// EnglishAnalyzer (standard tokenizer, possessives, lower case, stop words, Porter).
		"similarity": map[string]any{"default": map[string]any{"type": "BM25", "k1": 0.9, "b": 0.4}},
	}
	if spec.Dim > 0 {
		settings["knn"] = true
		props["vector"] = map[string]any{"type": "knn_vector", "dimension": spec.Dim,
			"method": map[string]any{"name": "hnsw", "engine": "lucene", "space_type": "cosinesimil",
				"parameters": map[string]any{"m": spec.M, "ef_construction": spec.EfC}}}
	}
	body := map[string]any{"settings": map[string]any{"index": settings}, "mappings": map[string]any{"properties": props}}
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	if err := o.t.do(ctx, http.MethodPut, "/"+url.PathEscape(name), data, "application/json", nil); err != nil {
		return err
	}
	return o.t.getJSON(ctx, "/_cluster/health/"+url.PathEscape(name)+"?wait_for_status=green&timeout=60s", nil)
}

func (o *openSearch) exists(ctx context.Context, name string) (bool, error) {
	err := o.t.do(ctx, http.MethodHead, "/"+url.PathEscape(name), nil, "", nil)
	var se *statusError
	if errors.As(err, &se) && se.Status == http.StatusNotFound {
		return false, nil
	}
	return err == nil, err
}

func (o *openSearch) drop(ctx context.Context, name string) error {
	return o.t.do(ctx, http.MethodDelete, "/"+url.PathEscape(name), nil, "", nil)
}

func (o *openSearch) add(ctx context.Context, name string, units []unit) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, u := range units {
		meta := map[string]any{"index": map[string]any{"_index": name, "_id": u.ID, "routing": u.Doc}}
		doc := map[string]any{"doc_id": u.Doc, "chunk_no": u.No}
		if u.Text != "" {
			doc["text"] = u.Text
		}
		if u.Vector != nil {
			doc["vector"] = u.Vector
		}
		if err := enc.Encode(meta); err != nil {
			return err
		}
		if err := enc.Encode(doc); err != nil {
			return err
		}
	}
	var r struct {
		Errors bool `json:"errors"`
		Items  []map[string]struct {
			ID     string          `json:"_id"`
			Status int             `json:"status"`
			Error  json.RawMessage `json:"error"`
		} `json:"items"`
	}
	if err := o.t.do(ctx, http.MethodPost, "/_bulk", b.Bytes(), "application/x-ndjson", &r); err != nil {
		return err
	}
	if r.Errors {
		for _, it := range r.Items {
			for _, res := range it {
				if len(res.Error) > 0 {
					return fmt.Errorf("engine %s/_bulk: unit %q: HTTP %d: %s", o.t.base, res.ID, res.Status, oneLine(string(res.Error)))
				}
			}
		}
		return fmt.Errorf("engine %s/_bulk: some units were refused", o.t.base)
	}
	return nil
}

func (o *openSearch) commit(ctx context.Context, name string) error {
	return o.t.do(ctx, http.MethodPost, "/"+url.PathEscape(name)+"/_refresh", nil, "", nil)
}

func (o *openSearch) count(ctx context.Context, name string) (int, error) {
	var r struct {
		Count int `json:"count"`
	}
	err := o.t.getJSON(ctx, "/"+url.PathEscape(name)+"/_count", &r)
	return r.Count, err
}

func (o *openSearch) shards(ctx context.Context, name string) (int, error) {
	var r map[string]struct {
		Settings struct {
			Index struct {
				Shards string `json:"number_of_shards"`
			} `json:"index"`
		} `json:"settings"`
	}
	if err := o.t.getJSON(ctx, "/"+url.PathEscape(name)+"/_settings", &r); err != nil {
		return 0, err
	}
	for _, v := range r {
		return strconv.Atoi(v.Settings.Index.Shards)
	}
	return 0, fmt.Errorf("engine %s: index %q has no settings", o.t.base, name)
}

// osResponse is the part of a _search answer ranklab reads.
type osResponse struct {
	Hits struct {
		Hits []struct {
			ID     string         `json:"_id"`
			Score  *float64       `json:"_score"`
			Source map[string]any `json:"_source"`
		} `json:"hits"`
	} `json:"hits"`
}

// searchBody posts body to name's _search (dfs: distributed statistics) and returns the hits'
// IDs (_id, or the source field idField) and scores.
func (o *openSearch) searchBody(ctx context.Context, name string, body any, dfs bool, idField string) ([]eval.ScoredDoc, error) {
	path := "/" + url.PathEscape(name) + "/_search"
	if dfs {
		path += "?search_type=dfs_query_then_fetch"
	}
	var r osResponse
	if err := o.t.postJSON(ctx, path, body, &r); err != nil {
		return nil, err
	}
	out := make([]eval.ScoredDoc, 0, len(r.Hits.Hits))
	for i, h := range r.Hits.Hits {
		if h.Score == nil {
			return nil, fmt.Errorf("engine %s/%s/_search: hit %d has no score (a sort in the request?)", o.t.base, name, i+1)
		}
		id := h.ID
		if idField != "_id" {
			var err error
			if id, err = idString(h.Source[idField]); err != nil {
				return nil, fmt.Errorf("engine %s/%s/_search: hit %d: field %q: %v", o.t.base, name, i+1, idField, err)
			}
		}
		out = append(out, eval.ScoredDoc{Doc: id, Score: *h.Score})
	}
	return out, nil
}

func (o *openSearch) search(ctx context.Context, name string, spec indexSpec, req searchRequest) ([]eval.ScoredDoc, error) {
	match := func(boost float64) map[string]any {
		return map[string]any{"match": map[string]any{"text": map[string]any{"query": req.Text, "operator": "or", "boost": boost}}}
	}
	knn := func(boost float64) map[string]any {
		return map[string]any{"knn": map[string]any{"vector": map[string]any{"vector": req.Vector, "k": req.Width, "boost": boost}}}
	}
	var q map[string]any
	switch req.Mode {
	case "bm25":
		q = match(1)
	case "knn":
		q = knn(1)
	case "hybrid":
		q = map[string]any{"bool": map[string]any{"should": []any{match(1 - req.Weight), knn(req.Weight)}}}
	default:
		return nil, fmt.Errorf("engine: unknown mode %q", req.Mode)
	}
	if req.FirstP {
		q = map[string]any{"bool": map[string]any{"must": q, "filter": map[string]any{"term": map[string]any{"chunk_no": 0}}}}
	}
	body := map[string]any{"size": req.K, "_source": false, "query": q, "track_total_hits": false}
	if req.Collapse {
		body["collapse"] = map[string]any{"field": "doc_id"}
	}
	return o.searchBody(ctx, name, body, spec.ExactStats, "_id")
}
