package engine

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ranklab/ranklab/eval"
)

// solr speaks SolrCloud's HTTP API: the Collections and Configsets APIs to make an index (a
// collection, from a configset ranklab uploads), /update to add documents and /select to search.
type solr struct{ t *transport }

// solrConfig is the configset's solrconfig.xml. The statistics mode is a collection property
// (ranklab.statsCache, set at CREATE): Solr's default LocalStatsCache scores each shard with its
// own document frequencies and lengths; ExactStatsCache gathers them from every shard first, so
// a sharded collection scores exactly as one shard.
const solrConfig = `<?xml version="1.0" encoding="UTF-8"?>
<config>
  <luceneMatchVersion>9.12</luceneMatchVersion>
  <dataDir>${solr.data.dir:}</dataDir>
  <directoryFactory name="DirectoryFactory" class="${solr.directoryFactory:solr.NRTCachingDirectoryFactory}"/>
  <schemaFactory class="ClassicIndexSchemaFactory"/>
  <updateHandler class="solr.DirectUpdateHandler2">
    <updateLog><str name="dir">${solr.ulog.dir:}</str></updateLog>
  </updateHandler>
  <statsCache class="${ranklab.statsCache:org.apache.solr.search.stats.LocalStatsCache}"/>
  <query><maxBooleanClauses>${solr.max.booleanClauses:1024}</maxBooleanClauses></query>
  <requestHandler name="/select" class="solr.SearchHandler"/>
</config>
`

// solrSchema is the configset's schema.xml for vectors of dimension dim (0: no vector field),
// HNSW with m neighbours and beam efc: Lucene's BM25 with Anserini's k1 0.9 and b 0.4 over one
// field analyzed by Lucene's EnglishAnalyzer (standard tokenizer, possessives, lower case,
// English stop words, Porter stemmer: Anserini's default analyzer), the document of each unit
// (doc_id, which routes a document's chunks to one shard and collapses them) and its number.
func solrSchema(dim, m, efc int) string {
	vector := ""
	if dim > 0 {
		vector = fmt.Sprintf(`  <fieldType name="knn" class="solr.DenseVectorField" vectorDimension="%d" similarityFunction="cosine" knnAlgorithm="hnsw" hnswMaxConnections="%d" hnswBeamWidth="%d"/>
  <field name="vector" type="knn" indexed="true" stored="false"/>
`, dim, m, efc)
	}
	return `<?xml version="1.0" encoding="UTF-8"?>
<schema name="ranklab" version="1.6">
  <uniqueKey>id</uniqueKey>
  <fieldType name="string" class="solr.StrField" sortMissingLast="true" docValues="true"/>
  <fieldType name="pint" class="solr.IntPointField" docValues="true"/>
  <fieldType name="plong" class="solr.LongPointField" docValues="true"/>
  <fieldType name="english" class="solr.TextField">
    <analyzer class="org.apache.lucene.analysis.en.EnglishAnalyzer"/>
  </fieldType>
  <field name="id" type="string" indexed="true" stored="true" required="true"/>
  <field name="_version_" type="plong" indexed="false" stored="false"/>
  <field name="doc_id" type="string" indexed="true" stored="true"/>
  <field name="chunk_no" type="pint" indexed="true" stored="true"/>
  <field name="text" type="english" indexed="true" stored="false"/>
` + vector + `  <similarity class="solr.BM25SimilarityFactory">
    <float name="k1">0.9</float>
    <float name="b">0.4</float>
  </similarity>
</schema>
`
}

// configsetName names the configset of a schema; its version part changes whenever the files do.
func configsetName(dim, m, efc int) string {
	if dim == 0 {
		return "ranklab-v2-text"
	}
	return fmt.Sprintf("ranklab-v2-d%d-m%d-ef%d", dim, m, efc)
}

// admin calls a Collections or Configsets API action with params.
func (s *solr) admin(ctx context.Context, api string, params url.Values, out any) error {
	params.Set("wt", "json")
	return s.t.getJSON(ctx, "/admin/"+api+"?"+params.Encode(), out)
}

func (s *solr) uploadConfigset(ctx context.Context, name string, spec indexSpec) error {
	var list struct {
		ConfigSets []string `json:"configSets"`
	}
	if err := s.admin(ctx, "configs", url.Values{"action": {"LIST"}}, &list); err != nil {
		return err
	}
	for _, c := range list.ConfigSets {
		if c == name {
			return nil
		}
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for file, content := range map[string]string{"solrconfig.xml": solrConfig, "schema.xml": solrSchema(spec.Dim, spec.M, spec.EfC)} {
		w, err := zw.Create(file)
		if err != nil {
			return err
		}
		if _, err := w.Write([]byte(content)); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return s.t.do(ctx, http.MethodPost, "/admin/configs?action=UPLOAD&wt=json&name="+url.QueryEscape(name), buf.Bytes(), "application/octet-stream", nil)
}

func (s *solr) create(ctx context.Context, name string, spec indexSpec) error {
	cs := configsetName(spec.Dim, spec.M, spec.EfC)
	if err := s.uploadConfigset(ctx, cs, spec); err != nil {
		return err
	}
	p := url.Values{"action": {"CREATE"}, "name": {name}, "collection.configName": {cs},
		"numShards": {strconv.Itoa(spec.Shards)}, "replicationFactor": {"1"}, "router.field": {"doc_id"},
		"waitForFinalState": {"true"}}
	if spec.ExactStats {
		p.Set("property.ranklab.statsCache", "org.apache.solr.search.stats.ExactStatsCache")
	}
	return s.admin(ctx, "collections", p, nil)
}

func (s *solr) exists(ctx context.Context, name string) (bool, error) {
	var list struct {
		Collections []string `json:"collections"`
	}
	if err := s.admin(ctx, "collections", url.Values{"action": {"LIST"}}, &list); err != nil {
		return false, err
	}
	for _, c := range list.Collections {
		if c == name {
			return true, nil
		}
	}
	return false, nil
}

func (s *solr) drop(ctx context.Context, name string) error {
	return s.admin(ctx, "collections", url.Values{"action": {"DELETE"}, "name": {name}}, nil)
}

func (s *solr) add(ctx context.Context, name string, units []unit) error {
	docs := make([]map[string]any, len(units))
	for i, u := range units {
		d := map[string]any{"id": u.ID, "doc_id": u.Doc, "chunk_no": u.No}
		if u.Text != "" {
			d["text"] = u.Text
		}
		if u.Vector != nil {
			d["vector"] = u.Vector
		}
		docs[i] = d
	}
	return s.t.postJSON(ctx, "/"+url.PathEscape(name)+"/update?wt=json", docs, nil)
}

func (s *solr) commit(ctx context.Context, name string) error {
	return s.t.getJSON(ctx, "/"+url.PathEscape(name)+"/update?commit=true&wt=json", nil)
}

func (s *solr) count(ctx context.Context, name string) (int, error) {
	var r solrResponse
	if err := s.t.getJSON(ctx, "/"+url.PathEscape(name)+"/select?q=*:*&rows=0&wt=json", &r); err != nil {
		return 0, err
	}
	return r.Response.NumFound, nil
}

func (s *solr) shards(ctx context.Context, name string) (int, error) {
	var st struct {
		Cluster struct {
			Collections map[string]struct {
				Shards map[string]json.RawMessage `json:"shards"`
			} `json:"collections"`
		} `json:"cluster"`
	}
	if err := s.admin(ctx, "collections", url.Values{"action": {"CLUSTERSTATUS"}, "collection": {name}}, &st); err != nil {
		return 0, err
	}
	return len(st.Cluster.Collections[name].Shards), nil
}

// solrResponse is the part of a /select answer ranklab reads.
type solrResponse struct {
	Response struct {
		NumFound int              `json:"numFound"`
		Docs     []map[string]any `json:"docs"`
	} `json:"response"`
}

// select posts params (form-encoded, so a long vector fits: a GET URL of a 384-d vector gets
// HTTP 414) to /select and returns the hits' idField and score.
func (s *solr) selectHits(ctx context.Context, name string, params url.Values, idField string) ([]eval.ScoredDoc, error) {
	params.Set("wt", "json")
	var r solrResponse
	path := "/" + url.PathEscape(name) + "/select"
	if err := s.t.do(ctx, http.MethodPost, path, []byte(params.Encode()), "application/x-www-form-urlencoded", &r); err != nil {
		return nil, err
	}
	return hitsOf(r.Response.Docs, idField, s.t.base+path)
}

// hitsOf reads the ID and score of each hit.
func hitsOf(docs []map[string]any, idField, where string) ([]eval.ScoredDoc, error) {
	out := make([]eval.ScoredDoc, 0, len(docs))
	for i, d := range docs {
		id, err := idString(d[idField])
		if err != nil {
			return nil, fmt.Errorf("engine %s: hit %d: field %q: %v", where, i+1, idField, err)
		}
		score, ok := d["score"].(float64)
		if !ok {
			return nil, fmt.Errorf("engine %s: hit %d has no score", where, i+1)
		}
		out = append(out, eval.ScoredDoc{Doc: id, Score: score})
	}
	return out, nil
}

// idString returns an ID field's value: a string, a number, or a list of one of them (a
// multi-valued Solr field).
func idString(v any) (string, error) {
	switch x := v.(type) {
	case string:
		if x == "" || strings.ContainsAny(x, " \t\r\n") {
			return "", fmt.Errorf("ID %q is empty or holds white space (a run cannot hold it)", x)
		}
		return x, nil
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), nil
	case json.Number:
		return x.String(), nil
	case []any:
		if len(x) == 1 {
			return idString(x[0])
		}
		return "", fmt.Errorf("%d values, want 1", len(x))
	case nil:
		return "", fmt.Errorf("missing (is it stored or returned?)")
	}
	return "", fmt.Errorf("a %T, want a string or a number", v)
}

// lexicalParams returns Solr's standard query parser over the text field, OR of the analyzed
// words, with the text passed as a parameter (v=$qq) and every piece of query syntax in it
// escaped (escapeLucene): the text is searched, never parsed as syntax.
func lexicalParams(p url.Values, text string) string {
	p.Set("qq", escapeLucene(text))
	return "{!lucene q.op=OR df=text sow=false v=$qq}"
}

// vectorLiteral writes a vector as Solr's knn parser reads it: [v1,v2,...].
func vectorLiteral(v []float32) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, x := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatFloat(float64(x), 'g', -1, 32))
	}
	b.WriteByte(']')
	return b.String()
}

func (s *solr) search(ctx context.Context, name string, spec indexSpec, req searchRequest) ([]eval.ScoredDoc, error) {
	p := url.Values{"fl": {"id,score"}, "rows": {strconv.Itoa(req.K)}}
	knn := fmt.Sprintf("{!knn f=vector topK=%d}%s", req.Width, vectorLiteral(req.Vector))
	switch req.Mode {
	case "bm25":
		p.Set("q", lexicalParams(p, req.Text))
	case "knn":
		p.Set("q", knn)
	case "hybrid":
		p.Set("lex", lexicalParams(p, req.Text))
		p.Set("vec", knn)
		p.Set("lexb", fmt.Sprintf("{!boost b=%s v=$lex}", strconv.FormatFloat(1-req.Weight, 'g', -1, 64)))
		p.Set("vecb", fmt.Sprintf("{!boost b=%s v=$vec}", strconv.FormatFloat(req.Weight, 'g', -1, 64)))
		p.Set("q", "{!bool should=$lexb should=$vecb}")
	default:
		return nil, fmt.Errorf("engine: unknown mode %q", req.Mode)
	}
	if req.Collapse {
		p.Add("fq", "{!collapse field=doc_id}")
	}
	if req.FirstP {
		p.Add("fq", "chunk_no:0")
	}
	return s.selectHits(ctx, name, p, "id")
}

// escapeLucene returns text with every character of the Lucene and edismax query syntax
// escaped by a backslash (+ - && || ! ( ) { } [ ] ^ " ~ * ? : \ / and a lone & or |), and the
// operator words AND, OR and NOT (any case, standing alone) escaped on their first letter, so
// the parser reads the text as words only. White space is left as it is: it separates words.
func escapeLucene(text string) string {
	var b strings.Builder
	start := true // at the start of a white-space separated word
	for i, r := range text {
		if start && isOperatorWord(text[i:]) {
			b.WriteByte('\\')
		}
		start = isQuerySpace(r)
		if r < utf8.RuneSelf && strings.IndexByte(`\+-!():^[]"{}~*?|&/`, byte(r)) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// isQuerySpace reports whether the query parsers read r as white space between words (the
// classic parser: space, tab, CR, LF and U+3000; the rest of Unicode's spaces too, to be safe).
func isQuerySpace(r rune) bool { return unicode.IsSpace(r) || r == '\u3000' }

// isOperatorWord reports whether s starts with AND, OR or NOT (any case) followed by white
// space or the end.
func isOperatorWord(s string) bool {
	for _, w := range []string{"and", "or", "not"} {
		if len(s) >= len(w) && strings.EqualFold(s[:len(w)], w) && (len(s) == len(w) || startsWithSpace(s[len(w):])) {
			return true
		}
	}
	return false
}

func startsWithSpace(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isQuerySpace(r)
}
