package judge

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/ranklab/ranklab/internal/scan"
	"github.com/ranklab/ranklab/pool"
)

// qrelsFile is the judgments file as it is on disk: its grades, its lines (so a rewrite keeps
// what a person wrote: comments, blank lines, the order, the spacing of lines it does not
// change) and when it was last changed.
type qrelsFile struct {
	grades map[pool.Pair]int
	lines  []qrelsLine
	info   fs.FileInfo // nil: no file
}

// qrelsLine is one line of the file: a pair and its grade, or any other line (a comment, a
// blank line), kept as it is.
type qrelsLine struct {
	text  string
	pair  pool.Pair
	grade int
	data  bool // a pair line
}

// modTime is when the file was last written (the zero time: no file).
func (f qrelsFile) modTime() time.Time {
	if f.info == nil {
		return time.Time{}
	}
	return f.info.ModTime()
}

// readQrelsFile reads the judgments file at path (none is an empty one), with pool's reader:
// the same errors "path:line: ..." as every tool that reads it.
func readQrelsFile(path string) (qrelsFile, error) {
	f := qrelsFile{grades: map[pool.Pair]int{}}
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	} else if err != nil {
		return f, err
	}
	f.info = info
	data, err := os.ReadFile(path)
	if err != nil {
		return f, err
	}
	pairs, grades, err := pool.ReadFile(path)
	if err != nil {
		return f, err
	}
	// The same lines pool's reader saw, with their text: its k-th pair is the k-th data line.
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	k := 0
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		t := text
		if n == 1 {
			t = strings.TrimPrefix(t, "\ufeff") // as pool's reader does
		}
		fields := strings.FieldsFunc(t, func(r rune) bool { return r < 128 && scan.IsSpace(byte(r)) })
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			f.lines = append(f.lines, qrelsLine{text: text})
			continue
		}
		if k >= len(pairs) || pairs[k] != (pool.Pair{Query: fields[0], Doc: fields[2]}) {
			return f, fmt.Errorf("%s:%d: judge: the file changed while it was read", path, n)
		}
		f.lines = append(f.lines, qrelsLine{text: text, pair: pairs[k], grade: grades[k], data: true})
		f.grades[pairs[k]] = grades[k]
		k++
	}
	if k != len(pairs) {
		return f, fmt.Errorf("%s: judge: the file changed while it was read", path)
	}
	return f, nil
}

// render returns the file's new content for grades: each line of lines in place (a pair line
// as it was when its grade is unchanged, "query 0 doc grade" when it changed, gone when the pair
// has no grade any more), then the pairs lines lacks, sorted by query, then doc. It returns the
// new lines too.
func render(lines []qrelsLine, grades map[pool.Pair]int) ([]byte, []qrelsLine) {
	var buf bytes.Buffer
	var out []qrelsLine
	inFile := map[pool.Pair]bool{}
	for _, l := range lines {
		if l.data {
			inFile[l.pair] = true
			g, ok := grades[l.pair]
			if !ok {
				continue
			}
			if g != l.grade {
				l = qrelsLine{text: fmt.Sprintf("%s 0 %s %d", l.pair.Query, l.pair.Doc, g), pair: l.pair, grade: g, data: true}
			}
		}
		buf.WriteString(l.text)
		buf.WriteByte('\n')
		out = append(out, l)
	}
	var added []pool.Pair
	for p := range grades {
		if !inFile[p] {
			added = append(added, p)
		}
	}
	slices.SortFunc(added, comparePairs)
	for _, p := range added {
		l := qrelsLine{text: fmt.Sprintf("%s 0 %s %d", p.Query, p.Doc, grades[p]), pair: p, grade: grades[p], data: true}
		buf.WriteString(l.text)
		buf.WriteByte('\n')
		out = append(out, l)
	}
	return buf.Bytes(), out
}

func comparePairs(a, b pool.Pair) int {
	if c := strings.Compare(a.Query, b.Query); c != 0 {
		return c
	}
	return strings.Compare(a.Doc, b.Doc)
}
