package charts

import (
	"fmt"
	"html"
	"strconv"
	"strings"

	"github.com/ranklab/ranklab/lab"
)

// rankingTable is the ranking as a plain HTML table (no script: it survives untrusted views),
// written by the package's table writer: one row per item in rank order with its first-stage
// rank and move, doc, label, grade and whether it is relevant, the top k highlighted. Its
// caption repeats the four measures (labMetrics).
//
// Test hooks: data-ranking-table and data-k on the table; data-rank, data-doc, data-inside-k
// ("1" inside the top k) and data-relevant on each row; data-metric="<key>" with data-value
// (the float as strconv's 'g' prints it) on each number of the caption.
func rankingTable(o lab.Outcome) string {
	m, s := o.Metrics, o.State
	e := html.EscapeString
	var c strings.Builder
	c.WriteString("Ranking")
	if o.Query != "" {
		c.WriteString(` for <q data-query>` + e(o.Query) + `</q>`)
	}
	if s.Rerank > 0 {
		fmt.Fprintf(&c, " after reranking the first %d (reranker quality %d%%)", s.Rerank, s.RerankQuality)
	} else {
		c.WriteString(" in first-stage order (reranking off)")
	}
	fmt.Fprintf(&c, ": top %d highlighted.", m.K)
	for i, lm := range labMetrics {
		sep := " "
		if i > 0 {
			sep = " · "
		}
		v := lm.value(m)
		fmt.Fprintf(&c, `%s%s@%d <span data-metric="%s" data-value="%s">%.3f</span>`, sep, lm.name, m.K, lm.key, strconv.FormatFloat(v, 'g', -1, 64), v)
	}
	t := table{
		attrs:   fmt.Sprintf(` data-ranking-table data-k="%d"`, m.K),
		caption: c.String(),
		header:  []string{"rank", "first-stage rank (move)", "doc", "label", "grade", "relevant"},
		compact: true,
	}
	for _, it := range o.Items {
		first := strconv.Itoa(it.FirstRank)
		if it.FirstRank != it.Rank {
			first += fmt.Sprintf(" (%+d)", it.FirstRank-it.Rank)
		}
		rel, inside := "", "0"
		if it.Relevant {
			rel = "✓"
		}
		if it.InsideK {
			inside = "1"
		}
		t.rows = append(t.rows, tableRow{
			cells:     []string{strconv.Itoa(it.Rank), first, it.Doc, it.Label, strconv.Itoa(it.Grade), rel},
			attrs:     [][2]string{{"data-rank", strconv.Itoa(it.Rank)}, {"data-doc", it.Doc}, {"data-inside-k", inside}, {"data-relevant", strconv.FormatBool(it.Relevant)}},
			highlight: it.InsideK,
		})
	}
	return t.html()
}
