// Package words writes the short English that reports and warnings share: the noun for a count
// and a list of IDs cut at ten.
package words

import (
	"fmt"
	"strings"
)

// Plural returns one when n is 1, else many: fmt.Sprintf("%d %s", n, Plural(n, "query", "queries")).
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// IDs lists ids separated by ", ", the first 10 of them followed by "… (N more)" when there are
// more.
func IDs(ids []string) string {
	const most = 10
	if len(ids) <= most {
		return strings.Join(ids, ", ")
	}
	return strings.Join(ids[:most], ", ") + fmt.Sprintf(", … (%d more)", len(ids)-most)
}
