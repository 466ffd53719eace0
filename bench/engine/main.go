// Command engine measures a search engine against ranklab's in-process retrievers at scale
// (bench/bench-engine.sh runs it): it makes N deterministic passages, starts a local cluster
// (package engine), indexes them with BM25 and with vectors, and prints as JSON lines the
// indexing rate, the index size on disk, the query latency and the memory of each side, and the
// embedding throughput of the real model on a sample.
//
// The passages: words over a vocabulary of 200,000 made-up pronounceable words, half from the
// passage's topic and half from the background (see corpus), lengths from a log-normal
// distribution with a median of 52 words (MS MARCO's passages: mean about 56 words, a long
// right tail), title empty. The queries: 3 to 8 words of one topic. The vectors:
// all-MiniLM-L6-v2 on 1 M passages would take about 8 h on 2 cores, so each passage gets a
// deterministic unit vector, the normalised sum of a fixed random vector per WordPiece token
// (hashEmbedder), through an embed.Embedder that keeps the model's WordPiece, so the engine and
// the in-process exact search index the very same vectors. The real model's throughput is
// measured apart, on a sample.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ranklab/ranklab/dense"
	"github.com/ranklab/ranklab/embed"
	"github.com/ranklab/ranklab/engine"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/rag"
	"github.com/ranklab/ranklab/retrieval"
)

func main() {
	n := flag.Int("n", 1_000_000, "passages")
	nq := flag.Int("queries", 500, "queries")
	kind := flag.String("kind", "solr", "solr or opensearch")
	nodes := flag.Int("nodes", 2, "nodes of the local cluster")
	shards := flag.Int("shards", 2, "shards of each index")
	heap := flag.String("heap", "6g", "the JVM's heap")
	dir := flag.String("dir", "/tmp/ranklab-engine-scale", "the cluster's files (removed first)")
	phases := flag.String("phases", "bm25,vectors,embed", "what to measure")
	sample := flag.Int("sample", 2000, "passages the real model embeds for its throughput")
	widthList := flag.String("widths", "10,50,100,200,1000", "kNN search widths to measure")
	m := flag.Int("m", 16, "HNSW: neighbours per node")
	efc := flag.Int("efc", 100, "HNSW: the construction beam")
	batch := flag.Int("batch", 1000, "units per indexing request")
	flag.IntVar(&topics, "topics", topics, "topics of the corpus")
	flag.Parse()
	ctx := context.Background()
	t0 := time.Now()
	docs, queries := corpus(*n, *nq)
	emit("corpus", map[string]any{"topics": topics, "passages": len(docs), "queries": len(queries), "words_mean": meanWords(docs), "seconds": since(t0)})
	want := map[string]bool{}
	for _, p := range strings.Split(*phases, ",") {
		want[p] = true
	}
	if want["embed"] {
		embedThroughput(docs[:min(*sample, len(docs))])
	}
	if !want["bm25"] && !want["vectors"] {
		return
	}
	os.RemoveAll(*dir)
	t0 = time.Now()
	cl, err := engine.Start(ctx, engine.Options{Kind: *kind, Nodes: *nodes, Dir: *dir, Heap: *heap})
	check(err)
	defer cl.Stop()
	c, err := engine.Connect(ctx, cl.URL)
	check(err)
	c.Timeout = 10 * time.Minute
	emit("cluster", map[string]any{"kind": c.Kind, "shards": *shards, "version": c.Version, "nodes": *nodes, "heap": *heap, "start_seconds": since(t0), "jvm_rss_mb": rssMB(cl.PID)})
	if want["vectors"] {
		model, err := embed.Open(embed.Options{})
		check(err)
		fake := newHashEmbedder(model.WordPiece())
		model.Close()
		before := du(*dir)
		t0 = time.Now()
		ix, err := c.CreateIndex(ctx, "scale-vectors", docs, engine.IndexOptions{Shards: *shards, Embedder: fake, M: *m, EfConstruction: *efc, Batch: *batch, Progress: os.Stderr})
		check(err)
		secs := since(t0)
		after := du(*dir)
		emit("engine text+vector index", map[string]any{"passages": ix.Units, "seconds": secs, "per_second": float64(ix.Units) / secs,
			"m": *m, "ef_construction": *efc, "batch": *batch,
			"index_mb": after.index - before.index, "vector_files_mb": after.vectors - before.vectors, "tlog_mb": after.tlog - before.tlog,
			"jvm_rss_mb": rssMB(cl.PID)})
		t0 = time.Now()
		ds, err := dense.Build(docs, fake, retrieval.Whole, rag.MaxP)
		check(err)
		emit("in-process dense build", map[string]any{"seconds": since(t0), "heap_mb": heapMB()})
		exact, err := ds.Run(queries, retrieval.RunOptions{Depth: 10, ChunkDepth: -1})
		check(err)
		lat := latencies(queries[:min(100, len(queries))], func(q retrieval.Query) {
			_, err := ds.Run([]retrieval.Query{q}, retrieval.RunOptions{Depth: 10, ChunkDepth: -1})
			check(err)
		})
		emit("in-process exact kNN query", lat)
		for _, f := range strings.Split(*widthList, ",") {
			w, err := strconv.Atoi(f)
			check(err)
			var got eval.Run
			got.Queries = map[string][]eval.ScoredDoc{}
			lat := latencies(queries, func(q retrieval.Query) {
				r, err := ix.Run(ctx, []retrieval.Query{q}, engine.RunOptions{Mode: "knn", Depth: 10, Width: w, ChunkDepth: -1, Workers: 1})
				check(err)
				got.Queries[q.ID] = r.Docs.Queries[q.ID]
			})
			lat["width"] = w
			lat["recall_at_10_of_exact"] = recall(exact.Docs, got)
			lat["jvm_rss_mb"] = rssMB(cl.PID)
			emit("engine kNN query", lat)
		}
	}
	if want["bm25"] {
		before := du(*dir)
		t0 = time.Now()
		ix, err := c.CreateIndex(ctx, "scale-text", docs, engine.IndexOptions{Shards: *shards, Batch: 2 * *batch, Progress: os.Stderr})
		check(err)
		secs := since(t0)
		after := du(*dir)
		emit("engine bm25 index", map[string]any{"passages": ix.Units, "seconds": secs, "per_second": float64(ix.Units) / secs,
			"index_mb": after.index - before.index, "tlog_mb": after.tlog - before.tlog, "jvm_rss_mb": rssMB(cl.PID)})
		lat := latencies(queries, func(q retrieval.Query) {
			_, err := ix.Run(ctx, []retrieval.Query{q}, engine.RunOptions{Depth: 10, ChunkDepth: -1, Workers: 1})
			check(err)
		})
		emit("engine bm25 query", lat)
		inProcessBM25(docs, queries)
	}
}

// words is the made-up vocabulary: pronounceable words from syllables, word i from i's digits.
func words(n int) []string {
	on, nu := []string{"b", "c", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "st", "tr"}, []string{"a", "e", "i", "o", "u", "ai", "ou"}
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for x := i + 1; x > 0; x /= len(on) * len(nu) {
			s := x % (len(on) * len(nu))
			b.WriteString(on[s%len(on)] + nu[s/len(on)])
		}
		out[i] = b.String()
	}
	return out
}

// The corpus is topical, as real collections are: topics topics, each a Zipf(1.1) ranking of
// its own over the vocabulary (topic t's r-th word is word (a_t·r + b_t) mod V, a_t coprime with
// V: a permutation per topic, computed rather than stored). A passage has one topic; each of its
// words comes from its topic's ranking with probability topicShare, else from the background
// ranking (the vocabulary's own order: the words every passage uses). A query is 3 to 8 words
// from one topic's ranking. So passages of a topic share words, which gives BM25 something to
// find and the bag-of-tokens vectors (hashEmbedder) clusters, as real texts and their
// embeddings have; without topics every vector is an independent random one, HNSW's
// hardest and least realistic case (recall@10 0.40 at width 10 on 20,000 passages, measured).
const (
	vocabSize  = 200_000
	topicShare = 0.5
)

// topics is the number of topics (-topics; 5,000 by default: 200 passages a topic at 1 M).
var topics = 5_000

// corpus makes n passages and nq queries, the same every time.
func corpus(n, nq int) ([]retrieval.Document, []retrieval.Query) {
	vocab := words(vocabSize)
	rng := rand.New(rand.NewPCG(42, 2024))
	rank := func() int {
		// inverse-CDF sampling of a Zipf(s=1.1) rank by rejection on a continuous bound
		for {
			u := rng.Float64()
			r := int(math.Pow(1-u*(1-math.Pow(float64(vocabSize), -0.1)), -1/0.1))
			if r >= 1 && r <= vocabSize {
				return r - 1
			}
		}
	}
	// topic t's permutation of the vocabulary: a·r + b mod V with a odd and not a multiple of 5
	// (V = 2^6·5^5).
	perm := func(t int) (int, int) {
		a := 1 + 2*((t*7919)%(vocabSize/2))
		if a%5 == 0 {
			a += 2
		}
		return a, (t * 104729) % vocabSize
	}
	topicWord := func(t int) string {
		a, b := perm(t)
		return vocab[(a*rank()+b)%vocabSize]
	}
	docs := make([]retrieval.Document, n)
	for i := range docs {
		t := rng.IntN(topics)
		l := int(math.Round(math.Exp(math.Log(52) + 0.45*rng.NormFloat64())))
		l = max(5, min(l, 400))
		ws := make([]string, l)
		for j := range ws {
			if rng.Float64() < topicShare {
				ws[j] = topicWord(t)
			} else {
				ws[j] = vocab[rank()]
			}
		}
		docs[i] = retrieval.Document{ID: "p" + strconv.Itoa(i), Text: strings.Join(ws, " ")}
	}
	qs := make([]retrieval.Query, nq)
	for i := range qs {
		t := rng.IntN(topics)
		ws := make([]string, 3+rng.IntN(6))
		for j := range ws {
			ws[j] = topicWord(t)
		}
		qs[i] = retrieval.Query{ID: "q" + strconv.Itoa(i), Text: strings.Join(ws, " ")}
	}
	return docs, qs
}

func meanWords(docs []retrieval.Document) float64 {
	n := 0
	for _, d := range docs {
		n += strings.Count(d.Text, " ") + 1
	}
	return float64(n) / float64(len(docs))
}

// inProcessBM25 builds ranklab's in-process BM25 over the passages and times its queries.
func inProcessBM25(docs []retrieval.Document, queries []retrieval.Query) {
	runtime.GC()
	base := heapMB()
	t0 := time.Now()
	s, err := retrieval.Build(retrieval.Collection{Docs: docs}, retrieval.Whole, retrieval.Anserini, rag.MaxP)
	check(err)
	secs := since(t0)
	runtime.GC()
	emit("in-process bm25 build", map[string]any{"seconds": secs, "per_second": float64(len(docs)) / secs, "heap_mb": heapMB() - base})
	emit("in-process bm25 query", latencies(queries, func(q retrieval.Query) {
		s.Run([]retrieval.Query{q}, retrieval.RunOptions{Depth: 10, ChunkDepth: -1})
	}))
	runtime.KeepAlive(s)
}

// embedThroughput embeds a sample with the real all-MiniLM-L6-v2 (no cache) and reports
// passages per second on this machine's CPUs.
func embedThroughput(sample []retrieval.Document) {
	m, err := embed.Open(embed.Options{})
	if err != nil {
		emit("embed throughput", map[string]any{"error": err.Error()})
		return
	}
	defer m.Close()
	texts := make([]string, len(sample))
	for i, d := range sample {
		texts[i] = d.DenseText()
	}
	t0 := time.Now()
	_, err = m.Embed(texts)
	check(err)
	secs := since(t0)
	emit("embed throughput", map[string]any{"model": embed.MiniLM, "passages": len(texts), "seconds": secs, "per_second": float64(len(texts)) / secs, "cpus": runtime.NumCPU()})
}

// hashEmbedder gives every unit a deterministic unit vector: the normalised sum of one fixed
// Gaussian vector per WordPiece token of the unit ([CLS] and [SEP] left out), a random
// projection of its bag of tokens. Units sharing tokens get near vectors, as texts about the
// same things do under a real model; the tokens' vectors are made once and kept.
type hashEmbedder struct {
	wp   embed.WordPiece
	toks *sync.Map // token ID -> []float32
}

func newHashEmbedder(wp embed.WordPiece) hashEmbedder {
	return hashEmbedder{wp: wp, toks: &sync.Map{}}
}

func (h hashEmbedder) Embed(texts []string) ([][]float32, error) {
	toks := make([][]int32, len(texts))
	for i, t := range texts {
		toks[i] = h.wp.Wrap(h.wp.Pieces(t))
	}
	return h.EmbedTokens(toks)
}

// tokenVector is token id's fixed vector: 384 Gaussian components from a generator seeded by id.
func (h hashEmbedder) tokenVector(id int32) []float32 {
	if v, ok := h.toks.Load(id); ok {
		return v.([]float32)
	}
	rng := rand.New(rand.NewPCG(uint64(id), 7))
	v := make([]float32, 384)
	for j := range v {
		v[j] = float32(rng.NormFloat64())
	}
	h.toks.Store(id, v)
	return v
}

func (h hashEmbedder) EmbedTokens(toks [][]int32) ([][]float32, error) {
	out := make([][]float32, len(toks))
	for i, t := range toks {
		sum := make([]float64, 384)
		for k, id := range t {
			if (k == 0 || k == len(t)-1) && len(t) >= 2 { // [CLS] ... [SEP]
				continue
			}
			for j, x := range h.tokenVector(id) {
				sum[j] += float64(x)
			}
		}
		var norm float64
		for _, x := range sum {
			norm += x * x
		}
		if norm == 0 { // no token: a fixed vector rather than NaNs
			sum[0], norm = 1, 1
		}
		v := make([]float32, 384)
		for j := range v {
			v[j] = float32(sum[j] / math.Sqrt(norm))
		}
		out[i] = v
	}
	return out, nil
}

func (h hashEmbedder) WordPiece() embed.WordPiece { return h.wp }
func (h hashEmbedder) Key() string                { return "bag-of-tokens-384" }

// latencies times fn once per query, one at a time, and returns the mean, median, 95th
// percentile and the throughput.
func latencies(queries []retrieval.Query, fn func(retrieval.Query)) map[string]any {
	ms := make([]float64, len(queries))
	t0 := time.Now()
	for i, q := range queries {
		t := time.Now()
		fn(q)
		ms[i] = float64(time.Since(t).Microseconds()) / 1000
	}
	total := since(t0)
	slices.Sort(ms)
	mean := 0.0
	for _, x := range ms {
		mean += x / float64(len(ms))
	}
	return map[string]any{"queries": len(queries), "mean_ms": mean, "p50_ms": ms[len(ms)/2], "p95_ms": ms[len(ms)*95/100], "qps_one_at_a_time": float64(len(queries)) / total}
}

func recall(exact, got eval.Run) float64 {
	sum, n := 0.0, 0
	for q, ex := range exact.Queries {
		in := map[string]bool{}
		for _, d := range got.Queries[q] {
			in[d.Doc] = true
		}
		hit := 0
		for _, d := range ex {
			if in[d.Doc] {
				hit++
			}
		}
		if len(ex) > 0 {
			sum += float64(hit) / float64(len(ex))
			n++
		}
	}
	return sum / float64(n)
}

// disk is what the cluster's files take, in MB: the Lucene indexes (files under a data/index
// folder), of them the vector files (Lucene's .vec raw vectors, .vex HNSW graph, .vem and
// .vemf metadata, .veq/.vemq quantized), and Solr's transaction logs (data/tlog).
type disk struct{ index, vectors, tlog float64 }

func du(dir string) disk {
	var d disk
	filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || !info.Mode().IsRegular() {
			return nil
		}
		mb := float64(info.Size()) / 1e6
		switch {
		case strings.Contains(path, "/tlog/"):
			d.tlog += mb
		case strings.Contains(path, "/index") && strings.Contains(path, "/data/"):
			d.index += mb
			switch filepath.Ext(path) {
			case ".vec", ".vex", ".vem", ".vemf", ".veq", ".vemq":
				d.vectors += mb
			}
		}
		return nil
	})
	return d
}

func rssMB(pid int) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return -1
}

func heapMB() float64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc) / 1e6
}

func since(t time.Time) float64 { return time.Since(t).Seconds() }

func emit(what string, v map[string]any) {
	v["what"] = what
	v["load"] = loadavg()
	b, _ := json.Marshal(v)
	fmt.Println(string(b))
}

func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	return strings.Join(strings.Fields(string(b))[:min(3, len(strings.Fields(string(b))))], " ")
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "engine bench:", err)
		os.Exit(1)
	}
}
