package scan

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// Stdin is the path that names standard input.
const Stdin = "-"

// Open opens path ("-" for standard input) and returns a reader over its content, gunzipped when
// it starts with gzip's magic bytes (1f 8b), whatever its name (see Decompress), and the function
// that closes it. A path given to Keep is read from its kept copy. A gzip header that does not
// parse, or a bzip2, xz or zstd file, is returned as the error.
func Open(path string) (io.Reader, func() error, error) {
	s, err := OpenSource(path, false)
	if err != nil {
		return nil, nil, err
	}
	return s.Reader, s.Close, nil
}

// Source is an opened input that can be read again from its start, without opening its path
// again: a regular file is rewound; anything else (a pipe, standard input, a process
// substitution) is read through a copy (see Keep), so what was read once can be read again.
type Source struct {
	Reader io.Reader // the content, gunzipped when it is gzip

	raw      *os.File // a regular file, or nil
	closeRaw bool
	kept     *kept // a non-seekable input's copy, or nil
	own      bool  // kept belongs to this Source (not to Keep)
}

// OpenSource opens path ("-" for standard input). With replay, Replay can later give the whole
// content again: a regular file is rewound; an input that cannot seek is copied as it is read,
// to memory up to 64 MiB and beyond that to an unlinked file in $TMPDIR. The copy is only read
// back when Replay is called; a copy that cannot be written (a full $TMPDIR) is an error only
// then, and the error says how many bytes of $TMPDIR a second reading needs.
func OpenSource(path string, replay bool) (*Source, error) {
	if k := keptInput(path); k != nil {
		s := &Source{kept: k}
		return s, s.start(k.reader())
	}
	s := &Source{}
	var f *os.File
	if path == Stdin {
		f = os.Stdin
	} else {
		var err error
		if f, err = os.Open(path); err != nil {
			return nil, err
		}
		s.closeRaw = true
	}
	st, err := f.Stat()
	regular := err == nil && st.Mode().IsRegular()
	s.raw = f
	if replay && !regular {
		s.kept = newKept(f, s.closeRaw)
		s.own, s.raw, s.closeRaw = true, nil, false
		return s, s.start(s.kept.reader())
	}
	return s, s.start(f)
}

// start sets Reader to the decompressed content of r; on an error it closes s.
func (s *Source) start(r io.Reader) error {
	d, err := Decompress(r)
	if err != nil {
		s.Close()
		return err
	}
	s.Reader = d
	return nil
}

// Replay returns a reader over the whole content from its start (gunzipped as before); each
// call starts again, and the reader of an earlier call is no longer to be used. It must be
// called on a Source opened with replay or from a kept path.
func (s *Source) Replay() (io.Reader, error) {
	switch {
	case s.kept != nil:
		return Decompress(s.kept.reader())
	case s.raw != nil:
		if st, err := s.raw.Stat(); err != nil || !st.Mode().IsRegular() {
			return nil, errors.New("scan: Replay on a source opened without replay")
		}
		if _, err := s.raw.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		return Decompress(s.raw)
	}
	return nil, errors.New("scan: Replay on a closed source")
}

// Close closes the input (standard input stays open) and a copy that belongs to it.
func (s *Source) Close() error {
	if s.own && s.kept != nil {
		s.kept.close()
	}
	if s.closeRaw && s.raw != nil {
		return s.raw.Close()
	}
	return nil
}

// Keep makes the inputs at paths readable more than once within this process: each one that
// is not a regular file ("-", a pipe, a process substitution such as /dev/fd/63) is copied as
// it is first read (to memory up to 64 MiB, beyond that to an unlinked file in $TMPDIR), and
// every later Open or OpenSource of the same path reads the copy from its start, then the rest
// of the input. Regular files need nothing (they are opened again). A command that reads one
// input several times (an evaluation, its preflight, the SHA-256 of its stamp) calls Keep first,
// so no reading consumes what another needs. release drops the copies.
func Keep(paths ...string) (release func()) {
	keptMu.Lock()
	defer keptMu.Unlock()
	var mine []string
	for _, p := range paths {
		if _, ok := keptInputs[p]; ok {
			continue
		}
		if p != Stdin {
			if st, err := os.Stat(p); err != nil || st.Mode().IsRegular() {
				continue // a regular file is opened again; an error is the reader's to report
			}
		}
		keptInputs[p] = nil // opened on first use
		mine = append(mine, p)
	}
	return func() {
		keptMu.Lock()
		defer keptMu.Unlock()
		for _, p := range mine {
			if k := keptInputs[p]; k != nil {
				k.close()
			}
			delete(keptInputs, p)
		}
	}
}

var (
	keptMu     sync.Mutex
	keptInputs = map[string]*kept{}
)

// keptInput returns the copy of path when Keep was called for it, opening the input on first
// use; nil when it was not (or it cannot be opened: the caller's open then reports why).
func keptInput(path string) *kept {
	keptMu.Lock()
	defer keptMu.Unlock()
	k, ok := keptInputs[path]
	if !ok {
		return nil
	}
	if k == nil {
		f, closeRaw := os.Stdin, false
		if path != Stdin {
			var err error
			if f, err = os.Open(path); err != nil {
				return nil
			}
			closeRaw = true
		}
		k = newKept(f, closeRaw)
		keptInputs[path] = k
	}
	return k
}

// MemSpool is how much of a non-seekable input is copied to memory before $TMPDIR is used (a
// variable for tests).
var MemSpool = 64 << 20

// kept is a non-seekable input and the copy of what has been read of it.
type kept struct {
	mu       sync.Mutex
	raw      *os.File
	closeRaw bool
	eof      bool
	rawErr   error
	mem      []byte   // the first bytes of the copy
	file     *os.File // the bytes after mem (unlinked), once mem is full
	fileSize int64    // bytes in file
	size     int64    // bytes read from raw
	spoolErr error    // the copy stopped (a full $TMPDIR): bytes from spoolAt on are not kept
	spoolAt  int64
}

func newKept(f *os.File, closeRaw bool) *kept { return &kept{raw: f, closeRaw: closeRaw} }

func (k *kept) close() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.file != nil {
		k.file.Close()
	}
	if k.closeRaw {
		k.raw.Close()
	}
	k.mem, k.file = nil, nil
}

// reader returns a reader of the input from its start: the copy, then the rest of the input.
func (k *kept) reader() io.Reader { return &keptReader{k: k} }

type keptReader struct {
	k   *kept
	off int64
}

func (r *keptReader) Read(p []byte) (int, error) {
	k := r.k
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(p) == 0 {
		return 0, nil
	}
	if r.off < k.size {
		if k.spoolErr != nil && r.off >= k.spoolAt {
			return 0, k.tmpErr()
		}
		end := k.size
		if k.spoolErr != nil {
			end = k.spoolAt
		}
		n := int(min(int64(len(p)), end-r.off))
		var err error
		if r.off < int64(len(k.mem)) {
			n = copy(p[:n], k.mem[r.off:])
		} else {
			n, err = k.file.ReadAt(p[:n], r.off-int64(len(k.mem)))
			if err == io.EOF && n > 0 {
				err = nil
			}
		}
		r.off += int64(n)
		return n, err
	}
	if k.eof {
		return 0, io.EOF
	}
	if k.rawErr != nil {
		return 0, k.rawErr
	}
	n, err := k.raw.Read(p)
	if n > 0 {
		k.spool(p[:n])
		k.size += int64(n)
		r.off += int64(n)
	}
	if err == io.EOF {
		k.eof = true
		if n > 0 {
			err = nil
		}
	} else if err != nil {
		k.rawErr = err
	}
	return n, err
}

// spool appends b to the copy; a failure only marks where the copy stops.
func (k *kept) spool(b []byte) {
	if k.spoolErr != nil {
		return
	}
	if room := MemSpool - len(k.mem); room > 0 {
		m := min(room, len(b))
		k.mem = append(k.mem, b[:m]...)
		b = b[m:]
		if len(b) == 0 {
			return
		}
	}
	stop := func(err error) { k.spoolErr, k.spoolAt = err, int64(len(k.mem))+k.fileSize }
	if k.file == nil {
		f, err := os.CreateTemp("", "ranklab-spool-*")
		if err != nil {
			stop(err)
			return
		}
		os.Remove(f.Name()) // unlinked: nothing is left behind, whatever happens
		k.file = f
	}
	n, err := k.file.WriteAt(b, k.fileSize)
	k.fileSize += int64(n)
	if err != nil {
		stop(err)
	}
}

// tmpErr says that reading the input again needs $TMPDIR room it did not get.
func (k *kept) tmpErr() error {
	return &SpoolError{Need: k.size - int64(len(k.mem)), Dir: os.TempDir(), Err: k.spoolErr}
}

// SpoolError is returned when an input that cannot seek must be read a second time and its copy
// could not be kept in $TMPDIR.
type SpoolError struct {
	Need int64  // bytes of the input beyond the in-memory part (at least; more may follow)
	Dir  string // the temporary directory ($TMPDIR)
	Err  error
}

func (e *SpoolError) Error() string {
	return fmt.Sprintf("reading this non-seekable input (a pipe) a second time needs a copy of at least %d bytes in $TMPDIR (%s), which failed: %v; give it as a regular file or set TMPDIR to a folder with room", e.Need, e.Dir, e.Err)
}

func (e *SpoolError) Unwrap() error { return e.Err }

// Compression errors: what the opening of a file names.
var (
	// ErrTruncated is what a gzip stream that ends early reads as.
	ErrTruncated = errors.New("gzip stream ends early (truncated file)")
	// ErrTrailingGarbage is data after the last gzip member that is neither another member nor
	// zero padding (gzip -t calls it "trailing garbage").
	ErrTrailingGarbage = errors.New("trailing garbage after the gzip data (neither another gzip member nor zero padding)")
	// ErrCompressed is a file compressed with something other than gzip.
	ErrCompressed = errors.New("compressed file that is not gzip")
)

// ReadError describes a read error of the content: a gzip stream that ends early becomes
// ErrTruncated, other errors are kept.
func ReadError(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return ErrTruncated
	}
	return err
}

// magics are the compression formats recognised by their first bytes, besides gzip.
var magics = []struct {
	name, tool string
	magic      []byte
}{
	{"xz", "unxz", []byte{0xFD, '7', 'z', 'X', 'Z', 0x00}},
	{"zstd", "unzstd", []byte{0x28, 0xB5, 0x2F, 0xFD}},
	{"bzip2", "bunzip2", []byte("BZh")},
}

// Decompress returns a buffered reader over r, gunzipped when r starts with gzip's magic bytes
// (1f 8b), as gzip -d does: concatenated members are read one after the other, zero bytes after
// the last member are ignored, anything else after it is ErrTrailingGarbage, and a stream that
// ends early is ErrTruncated. An input that starts with the magic bytes of bzip2 (BZh, a block
// size digit and a block or end marker), xz or zstd is refused with ErrCompressed, naming the
// format.
func Decompress(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	head, _ := br.Peek(10)
	if bytes.HasPrefix(head, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, ReadError(err)
		}
		zr.Multistream(false)
		return &gzipReader{br: br, zr: zr}, nil
	}
	for _, m := range magics {
		if !bytes.HasPrefix(head, m.magic) {
			continue
		}
		if m.name == "bzip2" && !isBzip2(head) {
			continue
		}
		return nil, fmt.Errorf("%w: %s (decompress it first, e.g. %s -k FILE, or recompress with gzip)", ErrCompressed, m.name, m.tool)
	}
	return br, nil
}

// isBzip2 reports whether head (10 bytes) is a bzip2 header: "BZh", a block size digit 1 to 9,
// then the block magic (the digits of pi) or the end-of-stream magic (an empty file).
func isBzip2(head []byte) bool {
	if len(head) < 10 || head[3] < '1' || head[3] > '9' {
		return false
	}
	b := head[4:10]
	return bytes.Equal(b, []byte{0x31, 0x41, 0x59, 0x26, 0x53, 0x59}) || bytes.Equal(b, []byte{0x17, 0x72, 0x45, 0x38, 0x50, 0x90})
}

// gzipReader reads gzip members one after the other (as gzip -d does).
type gzipReader struct {
	br  *bufio.Reader
	zr  *gzip.Reader
	err error
}

func (g *gzipReader) Read(p []byte) (int, error) {
	for g.err == nil {
		n, err := g.zr.Read(p)
		if err == io.EOF {
			err = g.next()
			if n > 0 || err == nil {
				if err == io.EOF {
					g.err = io.EOF
					err = nil
				}
				if n > 0 {
					if err != nil {
						g.err = err
					}
					return n, nil
				}
				continue
			}
			g.err = err
			break
		}
		if err != nil {
			g.err = ReadError(err)
			if n > 0 {
				return n, nil
			}
			break
		}
		if n > 0 || len(p) == 0 {
			return n, nil
		}
	}
	return 0, g.err
}

// next moves to the next member after one has ended: io.EOF at the end of the input or of
// zero padding, ErrTrailingGarbage for anything else.
func (g *gzipReader) next() error {
	head, err := g.br.Peek(2)
	if len(head) == 0 && err == io.EOF {
		return io.EOF
	}
	if bytes.Equal(head, []byte{0x1f, 0x8b}) {
		if err := g.zr.Reset(g.br); err != nil {
			return ReadError(err)
		}
		g.zr.Multistream(false)
		return nil
	}
	for {
		b, err := g.br.ReadByte()
		if err == io.EOF {
			return io.EOF // only zero bytes followed the data
		}
		if err != nil {
			return err
		}
		if b != 0 {
			return ErrTrailingGarbage
		}
	}
}
