package scan

import (
	"bytes"
	"fmt"
	"io"
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
	if total > len(input) {
		t.Errorf("examined %d bytes after reads of %d bytes of input: not linear", total, len(input))
	}
	if got := bytes.Join(blocks, nil); !bytes.Equal(got, input) {
		t.Fatalf("blocks do not add up to the input")
	}
	if len(blocks) != 2 || !bytes.HasPrefix(blocks[1], []byte("q2 ")) {
		t.Errorf("got %d blocks, want the big query then q2", len(blocks))
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
