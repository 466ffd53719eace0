package live

import (
	"errors"
	"fmt"
	"html"
	"strconv"
	"strings"

	"github.com/ranklab/ranklab/charts"
	"github.com/ranklab/ranklab/lab"
)

// The panel's output is a list of regions, each its own notebook output, updated in place:
// the controls (or, once the loop has ended, the snapshot header), then the views of the state.
// views returns the state's regions in display order; with an invalid state the first region is
// the validation message and the others are empty, so no stale number stays on screen.
//
// Test hooks (stable attributes): data-live-panel on the controls/header (data-live-state =
// connecting, live, static or closed), data-field on each control, data-action on each button,
// data-live-ranking on the ranking list whose rows carry data-rank and data-inside-k="1" when
// inside the top k, data-metric="precision|recall|mrr|ndcg" with data-value (the float as Go's
// strconv 'g' prints it) on the numbers of its caption, data-chunks on the chunking card, data-live-error on
// the validation message.
func views(s lab.State) []string { return viewsWith(s, nil) }

// viewsWith is views with a cache of chart fragments (nil: no cache). A chart whose inputs did
// not change is taken from the cache, so the live panel does not re-send and redraw it: the
// ranking and rerank charts depend on the ranking fields only (not corpus, chunk, overlap), the
// chunk chart on corpus, chunk and overlap only.
func viewsWith(s lab.State, c *chartCache) []string {
	o, err := s.Outcome()
	if err != nil {
		return []string{errorHTML(err), "", "", "", "", ""}
	}
	rankingKey := s
	rankingKey.Corpus, rankingKey.Chunk, rankingKey.Overlap = 0, 0, 0
	chunkKey := [3]int{s.Corpus, s.Chunk, s.Overlap}
	return []string{
		charts.MetricCards(o),
		rankingListHTML(o),
		c.get("ranking", rankingKey, func() string { return charts.Ranking(o) }),
		c.get("rerank", rankingKey, func() string { return charts.Rerank(o) }),
		footprintHTML(o),
		c.get("chunks", chunkKey, func() string { return charts.ChunkOverlap(o) }),
	}
}

// chartCache keeps the last fragment of each chart with the key it was built for.
type chartCache struct{ last map[string]cached }

type cached struct {
	key  any
	html string
}

// get returns the cached fragment of chart name when key is unchanged, else build() (cached).
func (c *chartCache) get(name string, key any, build func() string) string {
	if c == nil {
		return build()
	}
	if e, ok := c.last[name]; ok && e.key == key {
		return e.html
	}
	if c.last == nil {
		c.last = map[string]cached{}
	}
	h := build()
	c.last[name] = cached{key, h}
	return h
}

// regionCount is len(views(s)) for every s.
const regionCount = 6

// errorHTML shows a validation error: the message, and the field it names when it is a
// lab.FieldError.
func errorHTML(err error) string {
	field := ""
	var fe *lab.FieldError
	if errors.As(err, &fe) {
		field = fe.Field
	}
	return fmt.Sprintf(`<div role="alert" data-live-error data-field="%s" style="border:1px solid #c0392b;background:#fdecea;color:#7b241c;padding:8px 12px;border-radius:6px;font-family:sans-serif">`+
		`<b>Not a valid lab state.</b> %s<br><small>Move the control back into range; no numbers are shown for an invalid state.</small></div>`,
		html.EscapeString(field), html.EscapeString(err.Error()))
}

// metricSpan is one number with its test hook.
func metricSpan(name string, v float64) string {
	return fmt.Sprintf(`<span data-metric="%s" data-value="%s">%.3f</span>`, name, strconv.FormatFloat(v, 'g', -1, 64), v)
}

// rankingListHTML is the ranking as a plain HTML table (no script: it survives untrusted views):
// one row per item in rank order, the top k highlighted, relevant grades in bold, with the
// first-stage rank for comparison. Its caption repeats the metrics the cards show.
func rankingListHTML(o lab.Outcome) string {
	var b strings.Builder
	m := o.Metrics
	fmt.Fprintf(&b, `<table data-live-ranking data-k="%d" style="border-collapse:collapse;font-family:sans-serif;font-size:13px;min-width:480px">`, m.K)
	query := ""
	if o.Query != "" {
		query = fmt.Sprintf(` for <q data-query>%s</q>`, html.EscapeString(o.Query))
	}
	fmt.Fprintf(&b, `<caption style="text-align:left;padding:4px 0">Ranking%s after reranking the first %d (reranker quality %d%%): top %d highlighted. Precision@%d %s · Recall@%d %s · MRR@%d %s · nDCG@%d %s</caption>`,
		query, o.State.Rerank, o.State.RerankQuality, m.K, m.K, metricSpan("precision", m.Precision), m.K, metricSpan("recall", m.Recall),
		m.K, metricSpan("mrr", m.MRR), m.K, metricSpan("ndcg", m.NDCG))
	b.WriteString(`<thead><tr style="border-bottom:1px solid #999"><th style="padding:2px 8px">rank</th><th style="padding:2px 8px">first-stage rank (move)</th><th style="padding:2px 8px">doc</th><th style="padding:2px 8px;text-align:left">label</th><th style="padding:2px 8px">grade</th><th style="padding:2px 8px">relevant</th></tr></thead><tbody>`)
	for _, it := range o.Items {
		inside, bg := "0", ""
		if it.InsideK {
			inside, bg = "1", "background:#fff1c1;color:#222;"
		}
		rel, weight := "", "normal"
		if it.Relevant {
			rel, weight = "✓", "bold"
		}
		moved := ""
		if it.FirstRank != it.Rank {
			moved = fmt.Sprintf(` <small style="color:#666">(%+d)</small>`, it.FirstRank-it.Rank)
		}
		fmt.Fprintf(&b, `<tr data-rank="%d" data-doc="%s" data-inside-k="%s" data-relevant="%t" style="%sborder-bottom:1px solid #eee">`+
			`<td style="padding:2px 8px;text-align:right">%d</td><td style="padding:2px 8px;text-align:right">%d%s</td><td style="padding:2px 8px">%s</td><td style="padding:2px 8px;text-align:left">%s</td>`+
			`<td style="padding:2px 8px;text-align:center;font-weight:%s">%d</td><td style="padding:2px 8px;text-align:center">%s</td></tr>`,
			it.Rank, html.EscapeString(it.Doc), inside, it.Relevant, bg,
			it.Rank, it.FirstRank, moved, html.EscapeString(it.Doc), html.EscapeString(it.Label),
			weight, it.Grade, rel)
	}
	b.WriteString(`</tbody></table>`)
	return b.String()
}

// footprintHTML is charts.ChunkingCard inside a div that carries the test hooks data-chunks
// and data-indexed.
func footprintHTML(o lab.Outcome) string {
	f := o.Footprint
	return fmt.Sprintf(`<div data-live-footprint data-chunks="%d" data-indexed="%d">%s</div>`, f.Chunks, f.Indexed, charts.ChunkingCard(o))
}

// headerHTML replaces the controls once the panel is static: the state's link and why the
// panel is not (or no longer) live. state is "static" or "closed".
func headerHTML(s lab.State, state, reason string) string {
	return fmt.Sprintf(`<div class="ranklab-live" data-live-panel data-live-state="%s" data-live-reason="%s" style="font-family:sans-serif;font-size:13px;border-left:4px solid #888;padding:4px 10px;margin:4px 0">`+
		`<b>ranklab lab — static snapshot</b> of <code data-live-link>%s</code><br><small>%s</small></div>`,
		html.EscapeString(state), html.EscapeString(reason), html.EscapeString(s.Link()), html.EscapeString(reasonText(reason)))
}

// reasonText explains each end of the live loop to a reader of the saved notebook.
func reasonText(reason string) string {
	switch reason {
	case "done":
		return "The live panel was closed with Done; re-run the cell to move the controls again."
	case "idle":
		return "The live panel closed after a while without input; re-run the cell to continue."
	case "max":
		return "The live panel reached its maximum duration; re-run the cell to continue."
	case "interrupt":
		return "The live panel was interrupted; re-run the cell to continue."
	case "forced":
		return EnvMode + "=static: no live controls. Unset it (or set auto) and re-run the cell for sliders."
	case "no-frontend":
		return "No live notebook front-end answered (nbconvert, an exported page or a viewer), so this is the state passed to live.Show."
	}
	return reason
}

// panelHTML is the live controls: one labelled slider (or number input) per field, the
// buttons, the link and CSV areas, a status line, and the script that talks to the kernel.
func panelHTML(id string, s lab.State, in, out string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<div id="%s" class="ranklab-live" data-live-panel data-live-state="connecting" style="font-family:sans-serif;font-size:13px;border:1px solid #ccc;border-radius:8px;padding:8px 12px;margin:4px 0;max-width:980px">`, html.EscapeString(id))
	b.WriteString(`<div style="margin-bottom:6px"><b>ranklab lab</b> · <span data-live-status>connecting to the Go kernel… (if this stays, re-run the cell)</span></div>`)
	b.WriteString(`<div style="display:grid;grid-template-columns:repeat(auto-fill,minmax(290px,1fr));gap:4px 18px">`)
	for _, f := range fields {
		v := int(f.Get(s))
		typ, width, zero := "range", "140px", ""
		lo, hi, zeroAt := sliderSpan(f, s)
		pos := v
		if f.Number {
			l, h, _ := f.Range(s)
			typ, width, lo, hi = "number", "110px", int(l), int(h)
		} else if zeroAt >= 0 {
			// The position zeroAt stands for 0 (the script maps it both ways).
			zero = fmt.Sprintf(` data-zero-at="%d"`, zeroAt)
			if v == 0 {
				pos = zeroAt
			}
		}
		fmt.Fprintf(&b, `<label title="%s" style="display:flex;align-items:center;gap:6px"><span style="width:135px">%s</span>`+
			`<input type="%s" data-field="%s" min="%d" max="%d" step="1" value="%d"%s style="width:%s">`+
			`<output data-value-of="%s" style="min-width:3em;font-variant-numeric:tabular-nums">%d</output></label>`,
			html.EscapeString(f.Help), html.EscapeString(f.Label), typ, f.Key, lo, hi, pos, zero, width, f.Key, v)
	}
	b.WriteString(`</div><div style="margin-top:8px;display:flex;gap:8px;flex-wrap:wrap">`)
	for _, a := range []struct{ action, label string }{{"reset", "Reset"}, {"copy", "Copy link"}, {"csv", "Export CSV"}, {"done", "Done"}} {
		fmt.Fprintf(&b, `<button type="button" data-action="%s">%s</button>`, a.action, a.label)
	}
	fmt.Fprintf(&b, `</div><div data-live-linkbox hidden style="margin-top:6px">Link: <input data-live-link readonly size="90" value="%s"> <span data-live-copied></span></div>`, html.EscapeString(s.Link()))
	b.WriteString(`<div data-live-csv style="margin-top:4px"></div></div>`)
	cfg, _ := jsonHTMLSafe(map[string]string{"id": id, "in": in, "out": out}) // strings always marshal
	fmt.Fprintf(&b, "<script>(function(cfg){%s})(%s);</script>", panelJS, cfg)
	return b.String()
}
