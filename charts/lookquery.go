package charts

import (
	"cmp"
	"fmt"
	"html"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ranklab/ranklab/eval"
)

// DocText is what a query view shows of a document: its title and text.
type DocText struct {
	Title, Text string
}

// QueryLook is one query looked at across runs (LookAtQuery).
type QueryLook struct {
	Query, Text string             // the query's ID and text
	Qrels       eval.Qrels         // grades (only Query's are used)
	Runs        []eval.Run         // side by side, the first as the reference of the differences
	Docs        map[string]DocText // titles and texts by doc ID (a missing doc shows its ID only)
	Depth       int                // ranks shown per run (0: 10)
	Measure     eval.Measure       // the per-query value (zero: nDCG@10)
	RelLevel    int                // a grade >= RelLevel is relevant (0: 1)
	Snippet     int                // characters of text shown per doc (0: 160)
}

// LookAtQuery returns one plain HTML fragment (no JavaScript) for one query: the query; each
// run's value of the measure on it and its difference from the first run; the runs' rankings
// side by side to Depth, each doc with its grade (unjudged: "–"), title and the start of its text,
// relevant docs marked; then, per run, the relevant docs it did not rank within Depth and the
// rank each other run gave them ("–": not retrieved). Every string from data is HTML-escaped.
// Rankings are eval.Rank's (trec_eval's order); the measure is eval's (trec_eval -c on this
// query: a run without it scores 0).
func LookAtQuery(l QueryLook) string {
	if l.Depth <= 0 {
		l.Depth = 10
	}
	if l.Measure == (eval.Measure{}) {
		l.Measure = eval.NDCG(10)
	}
	if l.RelLevel <= 0 {
		l.RelLevel = 1
	}
	if l.Snippet <= 0 {
		l.Snippet = 160
	}
	e := html.EscapeString
	judged := l.Qrels[l.Query]
	names := make([]string, len(l.Runs))
	ranked := make([][]eval.ScoredDoc, len(l.Runs))
	rankOf := make([]map[string]int, len(l.Runs))
	values := make([]float64, len(l.Runs))
	for i, r := range l.Runs {
		names[i] = cmp.Or(r.Tag, fmt.Sprintf("run %d", i+1))
		ranked[i] = eval.Rank(r.Queries[l.Query])
		rankOf[i] = make(map[string]int, len(ranked[i]))
		for k, d := range ranked[i] {
			rankOf[i][d.Doc] = k + 1
		}
		values[i] = math.NaN()
		if judged != nil {
			res, err := eval.Options{AllQueries: true}.Evaluate(eval.Qrels{l.Query: judged}, r, l.Measure)
			if err == nil {
				values[i], _ = res.Value(l.Query, l.Measure)
			}
		}
	}
	var b strings.Builder
	b.WriteString(`<div class="ranklab-query" style="font-family:system-ui,'DejaVu Sans',sans-serif;color:var(--jp-content-font-color1,#222);font-size:13px;max-width:1200px;overflow-x:auto;margin:6px 0">` + "\n")
	fmt.Fprintf(&b, `<div style="font-weight:600;font-size:14px">query %s</div>`+"\n", e(l.Query))
	if l.Text != "" {
		fmt.Fprintf(&b, `<div style="margin:2px 0 6px 0">%s</div>`+"\n", e(l.Text))
	}
	nRel := 0
	for _, g := range judged {
		if g >= l.RelLevel {
			nRel++
		}
	}
	if judged == nil {
		b.WriteString(`<div style="color:#b00">the qrels do not judge this query: no grades, no measure</div>` + "\n")
	} else {
		fmt.Fprintf(&b, `<div>%d judged, %d relevant (grade &gt;= %d)</div>`+"\n", len(judged), nRel, l.RelLevel)
	}
	// Values and differences.
	b.WriteString(`<div style="margin:4px 0">`)
	for i := range l.Runs {
		if i > 0 {
			b.WriteString(" · ")
		}
		fmt.Fprintf(&b, "%s %s = <b>%s</b>", e(names[i]), e(l.Measure.String()), lookNum(values[i]))
		if i > 0 {
			fmt.Fprintf(&b, " (%s − %s: %s)", e(names[i]), e(names[0]), lookSigned(values[i]-values[0]))
		}
	}
	b.WriteString("</div>\n")
	// Side by side.
	b.WriteString(`<table style="border-collapse:collapse;table-layout:fixed"><thead><tr><th style="padding:2px 6px;text-align:right">rank</th>`)
	for i := range l.Runs {
		fmt.Fprintf(&b, `<th style="padding:2px 6px;text-align:left;border-bottom:2px solid #888;min-width:280px">%s</th>`, e(names[i]))
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for k := range l.Depth {
		fmt.Fprintf(&b, `<tr><td style="padding:2px 6px;text-align:right;vertical-align:top">%d</td>`, k+1)
		for i := range l.Runs {
			if k >= len(ranked[i]) {
				b.WriteString(`<td style="padding:2px 6px"></td>`)
				continue
			}
			d := ranked[i][k].Doc
			g, ok := judged[d]
			rel := ok && g >= l.RelLevel
			bg := ""
			if rel {
				bg = "background:rgba(44,160,44,0.15);"
			}
			fmt.Fprintf(&b, `<td style="%spadding:2px 6px;vertical-align:top;border-bottom:1px solid var(--jp-border-color2,#ddd)">`, bg)
			fmt.Fprintf(&b, `<span style="display:inline-block;min-width:1.4em;text-align:center;border-radius:3px;color:#fff;background:%s" title="grade">%s</span> `, lookGradeColor(g, ok), lookGrade(g, ok))
			b.WriteString(lookDoc(d, l.Docs, l.Snippet))
			b.WriteString("</td>")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody></table>\n")
	// Relevant docs each run missed within Depth, and where the others put them.
	var relDocs []string
	for d, g := range judged {
		if g >= l.RelLevel {
			relDocs = append(relDocs, d)
		}
	}
	slices.Sort(relDocs)
	for i := range l.Runs {
		var missed []string
		for _, d := range relDocs {
			if r, ok := rankOf[i][d]; !ok || r > l.Depth {
				missed = append(missed, d)
			}
		}
		fmt.Fprintf(&b, `<div style="margin-top:8px;font-weight:600">%s misses %d of %d relevant in its top %d</div>`+"\n",
			e(names[i]), len(missed), len(relDocs), l.Depth)
		if len(missed) == 0 {
			continue
		}
		b.WriteString(`<ul style="margin:2px 0 2px 18px;padding:0">`)
		for _, d := range missed {
			var where []string
			for j := range l.Runs {
				where = append(where, fmt.Sprintf("%s: %s", e(names[j]), lookRank(rankOf[j][d])))
			}
			fmt.Fprintf(&b, `<li>grade %d · %s · %s</li>`, judged[d], strings.Join(where, ", "), lookDoc(d, l.Docs, l.Snippet))
		}
		b.WriteString("</ul>\n")
	}
	b.WriteString("</div>\n")
	return b.String()
}

// lookDoc is a doc's ID, title and the start of its text, escaped.
func lookDoc(id string, docs map[string]DocText, snippet int) string {
	e := html.EscapeString
	s := `<code>` + e(id) + `</code>`
	d, ok := docs[id]
	if !ok {
		return s
	}
	if d.Title != "" {
		s += ` <b>` + e(d.Title) + `</b>`
	}
	text := strings.Join(strings.Fields(d.Text), " ")
	if r := []rune(text); len(r) > snippet {
		text = string(r[:snippet]) + "…"
	}
	if text != "" {
		s += `<br><span style="color:var(--jp-content-font-color2,#555)">` + e(text) + `</span>`
	}
	return s
}

func lookGrade(g int, judged bool) string {
	if !judged {
		return "–"
	}
	return strconv.Itoa(g)
}

func lookGradeColor(g int, judged bool) string {
	if !judged || g < 0 {
		return "#999"
	}
	return gradeColor(g)
}

func lookRank(r int) string {
	if r == 0 {
		return "–"
	}
	return strconv.Itoa(r)
}

func lookNum(v float64) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}

func lookSigned(v float64) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return fmt.Sprintf("%+.4f", v)
}

// DifferingQueries returns a plain HTML table of the n queries (0: 20) where run B's value of
// measure m differs most from run A's (|B − A| descending, then query ID), over the queries
// both results evaluated, with each query's text when texts has it. A measure a result lacks,
// or no common query, gives a visible error box.
func DifferingQueries(a, b eval.Result, m eval.Measure, nameA, nameB string, texts map[string]string, n int) string {
	if n <= 0 {
		n = 20
	}
	ja, err := column(a, m, "DifferingQueries ("+nameA+")")
	if err != nil {
		return errorBox(err.Error())
	}
	jb, err := column(b, m, "DifferingQueries ("+nameB+")")
	if err != nil {
		return errorBox(err.Error())
	}
	rows := pairByQuery(a, b, ja, jb)
	if len(rows) == 0 {
		return errorBox(fmt.Sprintf("charts: DifferingQueries: %s and %s have no evaluated query in common", nameA, nameB))
	}
	slices.SortStableFunc(rows, func(x, y queryPair) int {
		return cmp.Or(cmp.Compare(math.Abs(y.vb-y.va), math.Abs(x.vb-x.va)), strings.Compare(x.q, y.q))
	})
	shown := rows[:min(n, len(rows))]
	cells := make([][]string, len(shown))
	for i, r := range shown {
		text := texts[r.q]
		if rs := []rune(text); len(rs) > 90 {
			text = string(rs[:90]) + "…"
		}
		cells[i] = []string{r.q, text, formatValue(m, r.va), formatValue(m, r.vb), fmt.Sprintf("%+.4f", r.vb-r.va)}
	}
	return Table(fmt.Sprintf("The %d of %d queries where %s and %s differ most on %s", len(shown), len(rows), nameA, nameB, m),
		[]string{"query", "text", nameA, nameB, nameB + " − " + nameA}, cells)
}
