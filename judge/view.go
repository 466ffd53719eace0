package judge

import (
	"fmt"
	"html"
	"strings"

	"github.com/ranklab/ranklab/pool"
)

// gradeNames are the labels of the grade buttons (TREC's usual 0–3 scale).
var gradeNames = [4]string{"not relevant", "related", "relevant", "highly relevant"}

// style uses JupyterLab's theme variables (with light fallbacks elsewhere), so the panel follows
// the light and the dark theme; marked words keep dark text on yellow in both.
const style = `<style>
.rj{font-family:var(--jp-ui-font-family,sans-serif);color:var(--jp-ui-font-color1,#222);background:var(--jp-layout-color1,#fff);border:1px solid var(--jp-border-color1,#ccc);border-radius:6px;padding:10px 14px;max-width:900px;outline:none}
.rj:focus{border-color:var(--jp-brand-color1,#1976d2);box-shadow:0 0 0 2px var(--jp-brand-color3,#bbdefb)}
.rj-top{display:flex;justify-content:space-between;gap:12px;font-size:12px;color:var(--jp-ui-font-color2,#555);margin-bottom:6px}
.rj-q{font-size:15px;margin:4px 0 10px}
.rj-q b{color:var(--jp-ui-font-color2,#555);font-weight:normal}
.rj-title{font-weight:bold;font-size:14px;margin:0 0 4px}
.rj-text{font-size:13px;line-height:1.5;max-height:60vh;min-height:3em;overflow:auto;resize:vertical;white-space:pre-wrap;border-top:1px solid var(--jp-border-color2,#e0e0e0);padding-top:6px}
.rj-text:empty{display:none}
.rj-len{font-size:12px;color:var(--jp-ui-font-color2,#555);margin:2px 0 4px}
.rj-empty{font-size:13px;padding:10px;border:1px dashed var(--jp-warn-color1,#e65100);border-radius:4px;color:var(--jp-ui-font-color1,#222);background:var(--jp-layout-color2,#fff8e1)}
.rj mark{background:#ffe58a;color:#111;padding:0 1px;border-radius:2px}
.rj mark.rj-cur{outline:2px solid #e65100;background:#ffc04d}
.rj-note{display:flex;gap:6px;margin-top:8px;align-items:center;font-size:12px;color:var(--jp-ui-font-color2,#555)}
.rj-note input{flex:1;font:inherit;font-size:13px;padding:3px 6px;border:1px solid var(--jp-border-color1,#bbb);border-radius:4px;background:var(--jp-layout-color1,#fff);color:var(--jp-ui-font-color1,#222)}
.rj-bar{display:flex;flex-wrap:wrap;gap:6px;margin-top:10px;align-items:center}
.rj button{font:inherit;font-size:13px;padding:4px 10px;border-radius:4px;border:1px solid var(--jp-border-color1,#bbb);background:var(--jp-layout-color2,#f3f3f3);color:var(--jp-ui-font-color1,#222);cursor:pointer}
.rj button[data-grade]{min-width:7.5em}
.rj button[data-act=done]{margin-left:auto}
.rj button.rj-was{border-color:var(--jp-brand-color1,#1976d2);font-weight:bold}
.rj button:disabled{opacity:.5;cursor:default}
.rj-status{font-size:12px;color:var(--jp-ui-font-color2,#555);margin-top:6px}
.rj-done{font-size:14px;margin:8px 0}
</style>`

// screen is what the panel shows for one state of a session.
type screen struct {
	Key      string // "query\tdoc" of the pair shown ("" when all are judged)
	HTML     string // the card
	Progress string
	Judged   int
}

// cardHTML is the card for pair p: its position, the query, the document's title and text
// with the query's terms marked, and the pair's grade when it has one (back, undo). Every
// piece of data is escaped.
func cardHTML(ss *session, t docTexts) screen {
	pr := ss.Progress()
	p, ok := ss.Current()
	if !ok {
		return screen{HTML: fmt.Sprintf(`<div class="rj-done" data-judge-done>Every pair of the pool is judged (%d). The judgments are in %s.</div>`,
			pr.Total, html.EscapeString(ss.Store().Path())), Progress: pr.String(), Judged: pr.Judged}
	}
	return screen{Key: p.Query + "\t" + p.Doc, HTML: pairHTML(p, ss, t), Progress: pr.String(), Judged: pr.Judged}
}

func pairHTML(p pool.Pair, ss *session, t docTexts) string {
	q := t.Queries[p.Query]
	d := t.Docs[p.Doc]
	m, err := newMarker(q)
	var b strings.Builder
	pos := 0
	for i, x := range ss.Pool {
		if x == p {
			pos = i + 1
			break
		}
	}
	was := ""
	if g, ok := ss.Store().Grade(p); ok {
		was = fmt.Sprintf(" · judged %d (%s): a new grade replaces it", g, gradeNames[min(g, 3)])
	}
	fmt.Fprintf(&b, `<div class="rj-top"><span>pair %d of %d · query %s · document %s%s</span></div>`,
		pos, len(ss.Pool), html.EscapeString(p.Query), html.EscapeString(p.Doc), was)
	// The query itself is not marked (every word of it would be): only the document.
	text, qh, title := html.EscapeString(d.Text), html.EscapeString(q), html.EscapeString(d.Title)
	if err == nil {
		text, title = m.HTML(d.Text), m.HTML(d.Title)
	}
	fmt.Fprintf(&b, `<div class="rj-q" data-judge-query="%s"><b>Query:</b> %s</div>`, html.EscapeString(p.Query), qh)
	if d.Title != "" {
		fmt.Fprintf(&b, `<div class="rj-title">%s</div>`, title)
	}
	words, marks := len(strings.Fields(d.Text)), strings.Count(text, "<mark>")
	if strings.TrimSpace(d.Text) == "" {
		what := "no text at all"
		if d.Title != "" {
			what = "a title and no text"
		}
		fmt.Fprintf(&b, `<div class="rj-empty" data-judge-empty>This document is empty: %s. Grade what there is (an empty document answers nothing: 0), or skip it.</div>`, what)
	} else {
		fmt.Fprintf(&b, `<div class="rj-len" data-judge-length="%d" data-judge-marks="%d">%s · %s%s</div>`, words, marks,
			countOf(words, "word", "words"), countOf(marks, "marked query term", "marked query terms"), jumpHint(marks))
	}
	fmt.Fprintf(&b, `<div class="rj-text" data-judge-doc="%s">%s</div>`, html.EscapeString(p.Doc), text)
	fmt.Fprintf(&b, `<div class="rj-note"><label>note (m, Enter saves):</label><input data-judge-note maxlength="%d" value="%s" placeholder="why this grade, what is missing…"></div>`,
		maxNote, html.EscapeString(ss.Note(p)))
	return b.String()
}

// jumpHint names the keys that move between marked terms, when there are any to move to.
func jumpHint(marks int) string {
	if marks == 0 {
		return ""
	}
	return " (n: next, p: previous)"
}

// countOf writes n with thousands separators and its noun: "27,674 words", "1 word".
func countOf(n int, one, many string) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if n == 1 {
		return s + " " + one
	}
	return s + " " + many
}
