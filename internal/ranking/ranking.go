// Package ranking is what the in-process retrievers share (package retrieval's lexical
// searcher, package dense's exact cosine search): trec_eval's order of scored documents, the
// selection of a ranking's top k (Top), the defaults of their run options, and answering every
// query on all CPUs (Gather).
package ranking

import (
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/ranklab/ranklab/eval"
)

// Compare orders scored docs as trec_eval ranks them: score descending, then doc ID
// descending in byte order.
func Compare(aScore float64, aID string, bScore float64, bID string) int {
	switch {
	case aScore > bScore:
		return -1
	case aScore < bScore:
		return 1
	}
	return strings.Compare(bID, aID)
}

// Defaults fills the zero values of a retriever's run options: depth and chunk depth 1000,
// tag "run".
func Defaults(depth, chunkDepth int, tag string) (int, int, string) {
	if depth == 0 {
		depth = 1000
	}
	if chunkDepth == 0 {
		chunkDepth = 1000
	}
	if tag == "" {
		tag = "run"
	}
	return depth, chunkDepth, tag
}

// Gather answers every query (ids[i] is query i's ID) with search on all CPUs and gathers the
// answers into the document run and, with chunks, the chunk run, both tagged tag (the chunk
// run is empty without chunks).
func Gather(ids []string, tag string, chunks bool, search func(i int) (docs, chunks []eval.ScoredDoc)) (docRun, chunkRun eval.Run) {
	d := make([][]eval.ScoredDoc, len(ids))
	c := make([][]eval.ScoredDoc, len(ids))
	Parallel(len(ids), func(i int) { d[i], c[i] = search(i) })
	docRun = eval.Run{Tag: tag, Queries: make(map[string][]eval.ScoredDoc, len(ids))}
	chunkRun = eval.Run{Tag: tag, Queries: make(map[string][]eval.ScoredDoc, len(ids))}
	for i, id := range ids {
		docRun.Queries[id] = d[i]
		if chunks {
			chunkRun.Queries[id] = c[i]
		}
	}
	return docRun, chunkRun
}

// Parallel calls fn(i) for i in [0, n) on all CPUs.
func Parallel(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), max(1, n))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += workers {
				fn(i)
			}
		}()
	}
	wg.Wait()
}

// ChunkID is the ID a searcher gives the i-th chunk (from 0, in window order) of document doc:
// doc + "#" + i. IDs are unique: the text after the last "#" is the chunk number. Whole documents
// are chunk 0 of themselves.
func ChunkID(doc string, i int) string { return doc + "#" + strconv.Itoa(i) }
