package engine

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/ranklab/ranklab/eval"
)

// Client is a connection to a search engine: a SolrCloud cluster or an OpenSearch cluster,
// the kind found from the server's own answer by Connect.
type Client struct {
	URL     string // the base URL, as Connect was given it (for Solr: ending in /solr)
	Kind    string // "solr" or "opensearch"
	Version string // the engine's version, as it reports it ("9.10.1", "3.5.0")
	Cloud   bool   // Solr in SolrCloud mode (collections can be created); true for OpenSearch

	// Timeout bounds each request (default 60 s); Retries is how often a 429, 502, 503 or 504 is
	// asked again, after 0.25 s, 0.5 s, 1 s, … (at most 8 s; default 4).
	Timeout time.Duration
	Retries int

	t *transport
	b backend
}

// Connect asks the server at url what it is and returns a Client for it. Credentials are read
// from the environment, never from the URL: RANKLAB_ENGINE_USER and RANKLAB_ENGINE_PASSWORD
// (HTTP basic authentication, as Solr's BasicAuthPlugin and OpenSearch's security plugin take)
// or RANKLAB_ENGINE_API_KEY ("Authorization: ApiKey KEY"); RANKLAB_ENGINE_CA names a PEM file of
// CA certificates to trust for https. The kind is found by asking GET url/ (OpenSearch answers
// with its version and distribution "opensearch") and GET url/admin/info/system (Solr; url/solr
// is tried when url has no path). Elasticsearch is refused (not tested).
func Connect(ctx context.Context, url string) (*Client, error) {
	t, err := newTransport(url)
	if err != nil {
		return nil, err
	}
	c := &Client{t: t, Timeout: defaultTimeout, Retries: defaultRetries}
	if err := c.detect(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// sync copies the exported settings into the transport before a request.
func (c *Client) sync() *transport {
	if c.Timeout > 0 {
		c.t.timeout = c.Timeout
	}
	if c.Retries >= 0 {
		c.t.retries = c.Retries
	}
	return c.t
}

func (c *Client) detect(ctx context.Context) error {
	t := c.sync()
	var root struct {
		Version struct {
			Number       string `json:"number"`
			Distribution string `json:"distribution"`
		} `json:"version"`
	}
	errRoot := t.getJSON(ctx, "/", &root)
	if errRoot == nil && root.Version.Number != "" {
		if root.Version.Distribution != "opensearch" {
			return fmt.Errorf("engine %s answers as Elasticsearch %s: ranklab speaks Solr and OpenSearch (Elasticsearch is not tested)", t.base, root.Version.Number)
		}
		c.URL, c.Kind, c.Version, c.Cloud = t.base, "opensearch", root.Version.Number, true
		c.b = &openSearch{t: t}
		return nil
	}
	if isNetError(errRoot) || isAuth(errRoot) {
		return errRoot
	}
	bases := []string{t.base}
	if !strings.Contains(strings.SplitN(t.base, "://", 2)[1], "/") {
		bases = append(bases, t.base+"/solr")
	}
	var errSolr error
	for _, base := range bases {
		t.base = base
		var info struct {
			Mode   string `json:"mode"`
			Lucene struct {
				Spec string `json:"solr-spec-version"`
			} `json:"lucene"`
		}
		errSolr = t.getJSON(ctx, "/admin/info/system?wt=json", &info)
		if errSolr == nil && info.Lucene.Spec != "" {
			c.URL, c.Kind, c.Version, c.Cloud = base, "solr", info.Lucene.Spec, info.Mode == "solrcloud"
			c.b = &solr{t: t}
			return nil
		}
		if isAuth(errSolr) {
			return errSolr
		}
	}
	t.base = bases[0]
	msg := "no answer"
	if errSolr != nil {
		msg = errSolr.Error()
		if isNetError(errSolr) {
			return errSolr
		}
	} else if errRoot != nil {
		msg = errRoot.Error()
	}
	return fmt.Errorf("engine %s answers neither as OpenSearch (GET /) nor as Solr (GET /admin/info/system): %s", t.base, msg)
}

// isNetError reports whether err is a failure to get any answer (not an answer ranklab did not
// expect).
func isNetError(err error) bool {
	var ne *netErr
	return errors.As(err, &ne)
}

func isAuth(err error) bool {
	var se *statusError
	return errors.As(err, &se) && (se.Status == http.StatusUnauthorized || se.Status == http.StatusForbidden)
}

// backend is what each engine kind does in its own protocol.
type backend interface {
	// create makes index name for spec; exists and drop look it up and delete it.
	create(ctx context.Context, name string, spec indexSpec) error
	exists(ctx context.Context, name string) (bool, error)
	drop(ctx context.Context, name string) error
	// add indexes units (routed by their document, so a document's chunks share a shard);
	// commit makes them searchable; count returns how many units are searchable.
	add(ctx context.Context, name string, units []unit) error
	commit(ctx context.Context, name string) error
	count(ctx context.Context, name string) (int, error)
	// shards returns the index's shard count.
	shards(ctx context.Context, name string) (int, error)
	// search runs one query built from req and returns the hits in the engine's order.
	search(ctx context.Context, name string, spec indexSpec, req searchRequest) ([]eval.ScoredDoc, error)
	// template runs the team's own request tpl with text inserted safely.
	template(ctx context.Context, tpl Template, text string, k int) ([]eval.ScoredDoc, error)
}

// indexSpec is what an index is made with.
type indexSpec struct {
	Shards     int
	ExactStats bool // distributed term statistics: Solr's ExactStatsCache, OpenSearch's dfs_query_then_fetch
	Dim        int  // vector dimension; 0: no vector field
	M, EfC     int  // HNSW: neighbours per node and the construction beam
}

// unit is one indexed unit: a whole document or a chunk.
type unit struct {
	ID     string    // ChunkID for chunks; the document ID for whole documents
	Doc    string    // the document
	No     int       // the chunk's number in its document (0 for whole documents)
	Text   string    // "" for a vector-only unit
	Vector []float32 // nil for a text-only unit
}

// searchRequest is one query in ranklab's own modes.
type searchRequest struct {
	Mode     string    // "bm25", "knn" or "hybrid"
	Text     string    // bm25, hybrid
	Vector   []float32 // knn, hybrid
	K        int       // hits returned
	Width    int       // knn: candidates searched (Solr topK, OpenSearch k); >= K
	Weight   float64   // hybrid: the kNN part's weight; the BM25 part has 1 − Weight
	Collapse bool      // one hit per document, its best unit (MaxP over chunks)
	FirstP   bool      // only each document's first unit
}
