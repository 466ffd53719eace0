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
	pool := newPool()
	var readErr error
	go func() {
		defer close(blocks)
		seq := 0
		readErr = readBlocks(r, pool, func(b []byte) bool {
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

// newPool returns a pool of block buffers.
func newPool() *sync.Pool {
	return &sync.Pool{New: func() any { return make([]byte, 0, blockSize+blockSize/4) }}
}

// readBlocks reads r and calls send with blocks of whole lines that end where the query ID (the
// first field) changes, or at the end of the input. A UTF-8 byte-order mark at the start of the
// input is dropped. Blank lines and comment lines (first non-blank byte '#') never start a new
// query. Each byte is examined once, whatever the sizes of r's reads, so the cost is linear
// even for one query larger than the buffer read in short pieces (a gzip or pipe reader). On a
// read error the complete lines read so far are sent first, then the error is returned. It
// stops when send returns false.
func readBlocks(r io.Reader, pool *sync.Pool, send func([]byte) bool) error {
	buf := pool.Get().([]byte)[:0]
	scanned := 0       // buf[:scanned] holds complete lines already examined
	searched := 0      // buf[scanned:searched] holds no newline
	groupStart := 0    // start of the trailing run of lines with the query ID buf[qs:qe]
	qs, qe := 0, 0     // the current query ID, as offsets into buf
	haveQuery := false // whether buf[qs:qe] is set
	bomChecked := false
	var f [1][]byte
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, cap(buf)) // one query larger than the buffer: grow
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if !bomChecked {
			if len(buf) < len(BOM) && err == nil {
				continue
			}
			bomChecked = true
			if bytes.HasPrefix(buf, BOM) {
				buf = buf[:copy(buf, buf[len(BOM):])]
			}
		}
		if examined != nil {
			examined(len(buf) - searched)
		}
		for {
			nl := bytes.IndexByte(buf[searched:], '\n')
			if nl < 0 {
				searched = len(buf)
				break
			}
			nl += searched - scanned
			line := buf[scanned : scanned+nl]
			if fs, _ := Fields(line, f[:0], 1); len(fs) > 0 && fs[0][0] != '#' {
				id := fs[0]
				if !haveQuery || !bytes.Equal(id, buf[qs:qe]) {
					groupStart = scanned
					qs = scanned + idOffset(line, id)
					qe = qs + len(id)
					haveQuery = true
				}
			}
			scanned += nl + 1
			searched = scanned
		}
		if err == io.EOF {
			if len(buf) > 0 {
				send(buf)
			}
			return nil
		}
		if err != nil {
			if scanned > 0 {
				send(buf[:scanned])
			}
			return err
		}
		if len(buf) < blockSize || groupStart == 0 {
			continue
		}
		next := pool.Get().([]byte)
		next = append(next[:0], buf[groupStart:]...)
		if !send(buf[:groupStart]) {
			return nil
		}
		scanned -= groupStart
		searched -= groupStart
		qs -= groupStart
		qe -= groupStart
		groupStart = 0
		buf = next
	}
}

// examined, when set (by tests), is told how many bytes readBlocks looks at after each read.
var examined func(n int)

// idOffset returns the offset of field id (a subslice of line) within line.
func idOffset(line, id []byte) int {
	return cap(line) - cap(id)
}
