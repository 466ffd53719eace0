package live

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"

	"github.com/ranklab/ranklab/internal/atomicfile"
	"github.com/ranklab/ranklab/internal/panel"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/ranklab/ranklab/charts"
	"github.com/ranklab/ranklab/lab"
)

//go:embed panel.js
var panelJS string

// CSVName is the file Export CSV writes (beside the notebook).
const CSVName = "ranklab-lab.csv"

// Show displays the lab for state s in the current notebook cell: live controls when a
// front-end answers, a static snapshot otherwise (see the package doc). The mode and the time
// limits come from the environment (RANKLAB_LIVE and friends); a malformed variable is reported in the
// output and the snapshot is shown. Outside a notebook Show does nothing.
func Show(s lab.State) {
	opt, err := panel.OptionsFromEnv(os.Getenv)
	if err != nil {
		if gonbui.IsNotebook {
			gonbui.DisplayHTML(fmt.Sprintf(`<pre data-live-error>%s</pre>`, html.EscapeString(err.Error())))
		}
		opt = panel.Options{Mode: panel.Static}.WithDefaults()
	}
	showWith(s, opt)
}

// showWith is Show with explicit options. It returns the final state (s itself in static mode).
func showWith(s lab.State, opt panel.Options) lab.State {
	if !gonbui.IsNotebook {
		return s
	}
	opt = opt.WithDefaults()
	if opt.Mode == panel.Static {
		showStatic(s, "forced", opt)
		return s
	}
	return runLive(s, opt)
}

// showStatic displays the snapshot of s: the header and every view, as persistent outputs.
func showStatic(s lab.State, reason string, opt panel.Options) {
	charts.Show(append([]string{headerHTML(s, "static", reason, opt)}, views(s)...)...)
}

// session is one run of the live panel, its panel.Handler. Its regions are the controls
// (controlsRegion), the tab strip (tabsRegion) and one per liveViews entry (viewRegion + i), each
// a notebook output updated in place; they are first sent in display order, which fixes their
// order in the cell.
type session struct {
	uid         string
	id, in, out string // DOM id of the panel, page->kernel and kernel->page addresses
	regions     []string
	opt         panel.Options
	state       lab.State
	sent        []string // last HTML sent per region, to skip unchanged ones
	cache       viewCache
	tabsSent    bool
	box         inbox // the page's messages, newest values first
}

const (
	controlsRegion = 0
	tabsRegion     = 1
	viewRegion     = 2 // the first view's region
)

func runLive(s lab.State, opt panel.Options) lab.State {
	uid := gonbui.UniqueId()
	ss := &session{
		uid:   uid,
		id:    "ranklab-live-" + uid,
		in:    "/ranklab/live/" + uid + "/in",
		out:   "/ranklab/live/" + uid + "/out",
		opt:   opt,
		state: s,
		box:   newInbox(),
	}
	ss.regions = make([]string, viewRegion+len(liveViews))
	for i := range ss.regions {
		ss.regions[i] = fmt.Sprintf("ranklab_live_%s_%d", uid, i)
	}
	ss.sent = make([]string, len(ss.regions))
	panel.Serve(ss.in, ss.out, ss, opt)
	return ss.state
}

// Show implements panel.Handler: the embedded ECharts (once per kernel run, offline mode), the
// controls and every view.
func (ss *session) Show() {
	charts.Show()
	ss.update(controlsRegion, panelHTML(ss.id, ss.state, ss.in, ss.out))
	ss.render()
}

// Handle implements panel.Handler: the newest values win (by the page's sequence number), every
// button is carried out, the views are rendered once and the state goes back to the page.
func (ss *session) Handle(msgs []string) (replies []string, hello bool, end string) {
	for _, v := range msgs {
		m, err := parseIn(v)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			continue
		}
		ss.box.put(m)
	}
	values, seq, actions, hello := ss.box.take()
	if values != nil {
		ss.state = apply(ss.state, values)
	}
	msg := outMsg{Seq: seq}
	for _, a := range actions {
		switch a {
		case "reset":
			ss.state = lab.DefaultState()
		case "csv":
			name, data, err := ss.writeCSV()
			if err != nil {
				msg.Error = err.Error()
				msg.Status = "Export CSV failed: " + err.Error()
			} else {
				msg.CSV, msg.CSVData = name, data
			}
		case "done":
			end = panel.Done
		}
	}
	ss.render()
	return []string{ss.reply(msg)}, hello, end
}

// Orphaned implements panel.Handler: the live lab holds nothing to release.
func (ss *session) Orphaned() {}

// render sends every view region whose HTML changed, and the tab strip (once) just before the
// first tabbed view.
func (ss *session) render() {
	for i, v := range viewsWith(ss.state, &ss.cache) {
		if i == firstTab() && !ss.tabsSent {
			ss.update(tabsRegion, tabsHTML(ss.uid))
			ss.tabsSent = true
		}
		ss.update(viewRegion+i, tabbed(ss.uid, i, v))
	}
}

// update sends region i unless its HTML is unchanged.
func (ss *session) update(i int, html string) {
	if ss.sent[i] == html {
		return
	}
	ss.sent[i] = html
	if html == "" {
		html = "<span></span>" // an empty output keeps its place in the cell
	}
	gonbui.UpdateHTML(ss.regions[i], html)
}

// reply is the state as the page reads it.
func (ss *session) reply(m outMsg) string {
	m.Values = controlValues(ss.state)
	m.Min, m.Max, m.Zero = controlSpans(ss.state)
	m.Link = ss.state.Link()
	m.Notes = controlNotes(ss.state)
	if m.Status == "" {
		m.Status = "live: move a control; Done ends the panel and keeps a snapshot"
		if _, err := ss.state.Outcome(); err != nil {
			m.Status = "live: invalid state, see the message below"
		}
	}
	js, _ := json.Marshal(m) // plain values always marshal
	return string(js)
}

// Final implements panel.Handler: the page's controls are disabled, then replaced by the
// snapshot header; the views already show the final state.
func (ss *session) Final(reason string, send func(string)) {
	state := "closed"
	if send == nil {
		state = "static"
	} else {
		send(ss.reply(outMsg{Seq: -1, Closed: true, Status: "closed: " + reason}))
	}
	ss.render()
	// The snapshot shows every view: without the tab strip (and its style) none is hidden.
	ss.update(tabsRegion, "")
	ss.update(controlsRegion, headerHTML(ss.state, state, reason, ss.opt))
}

// writeCSV writes the current outcome to CSVName in the CSV directory and returns the file
// name and its content. The page links the content itself (a download), since the file's URL
// depends on the front-end (JupyterLab, Notebook 7, the classic Notebook, a base URL).
func (ss *session) writeCSV() (name, data string, err error) {
	o, err := ss.state.Outcome()
	if err != nil {
		return "", "", fmt.Errorf("the state is invalid: %v", err)
	}
	var buf bytes.Buffer
	if err := lab.WriteCSV(&buf, o); err != nil {
		return "", "", err
	}
	path := filepath.Join(ss.opt.CSVDir, CSVName)
	if err := atomicfile.WriteFile(path, buf.Bytes()); err != nil {
		return "", "", err
	}
	return CSVName, buf.String(), nil
}

// jsonHTMLSafe marshals v with encoding/json's HTML-safe escaping (<, >, & as \u003c...), so
// the result can sit inside a <script> element.
func jsonHTMLSafe(v any) (string, error) {
	js, err := json.Marshal(v)
	return string(js), err
}
