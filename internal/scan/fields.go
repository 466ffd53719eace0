package scan

// IsSpace reports whether c separates fields in TREC files: space, \t, \n, \v, \f or \r.
func IsSpace(c byte) bool { return spaceTable[c] }

var spaceTable = func() (t [256]bool) {
	for _, c := range []byte{' ', '\t', '\n', '\v', '\f', '\r'} {
		t[c] = true
	}
	return t
}()

// Fields appends to dst the fields of line separated by ASCII whitespace (IsSpace), at most n of
// them when n > 0, and reports whether more non-space bytes follow the last field returned. The
// fields alias line. It is the one field splitter of the readers: Fields(line, dst, 0) splits
// a whole line, Fields(line, dst, 1) finds the query ID, Fields(line, dst, 5) the run columns
// up to the score.
func Fields(line []byte, dst [][]byte, n int) (fields [][]byte, more bool) {
	i, k := 0, 0
	for {
		for i < len(line) && spaceTable[line[i]] {
			i++
		}
		if i == len(line) {
			return dst, false
		}
		if n > 0 && k == n {
			return dst, true
		}
		j := i
		for j < len(line) && !spaceTable[line[j]] {
			j++
		}
		dst = append(dst, line[i:j])
		k++
		i = j
	}
}

// TrimCR drops one trailing carriage return (files written on Windows).
func TrimCR(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\r' {
		return b[:n-1]
	}
	return b
}

// TrimSpace drops the field separators (IsSpace: ASCII whitespace) around s, and nothing else:
// a Unicode space such as U+00A0 is part of an ID in every reader, as it is for TREC files
// split by Fields (and for trec_eval).
func TrimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && spaceTable[s[i]] {
		i++
	}
	for j > i && spaceTable[s[j-1]] {
		j--
	}
	return s[i:j]
}
