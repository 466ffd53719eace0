package embed

import (
	"cmp"
	"fmt"
	"slices"
	"sync"

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
	Threads   int // ONNX Runtime intra-op threads; 0 means one per physical core
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
	session   *ort.Session
	buf       []float32
}

// MiniLM is the name of the model Open loads.
const MiniLM = "all-MiniLM-L6-v2"

// Open loads all-MiniLM-L6-v2 and ONNX Runtime from where kernel-setup/dense.sh installed them
// (findManifest). Missing files give an error wrapping ErrNotInstalled, which names the command
// that installs them.
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
	vocab, err := readVocab(m.vocabPath())
	if err != nil {
		return nil, err
	}
	if _, err := ort.Load(m.Runtime); err != nil {
		return nil, fmt.Errorf("%w (reinstall with: bash kernel-setup/dense.sh)", err)
	}
	s, err := ort.NewSession(m.onnxPath(), opts.Threads, "input_ids", "attention_mask", "last_hidden_state")
	if err != nil {
		return nil, err
	}
	return &Model{files: m, Tokenizer: WordPiece{Vocab: vocab, MaxTokens: opts.MaxTokens}, Dim: 384, opts: opts, session: s}, nil
}

// Key implements Embedder: the model, its files' hash, the token limit and codeVersion.
func (m *Model) Key() string {
	return fmt.Sprintf("%s/%s/max%d/code%d", MiniLM, m.files.ModelKey, m.opts.MaxTokens, codeVersion)
}

// codeVersion is part of Key: raise it when a change to this package's tokenizer, batching or
// pooling could change a vector, so that vectors cached by the older code are not reused.
const codeVersion = 1

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
	parallel(len(texts), func(i int) { toks[i] = wp.Tokenize(texts[i]) })
	return toks
}

// EmbedTokens implements Embedder: texts given as token IDs ([CLS] … [SEP], as Tokenize
// returns them, at most MaxTokens each).
func (m *Model) EmbedTokens(toks [][]int32) ([][]float32, error) {
	for i, t := range toks {
		if len(t) == 0 || len(t) > m.opts.MaxTokens {
			return nil, fmt.Errorf("embed: text %d has %d tokens, want 1..%d", i, len(t), m.opts.MaxTokens)
		}
	}
	order := make([]int, len(toks))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(len(toks[b]), len(toks[a])) })
	out := make([][]float32, len(toks))
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.session == nil {
		return nil, fmt.Errorf("embed: Embed after Close")
	}
	for start := 0; start < len(order); start += m.opts.Batch {
		idx := order[start:min(start+m.opts.Batch, len(order))]
		width := len(toks[idx[0]])
		ids := make([]int64, len(idx)*width)
		mask := make([]int64, len(idx)*width)
		for b, i := range idx {
			for t, id := range toks[i] {
				ids[b*width+t], mask[b*width+t] = int64(id), 1
			}
		}
		hidden, shape, err := m.session.Run(ids, mask, len(idx), width, m.buf, m.Dim)
		if err != nil {
			return nil, err
		}
		m.buf = hidden
		if len(shape) != 3 || shape[0] != int64(len(idx)) || shape[1] != int64(width) || shape[2] != int64(m.Dim) {
			return nil, fmt.Errorf("embed: the graph returned shape %v, want [%d %d %d]", shape, len(idx), width, m.Dim)
		}
		for b, v := range meanPool(hidden, mask, len(idx), width, m.Dim) {
			out[idx[b]] = v
		}
	}
	return out, nil
}
