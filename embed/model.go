package embed

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/ranklab/ranklab/embed/internal/ort"
)

// Embedder turns texts into unit vectors, one per text, in the order given.
type Embedder interface {
	Embed(texts []string) ([][]float32, error)
	// EmbedTokens embeds texts given as token ID lists ([CLS] … [SEP], at most
	// WordPiece().MaxTokens each): chunks cut in the model's own tokens.
	EmbedTokens(toks [][]int32) ([][]float32, error)
	// WordPiece returns the model's tokenizer (MaxTokens: the model's limit).
	WordPiece() WordPiece
	// Key names the model and every setting that changes a vector (a cache key).
	Key() string
}

// Options are a Model's settings; the zero value is the model's own.
type Options struct {
	MaxTokens int // tokens per text incl. [CLS] and [SEP]; 0 means the model's max_seq_length, 256
	Batch     int // texts per forward pass; 0 means 32 (as sentence-transformers' encode)
	// Threads is how many batches are computed at once, each on one thread of its own (one
	// ONNX Runtime session, intra-op threads 1, Run called from Threads goroutines); 0 means
	// GOMAXPROCS. bench/README.md measured this against one batch at a time on ONNX Runtime's
	// intra-op threads.
	Threads int
	// Graph is the path of another ONNX graph of this model to run instead of the installed one
	// (same inputs and output; "" means the installed model.onnx, checked against the set-up's
	// sha256). Its own sha256 goes into Key. bench/bench-dense.sh runs the old exporter's graph
	// this way.
	Graph string
}

// Model is all-MiniLM-L6-v2 (a 6-layer BERT, 384 dimensions) run by ONNX Runtime:
//
//	e(text) = normalise(mean over the text's tokens of the last hidden layer)
//
// with the model's WordPiece tokenizer, texts cut at MaxTokens tokens. Texts are embedded in
// batches of texts of similar length (sorted by token count, longest first, as
// sentence-transformers does), each padded to its longest text; padding does not change a
// vector (the attention mask excludes it). Safe for concurrent use (calls run one at a time).
type Model struct {
	Tokenizer WordPiece
	Dim       int
	opts      Options
	mu        sync.Mutex
	files     manifest
	graphKey  string // sha256 of model.onnx, as Open read and checked it
	session   *ort.Session
}

// MiniLM is the name of the model Open loads.
const MiniLM = "all-MiniLM-L6-v2"

// Open loads all-MiniLM-L6-v2 and ONNX Runtime from where kernel-setup/dense.sh installed them
// (findManifest). Missing files give an error wrapping ErrNotInstalled, which names the command
// that installs them. The graph is read once, its sha256 checked against the one the set-up
// recorded (a graph changed since, even one weight, is an error), and those same bytes are what
// ONNX Runtime loads.
func Open(opts Options) (*Model, error) {
	m, err := findManifest()
	if err != nil {
		return nil, err
	}
	if opts.MaxTokens <= 0 {
		opts.MaxTokens = 256
	}
	if opts.MaxTokens > 512 {
		return nil, fmt.Errorf("embed: MaxTokens %d: the model has 512 positions", opts.MaxTokens)
	}
	if opts.Batch <= 0 {
		opts.Batch = 32
	}
	if opts.Threads <= 0 {
		opts.Threads = runtime.GOMAXPROCS(0)
	}
	vocab, err := readVocab(m.vocabPath())
	if err != nil {
		return nil, err
	}
	graph, sum, err := m.readGraph(opts.Graph)
	if err != nil {
		return nil, err
	}
	if _, err := ort.Load(m.Runtime); err != nil {
		return nil, fmt.Errorf("%w (reinstall with: bash kernel-setup/dense.sh)", err)
	}
	s, err := ort.NewSession(cmp.Or(opts.Graph, m.onnxPath()), graph, 1, "input_ids", "attention_mask", "last_hidden_state")
	if err != nil {
		return nil, err
	}
	return &Model{files: m, graphKey: sum, Tokenizer: WordPiece{Vocab: vocab, MaxTokens: opts.MaxTokens}, Dim: 384, opts: opts, session: s}, nil
}

// Key implements Embedder: the model, the hash of the files it was made from (safetensors and
// exporter), the sha256 of the graph that runs (as Open read it), the token limit and
// codeVersion.
func (m *Model) Key() string {
	return fmt.Sprintf("%s/%s/graph-%s/max%d/code%d", MiniLM, m.files.ModelKey, m.graphKey[:16], m.opts.MaxTokens, codeVersion)
}

// codeVersion is part of Key: raise it when a change to this package's tokenizer, batching or
// pooling could change a vector, so that vectors cached by the older code are not reused.
// 2: WordPiece follows the reference's Unicode tables on every code point.
const codeVersion = 2

// dim is the vectors' dimension (what a Cache checks every stored vector against).
func (m *Model) dim() int { return m.Dim }

// WordPiece implements Embedder.
func (m *Model) WordPiece() WordPiece { return m.Tokenizer }

// Close releases the ONNX Runtime session.
func (m *Model) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.session != nil {
		m.session.Close()
		m.session = nil
	}
}

// Embed implements Embedder.
func (m *Model) Embed(texts []string) ([][]float32, error) {
	return m.EmbedTokens(tokenizeAll(m.Tokenizer, texts))
}

// tokenizeAll tokenizes every text with wp on GOMAXPROCS goroutines: what Embed hands to
// EmbedTokens (a Model's and a Cache's alike).
func tokenizeAll(wp WordPiece, texts []string) [][]int32 {
	toks := make([][]int32, len(texts))
	parallel(len(texts), func(i int) { toks[i] = wp.tokenize(texts[i]) })
	return toks
}

// EmbedTokens implements Embedder: texts given as token IDs ([CLS] … [SEP], as Wrap
// returns them, at most MaxTokens each).
func (m *Model) EmbedTokens(toks [][]int32) ([][]float32, error) {
	out := make([][]float32, len(toks))
	err := m.embedEach(toks, func(idx []int, vecs [][]float32) error {
		for b, i := range idx {
			out[i] = vecs[b]
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// embedEach embeds toks in batches (sorted by length, longest first, Batch a batch, padded to
// the batch's longest), Threads batches at a time, and hands each batch's vectors to each as
// soon as they are computed: idx are the batch's indices in toks, vecs their vectors. each may
// be called from several goroutines at once; an error from it or from a batch stops the call
// (batches already handed out stay handed out).
func (m *Model) embedEach(toks [][]int32, each func(idx []int, vecs [][]float32) error) error {
	for i, t := range toks {
		if len(t) == 0 || len(t) > m.opts.MaxTokens {
			return fmt.Errorf("embed: text %d has %d tokens, want 1..%d", i, len(t), m.opts.MaxTokens)
		}
	}
	order := make([]int, len(toks))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(len(toks[b]), len(toks[a])) })
	var batches [][]int
	for start := 0; start < len(order); start += m.opts.Batch {
		batches = append(batches, order[start:min(start+m.opts.Batch, len(order))])
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.session == nil {
		return fmt.Errorf("embed: Embed after Close")
	}
	var (
		next    atomic.Int64
		errOnce sync.Once
		first   error
		failed  atomic.Bool
		wg      sync.WaitGroup
	)
	fail := func(err error) {
		errOnce.Do(func() { first = err })
		failed.Store(true)
	}
	for range min(m.opts.Threads, len(batches)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []float32
			for b := int(next.Add(1) - 1); b < len(batches) && !failed.Load(); b = int(next.Add(1) - 1) {
				vecs, err := m.runBatch(toks, batches[b], &buf)
				if err == nil {
					err = each(batches[b], vecs)
				}
				if err != nil {
					fail(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	return first
}

// runBatch computes the vectors of the texts idx, padded to the longest (the first: idx is
// sorted longest first); buf is the worker's output buffer, reused across batches.
func (m *Model) runBatch(toks [][]int32, idx []int, buf *[]float32) ([][]float32, error) {
	width := len(toks[idx[0]])
	ids := make([]int64, len(idx)*width)
	mask := make([]int64, len(idx)*width)
	for b, i := range idx {
		for t, id := range toks[i] {
			ids[b*width+t], mask[b*width+t] = int64(id), 1
		}
	}
	hidden, shape, err := m.session.Run(ids, mask, len(idx), width, *buf, m.Dim)
	if err != nil {
		return nil, err
	}
	*buf = hidden
	if len(shape) != 3 || shape[0] != int64(len(idx)) || shape[1] != int64(width) || shape[2] != int64(m.Dim) {
		return nil, fmt.Errorf("embed: the graph returned shape %v, want [%d %d %d]", shape, len(idx), width, m.Dim)
	}
	return meanPool(hidden, mask, len(idx), width, m.Dim), nil
}
