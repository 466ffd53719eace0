package scan

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
)

// Stdin is the path that names standard input.
const Stdin = "-"

// Open opens path ("-" for standard input) and returns a reader over its content, gunzipped when
// it starts with gzip's magic bytes (1f 8b), whatever its name, and the function that closes it.
// A gzip header that does not parse is returned as the error (see ReadError).
func Open(path string) (io.Reader, func() error, error) {
	s, err := OpenSource(path, false)
	if err != nil {
		return nil, nil, err
	}
	return s.Reader, s.Close, nil
}

// decompress returns a buffered reader over r, gunzipped when r starts with gzip's magic bytes.
func decompress(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	magic, _ := br.Peek(2)
	if bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, ReadError(err)
		}
		return zr, nil
	}
	return br, nil
}

// Source is an opened input that can be read again from its start once, without opening its path
// again: a regular file is rewound, anything else (a pipe, standard input, a process
// substitution) is copied to an unlinked temporary file as it is read.
type Source struct {
	Reader io.Reader // the content, gunzipped when it is gzip

	raw      *os.File
	closeRaw bool
	seekable bool
	spool    *os.File // the raw bytes read so far, for an input that cannot seek
	spooled  bool     // the spool holds the whole input
}

// OpenSource opens path ("-" for standard input). With replay, Replay can later give the whole
// content again.
func OpenSource(path string, replay bool) (*Source, error) {
	s := &Source{}
	if path == Stdin {
		s.raw = os.Stdin
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		s.raw, s.closeRaw = f, true
	}
	var src io.Reader = s.raw
	if replay {
		if st, err := s.raw.Stat(); err == nil && st.Mode().IsRegular() {
			s.seekable = true
		} else {
			spool, err := os.CreateTemp("", "ranklab-spool-*")
			if err != nil {
				s.Close()
				return nil, fmt.Errorf("cannot create the temporary copy of a non-seekable input: %w", err)
			}
			os.Remove(spool.Name()) // unlinked: nothing is left behind, whatever happens
			s.spool = spool
			src = io.TeeReader(s.raw, spool)
		}
	}
	r, err := decompress(src)
	if err != nil {
		s.Close()
		return nil, err
	}
	s.Reader = r
	return s, nil
}

// Replay returns a reader over the whole content from its start (gunzipped as before); each
// call starts again, and the reader of an earlier call is no longer to be used. For an input
// that cannot seek the first call copies the rest of the input to the temporary file. It must
// be called on a Source opened with replay.
func (s *Source) Replay() (io.Reader, error) {
	var src io.ReadSeeker
	switch {
	case s.seekable:
		src = s.raw
	case s.spool != nil:
		if !s.spooled {
			if _, err := io.Copy(s.spool, s.raw); err != nil {
				return nil, err
			}
			s.spooled = true
		}
		src = s.spool
	default:
		return nil, errors.New("scan: Replay on a source opened without replay")
	}
	if _, err := src.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return decompress(src)
}

// Close closes the input (standard input stays open) and the temporary copy.
func (s *Source) Close() error {
	if s.spool != nil {
		s.spool.Close()
	}
	if s.closeRaw {
		return s.raw.Close()
	}
	return nil
}

// ErrTruncated is what a gzip stream that ends early reads as.
var ErrTruncated = errors.New("gzip stream ends early (truncated file)")

// ReadError describes a read error of the content: a gzip stream that ends early becomes
// ErrTruncated, other errors are kept.
func ReadError(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return ErrTruncated
	}
	return err
}
