// Command dense is the ranklab half of bench/bench-dense.sh: it embeds a collection's documents
// with all-MiniLM-L6-v2 (package embed, no cache) and prints, as JSON, the CPU seconds and wall
// seconds of that call (tokenizing, forward passes, pooling; loading excluded). With -tokens FILE
// it also writes the token IDs it used, so the Python half runs the same inputs.
//
//	go run ./bench/dense -data ../shared/data/cranfield -tokens /tmp/t.json -vectors /tmp/v.f32
package main

import (
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
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
	tokens := flag.String("tokens", "", "write the token IDs here (JSON)")
	vectors := flag.String("vectors", "", "write the vectors here (float32, row-major)")
	flag.Parse()
	if err := run(*data, *tokens, *vectors); err != nil {
		fmt.Fprintln(os.Stderr, "dense:", err)
		os.Exit(1)
	}
}

func run(data, tokens, vectors string) error {
	docs, err := retrieval.ReadCorpusFile(data)
	if err != nil {
		return err
	}
	m, err := embed.Open(embed.Options{})
	if err != nil {
		return err
	}
	defer m.Close()
	texts := make([]string, len(docs))
	for i, d := range docs {
		texts[i] = d.DenseText()
	}
	m.Embed(texts[:1]) // warm-up: the session's first run allocates
	c0, t0 := cpu(), time.Now()
	vecs, err := m.Embed(texts)
	if err != nil {
		return err
	}
	c1, t1 := cpu(), time.Now()
	if tokens != "" {
		ids := make([][]int32, len(texts))
		for i, s := range texts {
			ids[i] = m.Tokenizer.Tokenize(s)
		}
		if err := writeJSON(tokens, ids); err != nil {
			return err
		}
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
	return json.NewEncoder(os.Stdout).Encode(map[string]any{"texts": len(texts), "cpu_s": c1 - c0, "wall_s": t1.Sub(t0).Seconds()})
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
