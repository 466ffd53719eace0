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
// query. Once a block's worth is read, the lines are looked at backwards from the last complete
// one until the query ID changes (usually a few lines: the last query), and never below the
// lines already looked at, whose grouping is remembered, and the search for the last newline
// starts where the previous one ended; so each byte is searched once and walked at most once,
// whatever the sizes of r's reads, and the cost is linear even for one query larger than the
// buffer read in short pieces (a gzip or pipe reader). A line longer than MaxLine (+1 for a
// CR) ends the input with ErrLineTooLong once MaxLine+1 bytes of it are read (so /dev/zero
// ends). On a read error or ErrLineTooLong the complete lines read
// so far are sent first, then the error is returned. It stops when send returns false.
func readBlocks(r io.Reader, pool *sync.Pool, send func([]byte) bool) error {
	buf := pool.Get().([]byte)[:0]
	// buf[:known] holds complete lines already looked at: one query, ID buf[qs:qe] when
	// haveQuery (with the comment and blank lines around it).
	known := 0
	searched := 0 // buf[known:searched] holds no newline: a long line's bytes are searched once
	qs, qe := 0, 0
	haveQuery := false
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
		if err == io.EOF {
			if len(buf) > 0 {
				send(buf)
			}
			return nil
		}
		if err != nil {
			if end := bytes.LastIndexByte(buf, '\n') + 1; end > 0 {
				send(buf[:end])
			}
			return err
		}
		if len(buf) < blockSize {
			continue
		}
		from := max(known, searched)
		end := bytes.LastIndexByte(buf[from:], '\n')
		if examined != nil {
			examined(len(buf) - from)
		}
		searched = len(buf)
		if end < 0 {
			if len(buf)-known > MaxLine+1 { // the line after known has no end within the cap
				if known > 0 {
					send(buf[:known])
				}
				return ErrLineTooLong
			}
			continue
		}
		end += from + 1 // buf[:end]: complete lines
		// Walk back from the last complete line to the first change of query ID.
		var tail []byte // the ID of the last query
		tailStart, cut := 0, 0
		looked := 0
		for pos := end; pos > known; {
			start := bytes.LastIndexByte(buf[known:pos-1], '\n') + 1 + known
			looked += pos - start
			if fs, _ := Fields(buf[start:pos-1], f[:0], 1); len(fs) > 0 && fs[0][0] != '#' {
				switch {
				case tail == nil:
					tail, tailStart = fs[0], start
				case bytes.Equal(fs[0], tail):
					tailStart = start
				default:
					cut = tailStart
				}
			}
			if cut > 0 {
				break
			}
			pos = start
		}
		if examined != nil {
			examined(looked)
		}
		if tail != nil {
			if cut == 0 && haveQuery && !bytes.Equal(tail, buf[qs:qe]) {
				cut = tailStart // the lines looked at before hold one new query
			}
			qs = tailStart + idOffset(buf[tailStart:], tail)
			qe = qs + len(tail)
			haveQuery = true
		}
		known = end
		if cut == 0 {
			continue
		}
		next := pool.Get().([]byte)
		next = append(next[:0], buf[cut:]...)
		if !send(buf[:cut]) {
			return nil
		}
		known -= cut
		searched -= cut
		qs -= cut
		qe -= cut
		buf = next
	}
}

// examined, when set (by tests), is told how many bytes readBlocks looks at after each read:
// those searched for the last newline, then those walked back to the last change of query.
var examined func(n int)

// idOffset returns the offset of field id (a subslice of line) within line.
func idOffset(line, id []byte) int {
	return cap(line) - cap(id)
}
