package scan

import (
	"bytes"
	"io"
	"slices"
	"sync"
)

// blockSize is the size of the blocks a run is cut into (rounded to whole queries).
const blockSize = 1 << 19

// Pipeline cuts r into blocks of whole lines that end where the first field (the query ID)
// changes, so a query whose lines are adjacent never straddles two blocks; hands them to
// workers goroutines, each with its own process function from newWorker; and calls merge with
// their results in input order, on the calling goroutine. merge returns false to stop early.
// A block's bytes are reused once merge has returned, so a result must not alias them. The
// error is r's read error, if any; a block then ends the input.
func Pipeline[R any](r io.Reader, workers int, newWorker func() func([]byte) R, merge func(R) bool) error {
	workers = max(1, workers)
	type block struct {
		seq  int
		data []byte
	}
	type result struct {
		seq  int
		data []byte
		r    R
	}
	blocks := make(chan block, workers)
	results := make(chan result, workers)
	done := make(chan struct{})
	pool := sync.Pool{New: func() any { return make([]byte, 0, blockSize+blockSize/4) }}
	var readErr error
	go func() {
		defer close(blocks)
		seq := 0
		readErr = readBlocks(r, &pool, func(b []byte) bool {
			select {
			case blocks <- block{seq, b}:
				seq++
				return true
			case <-done:
				return false
			}
		})
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			process := newWorker()
			for b := range blocks {
				results <- result{b.seq, b.data, process(b.data)}
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	pending := map[int]result{}
	next, stopped := 0, false
	for res := range results {
		if stopped {
			continue // drain
		}
		pending[res.seq] = res
		for {
			p, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			keep := merge(p.r)
			pool.Put(p.data[:0])
			if !keep {
				stopped = true
				close(done)
				break
			}
		}
	}
	if !stopped {
		close(done)
	}
	return readErr
}

// readBlocks reads r and calls send with blocks that end at a line where the query changes (or
// at the end of the input). It stops when send returns false.
func readBlocks(r io.Reader, pool *sync.Pool, send func([]byte) bool) error {
	buf := pool.Get().([]byte)
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, cap(buf)) // one query larger than the buffer: grow
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			if len(buf) > 0 {
				send(buf)
			}
			return nil
		}
		if err != nil {
			return err
		}
		if len(buf) < blockSize {
			continue
		}
		cut := queryCut(buf)
		if cut <= 0 {
			continue
		}
		next := pool.Get().([]byte)
		next = append(next[:0], buf[cut:]...)
		if !send(buf[:cut]) {
			return nil
		}
		buf = next
	}
}

// queryCut returns the start of the last group of complete lines of b that share a first
// field (the block before it holds whole queries), or -1 when b's complete lines hold no change
// of first field.
func queryCut(b []byte) int {
	end := bytes.LastIndexByte(b, '\n')
	if end < 0 {
		return -1
	}
	start := bytes.LastIndexByte(b[:end], '\n') + 1
	var f [1][]byte
	first := func(line []byte) []byte {
		fs, _ := Fields(line, f[:0], 1)
		if len(fs) == 0 {
			return nil
		}
		return fs[0]
	}
	qid := first(b[start:end])
	for start > 0 {
		prev := bytes.LastIndexByte(b[:start-1], '\n') + 1
		if !bytes.Equal(first(b[prev:start-1]), qid) {
			return start
		}
		start = prev
	}
	return -1
}
