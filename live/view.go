package live

import (
	"errors"
	"fmt"
	"html"
	"strings"

	"github.com/ranklab/ranklab/charts"
	"github.com/ranklab/ranklab/chunking"
	"github.com/ranklab/ranklab/internal/labview"
	"github.com/ranklab/ranklab/internal/panel"
	"github.com/ranklab/ranklab/lab"
)

// The panel's output is a list of regions, each its own notebook output, updated in place: the
// controls (or, once the loop has ended, the snapshot header), then one region per view of
// charts.LabViews (the lab's one list of views) that has a live fragment, in its order, with the
// tab strip before the first view that sits in a tab. Views with a tab show one at a time (the
// strip's choice); the others are always visible. Nothing here counts the views: liveViews is
// derived from charts.LabViews.
//
// Test hooks (stable attributes): data-live-panel on the controls/header (data-live-state =
// connecting, live, static or closed), data-field on each control, data-action on each button,
// data-zero-note on the note of a control whose left end stands for 0, data-live-tabs on the tab
// strip and data-tab on its buttons, data-live-of and data-live-tab on each tabbed view; inside
// the views (package charts): data-metric-card, data-reading, data-ranking-table with rows
// data-rank and data-inside-k="1" inside the top k, data-metric + data-value on the numbers of
// its caption, data-footprint with data-chunks; data-live-error on a validation message.
var liveViews = func() []labview.View {
	var out []labview.View
	for _, v := range charts.LabViews() {
		if v.Live != nil {
			out = append(out, v)
		}
	}
	return out
}()

// views returns the state's view regions in display order (one per liveViews); with an invalid
// state the first is the validation message and the others are empty, so no stale number stays
// on screen.
func views(s lab.State) []string { return viewsWith(s, nil) }

// viewsWith is views with a cache of fragments (nil: no cache). A view whose inputs
// (labview.View.Uses) did not change is taken from the cache, so the live panel does not
// re-send and redraw it: the ranking views depend on every field but corpus, chunk and overlap,
// the chunking views on those three only.
func viewsWith(s lab.State, c *viewCache) []string {
	out := make([]string, len(liveViews))
	o, err := s.Outcome()
	if err != nil {
		out[0] = errorHTML(err)
		return out
	}
	for i, v := range liveViews {
		out[i] = c.get(v.Key, inputsKey(s, v.Uses), func() string { return v.Live(o) })
	}
	return out
}

// inputsKey is the part of s a view with the given uses depends on (a comparable value).
func inputsKey(s lab.State, u labview.Uses) lab.State {
	var k lab.State
	if u&labview.Ranking != 0 {
		k = s
		k.Corpus, k.Chunk, k.Overlap = 0, 0, 0
	}
	if u&labview.Chunking != 0 {
		k.Corpus, k.Chunk, k.Overlap = s.Corpus, s.Chunk, s.Overlap
	}
	return k
}

// viewCache keeps the last fragment of each view with the inputs it was built for.
type viewCache struct{ last map[string]cached }

type cached struct {
	key  lab.State
	html string
}

// get returns the cached fragment of view name when key is unchanged, else build() (cached).
func (c *viewCache) get(name string, key lab.State, build func() string) string {
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

// errorHTML shows a validation error: the message, and the field it names when it is a
// chunking.FieldError.
func errorHTML(err error) string {
	field := ""
	var fe *chunking.FieldError
	if errors.As(err, &fe) {
		field = fe.Field
	}
	return fmt.Sprintf(`<div role="alert" data-live-error data-field="%s" style="border:1px solid #c0392b;background:rgba(192,57,43,0.12);color:var(--jp-content-font-color1,#7b241c);padding:8px 12px;border-radius:6px;font-family:sans-serif">`+
		`<b>Not a valid lab state.</b> %s<br><small>Move the control back into range; no numbers are shown for an invalid state.</small></div>`,
		html.EscapeString(field), html.EscapeString(err.Error()))
}

// tabbed wraps view i's fragment for the tab strip of panel uid: views with a tab carry
// data-live-of and data-live-tab, which the strip's style shows one at a time.
func tabbed(uid string, i int, fragment string) string {
	v := liveViews[i]
	if v.Tab == "" || fragment == "" {
		return fragment
	}
	return fmt.Sprintf(`<div data-live-of="%s" data-live-tab="%s">%s</div>`, html.EscapeString(uid), html.EscapeString(v.Key), fragment)
}

// firstTab is the index in liveViews of the first view with a tab (-1: none).
func firstTab() int {
	for i, v := range liveViews {
		if v.Tab != "" {
			return i
		}
	}
	return -1
}

// tabStyle is the CSS that shows only the tabbed views of panel uid whose key is shown (and
// their whole output areas in JupyterLab, Notebook 7 and the classic Notebook, where :has is
// supported).
func tabStyle(uid, shown string) string {
	sel := fmt.Sprintf(`[data-live-of="%s"][data-live-tab]:not([data-live-tab="%s"])`, uid, shown)
	return fmt.Sprintf(`%s{display:none}.jp-OutputArea-child:has(%s),.output_area:has(%s){display:none}`, sel, sel, sel)
}

// tabsHTML is the tab strip of panel uid: one button per tabbed view (the first selected), the
// style that hides the others, and a script that switches tabs on a click or an arrow key.
func tabsHTML(uid string) string {
	var b strings.Builder
	first := ""
	fmt.Fprintf(&b, `<div data-live-tabs="%s" role="tablist" style="display:flex;flex-wrap:wrap;gap:4px;margin:8px 0 2px;border-bottom:1px solid #8a8a8a;font-family:system-ui,'DejaVu Sans',sans-serif;font-size:13px">`, html.EscapeString(uid))
	for _, v := range liveViews {
		if v.Tab == "" {
			continue
		}
		sel := "false"
		if first == "" {
			first, sel = v.Key, "true"
		}
		fmt.Fprintf(&b, `<button type="button" role="tab" data-tab="%s" aria-selected="%s" style="%s">%s</button>`,
			html.EscapeString(v.Key), sel, tabButtonStyle, html.EscapeString(v.Tab))
	}
	fmt.Fprintf(&b, `</div><style data-live-tab-style>%s</style>`, tabStyle(uid, first))
	cfg, _ := jsonHTMLSafe(map[string]string{"uid": uid, "style": tabStyle(uid, "KEY")}) // strings always marshal
	fmt.Fprintf(&b, "<script>(function(cfg){%s})(%s);</script>", tabsJS, cfg)
	return b.String()
}

// tabButtonStyle draws a tab; the selected one (aria-selected="true") is marked by tabsJS.
const tabButtonStyle = `font:inherit;padding:3px 10px;border:1px solid #8a8a8a;border-bottom:none;border-radius:5px 5px 0 0;` +
	`background:transparent;color:inherit;cursor:pointer`

// tabsJS switches the tabs of one strip (wrapped as function(cfg){...}, cfg = {uid, style}
// with KEY standing for the shown view's key).
const tabsJS = `var strip=document.querySelector('[data-live-tabs="'+cfg.uid+'"]');if(!strip)return;` +
	`var css=strip.parentNode.querySelector('style[data-live-tab-style]');var tabs=[].slice.call(strip.querySelectorAll('[data-tab]'));` +
	`function pick(t,focus){tabs.forEach(function(b){var on=b===t;b.setAttribute('aria-selected',on?'true':'false');b.tabIndex=on?0:-1;` +
	`b.style.fontWeight=on?'600':'normal';b.style.background=on?'rgba(66,146,198,0.18)':'transparent';});` +
	`css.textContent=cfg.style.split('KEY').join(t.dataset.tab);strip.dataset.shown=t.dataset.tab;if(focus)t.focus();}` +
	`tabs.forEach(function(t,i){t.addEventListener('click',function(){pick(t);});` +
	`t.addEventListener('keydown',function(e){if(e.ctrlKey||e.metaKey||e.altKey)return;e.stopPropagation();` +
	`var j={ArrowRight:i+1,ArrowLeft:i-1,Home:0,End:tabs.length-1}[e.key];` +
	`if(j!==undefined){e.preventDefault();pick(tabs[(j+tabs.length)%tabs.length],true);}});});` +
	`pick(tabs.filter(function(t){return t.getAttribute('aria-selected')==='true';})[0]||tabs[0]);`

// headerHTML replaces the controls once the panel is static: the state's link and why the
// panel is not (or no longer) live. state is "static" or "closed".
func headerHTML(s lab.State, state, reason string, opt panel.Options) string {
	return fmt.Sprintf(`<div class="ranklab-live" data-live-panel data-live-state="%s" data-live-reason="%s" style="font-family:sans-serif;font-size:13px;border-left:4px solid #8a8a8a;padding:4px 10px;margin:4px 0">`+
		`<b>ranklab lab — static snapshot</b> of <code data-live-link>%s</code><br><small>%s</small></div>`,
		html.EscapeString(state), html.EscapeString(reason), html.EscapeString(s.Link()), html.EscapeString(reasonText(reason, opt)))
}

// reasonText explains each end of the live loop to a reader of the saved notebook, and how to
// get the live panel back.
func reasonText(reason string, opt panel.Options) string {
	switch reason {
	case panel.Done:
		return "The live panel was closed with Done; re-run the cell to move the controls again."
	case panel.Idle:
		return "The live panel closed after a while without input; re-run the cell to continue."
	case panel.MaxTime:
		return "The live panel reached its maximum duration; re-run the cell to continue."
	case panel.Interrupt:
		return "The live panel was interrupted; re-run the cell to continue."
	case "forced":
		return panel.EnvMode + "=static: no live controls. Unset it (or set auto) and re-run the cell for sliders."
	case panel.NoFrontend:
		return fmt.Sprintf("No live notebook page answered within %s (nbconvert, an exported page or a viewer, or a page whose connection to the Go kernel failed), "+
			"so this is the state passed to live.Show. To retry: re-run this cell in JupyterLab or Notebook. "+
			"On a busy machine, run %%env %s live in a cell first (the panel then waits for the page as long as it takes) "+
			"or give it longer with %%env %s 2m.", opt.Probe, panel.EnvMode, panel.EnvProbe)
	}
	return reason
}

// zeroNote is the note under a control whose left end stands for 0, naming what 0 means in
// state s: for total, the qrels' count of relevant items (recall's denominator at 0). "" for
// the other controls.
func zeroNote(f lab.Field, s lab.State) string {
	if _, _, zero := f.Range(s); !zero || f.Key != "total" {
		return ""
	}
	s.Total = 0
	o, err := s.Outcome()
	if err != nil {
		return "0 = the qrels' count"
	}
	return fmt.Sprintf("0 = the qrels' count (%d)", o.Metrics.Denominator)
}

// panelHTML is the live controls: a title line with the status and the buttons, one labelled
// slider (or number input) per field in a grid of four columns, the link and CSV areas, and the
// script that talks to the kernel.
func panelHTML(id string, s lab.State, in, out string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<div id="%s" class="ranklab-live" data-live-panel data-live-state="connecting" style="font-family:system-ui,'DejaVu Sans',sans-serif;font-size:13px;border:1px solid #8a8a8a;border-radius:8px;padding:6px 12px;margin:4px 0;max-width:980px;box-sizing:border-box">`, html.EscapeString(id))
	b.WriteString(`<div style="display:flex;flex-wrap:wrap;align-items:center;gap:4px 8px;margin-bottom:4px"><b>ranklab lab</b>`)
	b.WriteString(`<span data-live-status style="flex:1 1 260px;font-size:12px">connecting to the Go kernel…</span>`)
	for _, a := range []struct{ action, label string }{{"reset", "Reset"}, {"copy", "Copy link"}, {"csv", "Export CSV"}, {"done", "Done"}} {
		fmt.Fprintf(&b, `<button type="button" data-action="%s">%s</button>`, a.action, a.label)
	}
	b.WriteString(`</div><div style="display:grid;grid-template-columns:repeat(auto-fill,minmax(170px,1fr));gap:2px 14px">`)
	for _, f := range fields {
		v := int(f.Get(s))
		typ, zero := "range", ""
		lo, hi, zeroAt := sliderSpan(f, s)
		pos := v
		if f.Number {
			l, h, _ := f.Range(s)
			typ, lo, hi = "number", int(l), int(h)
		} else if zeroAt >= 0 {
			// The position zeroAt stands for 0 (the script maps it both ways).
			zero = fmt.Sprintf(` data-zero-at="%d"`, zeroAt)
			if v == 0 {
				pos = zeroAt
			}
		}
		note := ""
		if n := zeroNote(f, s); n != "" {
			note = fmt.Sprintf(`<small data-zero-note="%s" style="display:block;font-size:11px;opacity:.85">%s</small>`, f.Key, html.EscapeString(n))
		}
		fmt.Fprintf(&b, `<label title="%s" style="display:block;min-width:0">`+
			`<span style="display:flex;gap:6px;align-items:baseline"><span>%s</span><output data-value-of="%s" style="margin-left:auto;font-weight:600;font-variant-numeric:tabular-nums">%d</output></span>`+
			`<input type="%s" data-field="%s" min="%d" max="%d" step="1" value="%d"%s style="width:100%%;box-sizing:border-box;margin:1px 0">%s</label>`,
			html.EscapeString(f.Help), html.EscapeString(f.Label), f.Key, v, typ, f.Key, lo, hi, pos, zero, note)
	}
	fmt.Fprintf(&b, `</div><div data-live-linkbox hidden style="margin-top:4px">Link: <input data-live-link readonly size="80" value="%s"> <span data-live-copied></span></div>`, html.EscapeString(s.Link()))
	b.WriteString(`<div data-live-csv style="margin-top:2px"></div></div>`)
	cfg, _ := jsonHTMLSafe(map[string]string{"id": id, "in": in, "out": out}) // strings always marshal
	b.WriteString(panel.Script(panelJS, cfg))
	return b.String()
}
