package judge

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"os"
	"strings"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/ranklab/ranklab/internal/panel"
	"github.com/ranklab/ranklab/pool"
)

// defaultMax ends a live panel after this long in total unless RANKLAB_LIVE_MAX says otherwise
// (re-running the cell resumes; nothing is lost).
const defaultMax = 4 * time.Hour

//go:embed panel.js
var panelJS string

// Config names the files of a judging session.
type Config struct {
	Pool    string // the pool file (pool.WriteFile's "query 0 doc -1" lines, in judging order)
	Qrels   string // the judgments file (TREC qrels), created when missing
	Corpus  string // a BEIR folder or a JSONL corpus file
	Queries string // the queries JSONL file; "" for the BEIR folder's queries.jsonl
	Judge   string // the judge's name in the side log; "" for $USER (or "judge"; "auto" in Auto)
	// Share is "i/n" to judge the i-th of n disjoint shares of the pool (whole queries: the
	// k-th query of the pool file, in its order, goes to share (k mod n) + 1), each judge into
	// a judgments file of their own; "" judges it all. `ranklab judge merge` joins the files.
	Share string

	// For Auto only: the automatic judge's process and how it is driven (zero values: defaults).
	Command  string        // the judge's command line, run once with /bin/sh -c
	InFlight int           // pairs sent and not answered yet, at most (0: 8)
	Timeout  time.Duration // longest silence (no answer, nothing on its stderr) while pairs wait (0: 2 min)
	Log      io.Writer     // progress lines and the judge's standard error (nil: os.Stderr)
}

// Show runs the judging panel for cfg in the current notebook cell: live when a front-end
// answers, a static view of what is to judge otherwise (the mode and time limits come from
// RANKLAB_LIVE and friends, as for the live lab). Outside a notebook it does nothing. Errors (a
// missing file, a locked judgments file) are shown in the output.
func Show(cfg Config) {
	if !gonbui.IsNotebook {
		return
	}
	opt, err := panel.OptionsFromEnv(os.Getenv)
	if err != nil {
		showError(err)
		opt = panel.Options{Mode: panel.Static}
	}
	if os.Getenv(panel.EnvMax) == "" {
		opt.Max = defaultMax // a judging session outlasts the lab's hour
	}
	if err := runPanel(cfg, opt); err != nil {
		showError(err)
	}
}

func showError(err error) {
	gonbui.DisplayHTML(fmt.Sprintf(`<pre data-judge-error>%s</pre>`, html.EscapeString(err.Error())))
	gonbui.Sync()
}

// prepare reads the pool and the texts and opens the judgments file (taking its lock; static:
// read-only, without the lock).
func prepare(cfg Config, static bool) (*session, docTexts, error) {
	pairs, _, err := pool.ReadFile(cfg.Pool)
	if err != nil {
		return nil, docTexts{}, err
	}
	if pairs, err = share(pairs, cfg.Share); err != nil {
		return nil, docTexts{}, err
	}
	texts, err := loadTexts(pairs, cfg.Corpus, cfg.Queries)
	if err != nil {
		return nil, docTexts{}, err
	}
	name := cfg.Judge
	if name == "" {
		if name = os.Getenv("USER"); name == "" {
			name = "judge"
		}
	}
	var st *judgmentStore
	if static {
		st, err = openStoreReadOnly(cfg.Qrels)
	} else {
		st, err = openStore(cfg.Qrels, name)
	}
	if err != nil {
		return nil, docTexts{}, err
	}
	notes, err := openNotes(cfg.Qrels, static)
	if err != nil {
		st.Close()
		return nil, docTexts{}, err
	}
	ss := newSession(pairs, st)
	ss.notes = notes
	return ss, texts, nil
}

// share returns the pairs of share spec ("i/n": the queries whose place in the pool, counted
// from 0 in order of first appearance, is i−1 modulo n), or every pair for "".
func share(pairs []pool.Pair, spec string) ([]pool.Pair, error) {
	if spec == "" {
		return pairs, nil
	}
	var i, n int
	if _, err := fmt.Sscanf(spec, "%d/%d", &i, &n); err != nil || n < 1 || i < 1 || i > n || fmt.Sprintf("%d/%d", i, n) != spec {
		return nil, fmt.Errorf("judge: share %q: want i/n with 1 <= i <= n, e.g. 1/2", spec)
	}
	place := map[string]int{}
	var out []pool.Pair
	for _, p := range pairs {
		k, ok := place[p.Query]
		if !ok {
			k = len(place)
			place[p.Query] = k
		}
		if k%n == i-1 {
			out = append(out, p)
		}
	}
	return out, nil
}

// runPanel is Show with explicit options; it returns the errors Show displays.
func runPanel(cfg Config, opt panel.Options) error {
	ss, texts, err := prepare(cfg, opt.Mode == panel.Static)
	if err != nil {
		return err
	}
	defer ss.Store().Close()
	defer ss.notes.Close()
	if opt.Mode == panel.Static {
		gonbui.DisplayHTML(staticHTML("ranklab-judge-"+gonbui.UniqueId(), ss, texts, "static", "RANKLAB_LIVE=static"))
		gonbui.Sync()
		return nil
	}
	return runLive(ss, texts, opt)
}

// staticHTML is the panel without a front-end: the progress, the pair that would be judged
// next (its card) and the next pairs after it. id is its DOM id, state data-judge-state's value.
func staticHTML(id string, ss *session, t docTexts, state, reason string) string {
	sc := cardHTML(ss, t)
	var b strings.Builder
	b.WriteString(style)
	pr := ss.Progress()
	fmt.Fprintf(&b, `<div class="rj" id="%s" data-judge-panel data-judge-state="%s" data-judge-reason="%s" data-judge-judged="%d" data-judge-total="%d" data-judge-pair="%s">`,
		html.EscapeString(id), state, html.EscapeString(reason), pr.Judged, pr.Total, html.EscapeString(sc.Key))
	fmt.Fprintf(&b, `<div class="rj-top"><span data-judge-progress>%s</span><span>%s · %s</span></div>`,
		html.EscapeString(sc.Progress), html.EscapeString(ss.Store().Path()), html.EscapeString(reason))
	if pid := ss.Store().StaleLock; pid != 0 {
		fmt.Fprintf(&b, `<div class="rj-status" data-judge-status>%s</div>`, html.EscapeString(staleNote(pid)))
	}
	if sc.Key != "" {
		b.WriteString(`<div class="rj-status">Next to judge (the panel is not live here: run the cell in JupyterLab to judge):</div>`)
	}
	fmt.Fprintf(&b, `<div data-judge-card>%s</div>`, sc.HTML)
	var next []string
	for _, p := range ss.Pool {
		if _, ok := ss.Store().Grade(p); !ok && p.Query+"\t"+p.Doc != sc.Key && len(next) < 10 {
			next = append(next, html.EscapeString(p.Query+" / "+p.Doc))
		}
	}
	if len(next) > 0 {
		fmt.Fprintf(&b, `<div class="rj-status">Then (query / document): %s</div>`, strings.Join(next, ", "))
	}
	b.WriteString(`</div>`)
	return b.String()
}

// staleNote says that this panel took over the lock of process pid, a panel that ended without
// closing (shown live and in the static view).
func staleNote(pid int) string {
	return fmt.Sprintf("took over the lock of process %d, which ended without closing (nothing is lost: every judgment was on disk)", pid)
}

// inMsg is one key from the page: the action ("0".."3", "skip", "back", "undo", "note", "done",
// "hello", or "bye": the page went away) and the pair ("query\tdoc") on screen when it was pressed.
type inMsg struct {
	Seq  int    `json:"seq"`
	Act  string `json:"act"`
	Pair string `json:"pair"`
	Note string `json:"note,omitempty"` // act "note": the note on the pair
}

// pageGone is the end reason when the page says bye: its tab closed, or its output was cleared
// (Run All again): the cell program ends instead of holding the kernel until its idle timer.
const pageGone = "the page went away (its tab closed or its output was cleared)"

// outMsg is the kernel's reply: the screen after the key (sent once the judgment is durable).
type outMsg struct {
	Seq      int    `json:"seq"`
	Key      string `json:"key"`
	HTML     string `json:"html"`
	Progress string `json:"progress"`
	Judged   int    `json:"judged"`
	Was      int    `json:"was"` // the pair's grade, -1 when none
	Status   string `json:"status"`
	Closed   bool   `json:"closed,omitempty"`
}

// help is the status line of a panel waiting for a key.
const help = "keys: 0–3 grade · s skip · b or ← back · u undo · n/p next/previous marked term · m note (each judgment and note is on disk before the next document shows)"

// livePanel is one run of the judging panel, its panel.Handler.
type livePanel struct {
	ss          *session
	t           docTexts
	id, in, out string // DOM id of the panel, page->kernel and kernel->page addresses
	region      string // the panel's output, updated in place
	shown       time.Time
}

func runLive(ss *session, t docTexts, opt panel.Options) error {
	uid := gonbui.UniqueId()
	p := &livePanel{ss: ss, t: t, id: "ranklab-judge-" + uid, in: "/ranklab/judge/" + uid + "/in", out: "/ranklab/judge/" + uid + "/out",
		region: "ranklab_judge_" + uid, shown: time.Now()}
	panel.Serve(p.in, p.out, p, opt)
	return nil
}

// Show implements panel.Handler.
func (p *livePanel) Show() { gonbui.UpdateHTML(p.region, panelHTML(p.id, p.in, p.out, p.ss, p.t)) }

// reply is the screen after a key: the card of the pair to judge now, and status.
func (p *livePanel) reply(seq int, status string, closed bool) string {
	ss := p.ss
	sc := cardHTML(ss, p.t)
	was := -1
	if cur, ok := ss.Current(); ok {
		if g, ok := ss.Store().Grade(cur); ok {
			was = g
		}
	}
	js, _ := json.Marshal(outMsg{Seq: seq, Key: sc.Key, HTML: sc.HTML, Progress: sc.Progress, Judged: sc.Judged, Was: was, Status: status, Closed: closed})
	p.shown = time.Now()
	return string(js)
}

// Handle implements panel.Handler: each key is applied to the pair it was pressed on (a key for
// another pair records nothing) and answered with the next screen, once its judgment is on disk.
func (p *livePanel) Handle(msgs []string) (replies []string, hello bool, end string) {
	ss := p.ss
	for _, v := range msgs {
		var m inMsg
		if err := json.Unmarshal([]byte(v), &m); err != nil {
			fmt.Fprintf(os.Stderr, "judge: bad message from the page %q: %v\n", v, err)
			continue
		}
		if m.Act == "hello" {
			hello = true
			st := help
			if pid := ss.Store().StaleLock; pid != 0 {
				st = staleNote(pid) + " · " + help
			}
			if r := ss.Store().Repaired; len(r) > 0 {
				st = "repaired: " + strings.Join(r, "; ") + " · " + st
			}
			replies = append(replies, p.reply(m.Seq, st, false))
			continue
		}
		if m.Act == "done" {
			return replies, hello, panel.Done
		}
		if m.Act == "bye" {
			return replies, hello, pageGone
		}
		cur, ok := ss.Current()
		if key := cur.Query + "\t" + cur.Doc; !ok && m.Pair != "" || ok && m.Pair != key {
			replies = append(replies, p.reply(m.Seq, "that key was for another document: nothing recorded", false))
			continue
		}
		status := help
		var err error
		switch m.Act {
		case "0", "1", "2", "3":
			err = ss.Grade(int(m.Act[0]-'0'), time.Since(p.shown).Seconds())
			if err == nil {
				status = fmt.Sprintf("on disk: query %s, document %s = %s (%s)", cur.Query, cur.Doc, m.Act, gradeNames[m.Act[0]-'0'])
			}
		case "skip":
			ss.Skip()
			status = fmt.Sprintf("skipped %s %s for now", cur.Query, cur.Doc)
		case "back":
			if !ss.Back() {
				status = "nothing judged before this one"
			}
		case "note":
			if err = ss.notes.Add(cur, ss.Store().judge, m.Note); err == nil {
				status = fmt.Sprintf("note on disk for query %s, document %s", cur.Query, cur.Doc)
				if strings.TrimSpace(m.Note) == "" {
					status = fmt.Sprintf("note withdrawn for query %s, document %s", cur.Query, cur.Doc)
				}
			}
		case "undo":
			var ok bool
			if ok, err = ss.Undo(); err == nil && !ok {
				status = "nothing to undo"
			} else if ok {
				status = "undone: the grade of this pair is withdrawn (or restored to the one before)"
			}
		}
		if err != nil {
			status = "NOT SAVED: " + err.Error()
		}
		replies = append(replies, p.reply(m.Seq, status, false))
	}
	return replies, hello, ""
}

// Final implements panel.Handler: the judgments file is closed (its lock released), the page's
// keys are turned off and the panel becomes its static view.
func (p *livePanel) Final(reason string, send func(string)) {
	p.ss.Store().Close()
	p.ss.notes.Close()
	state := "static"
	if send != nil {
		state = "closed"
		send(p.reply(-1, "closed: "+reason, true))
	}
	gonbui.UpdateHTML(p.region, staticHTML(p.id, p.ss, p.t, state, reason))
}

// Orphaned implements panel.Handler: the kernel is gone, the lock is released.
func (p *livePanel) Orphaned() {
	p.ss.Store().Close()
	p.ss.notes.Close()
}

// panelHTML is the live panel: the progress, the card, the buttons and the script.
func panelHTML(id, in, out string, ss *session, t docTexts) string {
	sc := cardHTML(ss, t)
	var b strings.Builder
	b.WriteString(style)
	pr := ss.Progress()
	fmt.Fprintf(&b, `<div class="rj" id="%s" tabindex="0" data-judge-panel data-judge-state="connecting" data-judge-judged="%d" data-judge-total="%d" data-judge-pair="%s">`,
		id, pr.Judged, pr.Total, html.EscapeString(sc.Key))
	fmt.Fprintf(&b, `<div class="rj-top"><span data-judge-progress>%s</span><span>%s</span></div>`,
		html.EscapeString(sc.Progress), html.EscapeString(ss.Store().Path()))
	fmt.Fprintf(&b, `<div data-judge-card>%s</div><div class="rj-bar">`, sc.HTML)
	for g, label := range gradeNames {
		fmt.Fprintf(&b, `<button data-act="%d" data-grade="%d" disabled title="key %d">%d · %s</button>`, g, g, g, g, label)
	}
	b.WriteString(`<button data-act="skip" disabled title="key s">skip (s)</button><button data-act="back" disabled title="key b or ←">back (b)</button>` +
		`<button data-act="undo" disabled title="key u">undo (u)</button><button data-act="done" disabled>Done</button></div>`)
	b.WriteString(`<div class="rj-status" data-judge-status>connecting to the Go kernel…</div></div>`)
	cfg, _ := json.Marshal(map[string]string{"id": id, "in": in, "out": out}) // HTML-safe escaping
	b.WriteString(panel.Script(panelJS, string(cfg)))
	return b.String()
}
