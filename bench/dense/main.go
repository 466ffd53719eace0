// Command dense is the ranklab half of bench/bench-dense.sh: it embeds a collection's documents
// with all-MiniLM-L6-v2 (package embed, no cache) and prints, as JSON, the CPU seconds and wall
// seconds of that call (tokenizing, forward passes, pooling; loading and a warm-up batch
// excluded), the tokens that count and the tokens computed (with each batch padded to its
// longest text). With -tokens FILE it writes the token IDs instead and embeds nothing (so the
// Python halves run the same inputs), and with -texts FILE the texts (JSON, what
// sentence-transformers is handed); with -vectors FILE it also writes the vectors (float32,
// row-major).
//
//	go run ./bench/dense -data ../shared/data/cranfield -graph old.onnx -threads 1 -vectors /tmp/v.f32
package main

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"syscall"
	"time"

	"github.com/ranklab/ranklab/embed"
	"github.com/ranklab/ranklab/retrieval"
)

func cpu() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func main() {
	data := flag.String("data", "", "a BEIR collection folder")
	graph := flag.String("graph", "", "another graph of the model (embed.Options.Graph); default the installed one")
	threads := flag.Int("threads", 1, "batches computed at once, one thread each (embed.Options.Threads)")
	maxTokens := flag.Int("max", 256, "tokens a text, [CLS] and [SEP] included (embed.Options.MaxTokens)")
	batch := flag.Int("batch", 32, "texts a batch (embed.Options.Batch)")
	tokens := flag.String("tokens", "", "write the token IDs here (JSON) and embed nothing")
	textsOut := flag.String("texts", "", "with -tokens: also write the texts here (JSON)")
	vectors := flag.String("vectors", "", "write the vectors here (float32, row-major)")
	flag.Parse()
	if err := run(*data, *graph, *threads, *maxTokens, *batch, *tokens, *textsOut, *vectors); err != nil {
		fmt.Fprintln(os.Stderr, "dense:", err)
		os.Exit(1)
	}
}

func run(data, graph string, threads, maxTokens, batch int, tokens, textsOut, vectors string) error {
	docs, err := retrieval.ReadCorpusFile(data)
	if err != nil {
		return err
	}
	m, err := embed.Open(embed.Options{Graph: graph, Threads: threads, MaxTokens: maxTokens, Batch: batch})
	if err != nil {
		return err
	}
	defer m.Close()
	texts := make([]string, len(docs))
	for i, d := range docs {
		texts[i] = d.DenseText()
	}
	if tokens != "" {
		ids := make([][]int32, len(texts))
		for i, s := range texts {
			ids[i] = m.Tokenizer.Wrap(m.Tokenizer.Pieces(s))
		}
		if textsOut != "" {
			if err := writeJSON(textsOut, texts); err != nil {
				return err
			}
		}
		return writeJSON(tokens, ids)
	}
	m.Embed(texts[:1]) // warm-up: the session's first run allocates
	c0, t0 := cpu(), time.Now()
	vecs, err := m.Embed(texts)
	if err != nil {
		return err
	}
	c1, t1 := cpu(), time.Now()
	ids := make([][]int32, len(texts))
	for i, s := range texts {
		ids[i] = m.Tokenizer.Wrap(m.Tokenizer.Pieces(s))
	}
	if vectors != "" {
		buf := make([]byte, 0, len(vecs)*m.Dim*4)
		for _, v := range vecs {
			for _, x := range v {
				buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(x))
			}
		}
		if err := writeFile(vectors, buf); err != nil {
			return err
		}
	}
	counted, computed := padding(ids, batch)
	return json.NewEncoder(os.Stdout).Encode(map[string]any{
		"texts": len(texts), "cpu_s": c1 - c0, "wall_s": t1.Sub(t0).Seconds(),
		"tokens": counted, "computed": computed, "key": m.Key(),
	})
}

// padding returns the tokens that count and the tokens computed when the texts are sorted by
// length, longest first, and cut into batches of batch texts, each padded to its longest (what
// embed.Model does).
func padding(ids [][]int32, batch int) (counted, computed int) {
	lens := make([]int, len(ids))
	for i, t := range ids {
		lens[i] = len(t)
		counted += len(t)
	}
	slices.SortFunc(lens, func(a, b int) int { return cmp.Compare(b, a) })
	for s := 0; s < len(lens); s += batch {
		computed += lens[s] * len(lens[s:min(s+batch, len(lens))])
	}
	return counted, computed
}

func writeJSON(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return writeFile(path, data)
}

func writeFile(path string, data []byte) error {
	if err := os.WriteFile(path+".tmp", data, 0o644); err != nil {
		return err
	}
	return os.Rename(path+".tmp", path)
}
