package embed

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// readVectors reads vectors in the reference files' format (../shared/anchors/dense/*.tsv): one
// per line, "id<TAB>x1 x2 … xd" with space-separated decimal numbers, every line of the same
// dimension. Blank lines are skipped; errors are "name:line: message".
func readVectors(r io.Reader, name string) (ids []string, vecs [][]float32, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		id, nums, ok := strings.Cut(line, "\t")
		if !ok || id == "" {
			return nil, nil, fmt.Errorf("%s:%d: want id<TAB>numbers", name, n)
		}
		fields := strings.Fields(nums)
		if len(fields) == 0 {
			return nil, nil, fmt.Errorf("%s:%d: no numbers after %q", name, n, id)
		}
		if len(vecs) > 0 && len(fields) != len(vecs[0]) {
			return nil, nil, fmt.Errorf("%s:%d: %d numbers, the first line has %d", name, n, len(fields), len(vecs[0]))
		}
		v := make([]float32, len(fields))
		for i, f := range fields {
			x, err := strconv.ParseFloat(f, 32)
			if err != nil {
				return nil, nil, fmt.Errorf("%s:%d: number %d: %w", name, n, i+1, err)
			}
			v[i] = float32(x)
		}
		ids = append(ids, id)
		vecs = append(vecs, v)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s:%d: %w", name, n+1, err)
	}
	return ids, vecs, nil
}
