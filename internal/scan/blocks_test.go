package scan

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// shortReader returns at most n bytes a read, as gzip and pipe readers do.
type shortReader struct {
	r io.Reader
	n int
}

func (s shortReader) Read(p []byte) (int, error) { return s.r.Read(p[:min(len(p), s.n)]) }

// TestReadBlocksLinear: one query larger than a block read in short pieces used to re-scan the
// whole buffer at every read (1.4 s plain, 52.7 s gzipped for 2,000,000 docs). Each byte must be
// looked at once after the read that brings it, whatever the read sizes.
func TestReadBlocksLinear(t *testing.T) {
	var b bytes.Buffer
	for i := range 200000 {
		fmt.Fprintf(&b, "q1 Q0 doc%d %d 1.%d run\n", i, i, i%97)
	}
	b.WriteString("q2 Q0 a 1 1 run\n")
	input := b.Bytes()
	total := 0
	examined = func(n int) { total += n }
	defer func() { examined = nil }()
	var blocks [][]byte
	err := readBlocks(shortReader{bytes.NewReader(input), 4096}, newPool(), func(p []byte) bool {
		blocks = append(blocks, append([]byte(nil), p...))
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if total > 2*len(input) { // each byte searched for a newline once, walked back at most once
		t.Errorf("examined %d bytes after reads of %d bytes of input: not linear", total, len(input))
	}
	if got := bytes.Join(blocks, nil); !bytes.Equal(got, input) {
		t.Fatalf("blocks do not add up to the input")
	}
	if len(blocks) != 2 || !bytes.HasPrefix(blocks[1], []byte("q2 ")) {
		t.Errorf("got %d blocks, want the big query then q2", len(blocks))
	}
}

// TestReadBlocksLongLine is defect 18 of issue 33: a long line arriving in short reads (a pipe,
// gzip) was searched for its newline from its start after every read, O(L²/read): a 60 MiB line
// piped into eval took 9.1 s against 0.3 s from a file. Each byte is searched once now.
func TestReadBlocksLongLine(t *testing.T) {
	input := append(bytes.Repeat([]byte("x"), 8<<20), "\nq2 Q0 a 1 1 run\n"...)
	input[0], input[1] = 'q', ' '
	total := 0
	examined = func(n int) { total += n }
	defer func() { examined = nil }()
	var got []byte
	err := readBlocks(shortReader{bytes.NewReader(input), 4096}, newPool(), func(p []byte) bool {
		got = append(got, p...)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, input) {
		t.Fatal("blocks do not add up to the input")
	}
	if total > 2*len(input) {
		t.Errorf("examined %d bytes for a line of %d bytes read 4096 at a time: quadratic", total, len(input))
	}
}

// TestReadBlocks checks the cuts: whole queries, comments and blank lines kept with the query
// before them, a byte-order mark dropped, complete lines sent before a read error.
func TestReadBlocks(t *testing.T) {
	var b strings.Builder
	b.WriteString("\xef\xbb\xbf")
	for q := range 50 {
		for d := range 2000 {
			fmt.Fprintf(&b, "q%d Q0 d%d 1 1 run\n", q, d)
		}
		b.WriteString("# a comment\n\n")
	}
	text := b.String()
	var blocks []string
	err := readBlocks(shortReader{strings.NewReader(text), 1000}, newPool(), func(p []byte) bool {
		blocks = append(blocks, string(p))
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(blocks, "") != text[3:] {
		t.Fatal("blocks do not add up to the input without its BOM")
	}
	if len(blocks) < 2 {
		t.Fatalf("%d blocks, want several", len(blocks))
	}
	for i, blk := range blocks[1:] {
		if !strings.HasPrefix(blk, "q") || !strings.HasSuffix(blocks[i], "# a comment\n\n") {
			t.Errorf("block %d starts with %.20q after %.20q: not at a query boundary", i+1, blk, blocks[i][max(0, len(blocks[i])-20):])
		}
	}
	// A read error: the complete lines come first, then the error.
	failing := io.MultiReader(strings.NewReader("q1 Q0 a 1 1 t\nq1 Q0 b"), errReader{})
	var got []string
	err = readBlocks(failing, newPool(), func(p []byte) bool { got = append(got, string(p)); return true })
	if err != errTest || strings.Join(got, "") != "q1 Q0 a 1 1 t\n" {
		t.Errorf("got %q, %v; want the complete line, then the error", got, err)
	}
}

var errTest = fmt.Errorf("test read error")

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errTest }

// BenchmarkLongLine reads a 60 MiB line, then a short query, from a file and through a pipe (short
// reads, as from cat or gzip): the two should cost about the same (defect 18 of issue 33: the
// pipe took 9.1 s against 0.3 s). go test -run '^$' -bench LongLine ./internal/scan
func BenchmarkLongLine(b *testing.B) {
	input := append(bytes.Repeat([]byte("x"), 60<<20), "\nq2 Q0 a 1 1 run\n"...)
	input[0], input[1] = 'q', ' '
	path := filepath.Join(b.TempDir(), "long.run")
	if err := os.WriteFile(path, input, 0o644); err != nil {
		b.Fatal(err)
	}
	read := func(b *testing.B, r io.Reader) {
		n := 0
		if err := readBlocks(r, newPool(), func(p []byte) bool { n += len(p); return true }); err != nil || n != len(input) {
			b.Fatalf("%d bytes, %v", n, err)
		}
	}
	b.Run("file", func(b *testing.B) {
		b.SetBytes(int64(len(input)))
		for range b.N {
			f, err := os.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			read(b, f)
			f.Close()
		}
	})
	b.Run("pipe", func(b *testing.B) {
		b.SetBytes(int64(len(input)))
		for range b.N {
			pr, pw, err := os.Pipe()
			if err != nil {
				b.Fatal(err)
			}
			go func() {
				f, _ := os.Open(path)
				io.Copy(pw, f)
				f.Close()
				pw.Close()
			}()
			read(b, pr)
			pr.Close()
		}
	})
}
