package charts

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"strconv"
	"strings"
	"sync/atomic"
)

// defaultHeight is the chart height in pixels used when HTML is given a height <= 0.
const defaultHeight = 360

// idPrefix makes container ids unique across processes (each GoNB cell is a new process that
// writes into the same page); idCounter makes them unique within one process.
var (
	idPrefix  = newIDPrefix()
	idCounter atomic.Uint64
)

func newIDPrefix() string {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("charts: no randomness for chart ids: " + err.Error())
	}
	return "ranklab-chart-" + hex.EncodeToString(b[:]) + "-"
}

// newID returns a fresh container id: "ranklab-chart-<8 hex digits>-<counter>".
func newID() string { return idPrefix + strconv.FormatUint(idCounter.Add(1), 10) }

// optionHTML wraps an ECharts option into one notebook output: a container div with a unique id and
// one inline script that waits for ECharts, draws the option and then marks the container
// data-drawn="1" on ECharts' "rendered" event. Animation is off, so that first painting is the
// whole chart, in a notebook, an export and a screenshot alike (with animation a screenshot
// taken at "rendered" showed line charts half drawn).
//
// option is anything encoding/json can marshal into an ECharts option, e.g. a go-echarts
// chart's JSON() after Validate(), or a map. The JSON is written with Go's HTML-safe escaping
// (<, > and & as \u003c, \u003e, \u0026), so no data string can close the script element.
// The chart title (option.title.text, or the first of a title list) labels the container for
// screen readers, HTML-escaped. height <= 0 means 360 pixels. An option that cannot
// be marshalled is a caller bug and panics.
//
// Where ECharts comes from: the script uses window.echarts when the page has it. Otherwise, in
// offline mode (the default) it waits up to 3 s for the embedded copy (libraryHTML, sent by
// Show or Page) and then falls back to the CDN URL; in online mode it loads the CDN URL at once,
// through RequireJS when the page has an AMD loader, else through one shared script tag.
func optionHTML(option any, height int) string {
	js, err := json.Marshal(option)
	if err != nil {
		panic("charts: cannot encode the ECharts option: " + err.Error())
	}
	return fragment(optionTitle(js), js, height)
}

// optionTitle returns option.title.text, or the first non-empty text of a title list.
func optionTitle(js []byte) string {
	var o struct {
		Title json.RawMessage `json:"title"`
	}
	if json.Unmarshal(js, &o) != nil || len(o.Title) == 0 {
		return ""
	}
	type title struct {
		Text string `json:"text"`
	}
	var one title
	if json.Unmarshal(o.Title, &one) == nil {
		return one.Text
	}
	var many []title
	if json.Unmarshal(o.Title, &many) == nil {
		for _, t := range many {
			if t.Text != "" {
				return t.Text
			}
		}
	}
	return ""
}

// fragment builds the container and its script from an already marshalled option.
func fragment(title string, optionJSON []byte, height int) string {
	if height <= 0 {
		height = defaultHeight
	}
	id := newID()
	wait := 0
	if offline.Load() {
		wait = 3000
	}
	var b strings.Builder
	b.Grow(len(optionJSON) + len(drawJS) + 400)
	fmt.Fprintf(&b, `<div id="%s" class="ranklab-chart" role="img" aria-label="%s" data-height="%d" style="width:100%%;max-width:980px">%s</div>`,
		id, html.EscapeString(title), height, notDrawnNote)
	b.WriteString("\n<script>(function(id,url,wait,height,option){")
	b.WriteString(drawJS)
	fmt.Fprintf(&b, "})(%s,%s,%d,%d,", jsString(id), jsString(onlineURL), wait, height)
	b.Write(optionJSON)
	b.WriteString(");</script>\n")
	return b.String()
}

// notDrawnNote is what a chart container shows until its script draws: where scripts do not run
// (an untrusted notebook in JupyterLab or Notebook, GitHub's viewer) it stays, one line instead
// of a blank box. The script removes it and gives the container its height before drawing.
const notDrawnNote = `<div class="ranklab-chart-note" style="font:12px system-ui,'DejaVu Sans',sans-serif;color:#888;padding:2px 0">` +
	`Chart not drawn: its script did not run here (an untrusted notebook: run “Trust Notebook” from the command palette, or a viewer without JavaScript).</div>`

// jsString is a JSON (hence JavaScript) string literal with HTML-safe escaping.
func jsString(s string) string {
	js, _ := json.Marshal(s) // a string always marshals
	return string(js)
}

// drawJS is the body of the function every chart script calls with (id, url, wait, option).
//
// Dark themes: where the page says it is dark (JupyterLab's and Notebook 7's
// data-jp-theme-light="false" on body), the chart uses ECharts' built-in dark theme on a
// transparent background, with each colour of themeColors swapped for its dark counterpart
// (darkColorsJS) and the option's dark grey text colours lightened; a theme switch redraws it.
//
// Hidden containers: a chart inside an element that is not displayed (display:none, e.g. a tab
// not shown) is drawn when it first shows, so data-drawn="1" always means a chart one can see.
var drawJS = `var T=20000,t0=Date.now(),DK=` + darkColorsJS + `;` +
	`function el(){return document.getElementById(id);}` +
	`function dark(){var b=document.body;return !!b&&b.getAttribute('data-jp-theme-light')==='false';}` +
	`function forDark(o){o=JSON.parse(JSON.stringify(o),function(k,v){if(typeof v!=='string')return v;` +
	`var l=v.toLowerCase();if(DK.hasOwnProperty(l))return DK[l];` +
	`return /^#(222|333|444|555|666|777)$/i.test(v)?'#c8c8c8':v;});o.backgroundColor='transparent';return o;}` +
	`function draw(ec){var e=el();if(!e||e.getAttribute('data-drawn'))return;` +
	`if(!e.offsetParent&&window.ResizeObserver){if(!e.__waitShown){e.__waitShown=1;var n0=e.querySelector('.ranklab-chart-note');if(n0)n0.remove();` +
	`e.style.height=height+'px';var ro=new ResizeObserver(function(){if(e.offsetParent&&e.offsetWidth){ro.disconnect();e.__waitShown=0;draw(ec);}});ro.observe(e);}return;}` +
	`var n=e.querySelector('.ranklab-chart-note');if(n)n.remove();e.style.height=height+'px';` +
	`var d=dark(),c=ec.init(e,d?'dark':null);` +
	`c.on('rendered',function(){e.setAttribute('data-drawn','1');});` +
	`var o=d?forDark(option):option;o.animation=false;c.setOption(o);` +
	`if(window.ResizeObserver){new ResizeObserver(function(){c.resize();}).observe(e);}` +
	`if(window.MutationObserver){var mo=new MutationObserver(function(){if(dark()!==d){mo.disconnect();c.dispose();` +
	`e.removeAttribute('data-drawn');draw(ec);}});mo.observe(document.body,{attributes:true,attributeFilter:['data-jp-theme-light']});}}` +
	`function fail(){var e=el();if(e&&!e.getAttribute('data-drawn')){` +
	`e.textContent='Chart not drawn: ECharts did not load (embedded copy missing and '+url+' unreachable).';}}` +
	`function later(){if(window.echarts){draw(window.echarts);}else if(Date.now()-t0<T){setTimeout(later,100);}else{fail();}}` +
	`function online(){var d=window.define,r=window.require;` +
	`if(typeof d==='function'&&d.amd&&typeof r==='function'&&r.config){` +
	`r.config({paths:{'ranklab-echarts':url.replace(/\.js$/,'')}});` +
	`r(['ranklab-echarts'],function(ec){window.echarts=window.echarts||ec;draw(ec);},fail);return;}` +
	`if(!document.querySelector('script[data-ranklab-echarts-src]')){var s=document.createElement('script');` +
	`s.src=url;s.setAttribute('data-ranklab-echarts-src','1');document.head.appendChild(s);}later();}` +
	`(function poll(){if(window.echarts){draw(window.echarts);}else if(Date.now()-t0>=wait){online();}else{setTimeout(poll,50);}})();`
