// Package words writes the short English that reports and warnings share: the noun for a count
// and a list of IDs cut at ten.
package words

import (
	"fmt"
	"strconv"
	"strings"
)

// Plural returns one when n is 1, else many: fmt.Sprintf("%d %s", n, Plural(n, "query", "queries")).
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// IDs lists ids (each as ID prints it) separated by ", ", the first 10 of them followed by
// "… (N more)" when there are more.
func IDs(ids []string) string {
	const most = 10
	out := make([]string, 0, min(len(ids), most))
	for _, id := range ids[:min(len(ids), most)] {
		out = append(out, ID(id))
	}
	s := strings.Join(out, ", ")
	if len(ids) > most {
		s += fmt.Sprintf(", … (%d more)", len(ids)-most)
	}
	return s
}

// ID prints an ID read from a file for a message: as it is when it is printable text without
// spaces or commas, else Go-quoted (control characters, invalid UTF-8 and quotes escaped, so a
// warning cannot move the terminal's cursor or change its colours); longer than 40 bytes, its
// first 40 and its length.
func ID(id string) string {
	const most = 40
	cut := id
	if len(cut) > most {
		cut = strings.ToValidUTF8(cut[:most], "")
	}
	if q := strconv.Quote(cut); q[1:len(q)-1] != cut || cut == "" || strings.ContainsAny(cut, " ,") {
		cut = q
	}
	if len(id) > most {
		cut += fmt.Sprintf("… (%d bytes)", len(id))
	}
	return cut
}
