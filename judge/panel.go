package judge

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/comms"
	"github.com/ranklab/ranklab/internal/panel"
	"github.com/ranklab/ranklab/pool"
)

// pageGone ends a live panel whose page has said nothing (no ping, no key) for this long: the
// page pings every 20 s while the panel is in it (browsers slow a hidden tab's timers to once a
// minute), so only a closed tab or output falls silent.
const pageGone = 90 * time.Second

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
	Judge   string // the judge's name in the side log; "" for $USER (or "judge")
	// Share is "i/n" to judge the i-th of n disjoint shares of the pool (whole queries: the
	// k-th query of the pool file, in its order, goes to share (k mod n) + 1), each judge into
	// a judgments file of their own; "" judges it all. `ranklab judge merge` joins the files.
	Share string
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
// "hello", and "ping" or "bye", which say the page is still there or gone) and the pair ("query\tdoc") on screen when it was pressed.
type inMsg struct {
	Seq  int    `json:"seq"`
	Act  string `json:"act"`
	Pair string `json:"pair"`
	Note string `json:"note,omitempty"` // act "note": the note on the pair
}

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

func runLive(ss *session, t docTexts, opt panel.Options) error {
	uid := gonbui.UniqueId()
	id := "ranklab-judge-" + uid
	in, out := "/ranklab/judge/"+uid+"/in", "/ranklab/judge/"+uid+"/out"
	region := "ranklab_judge_" + uid
	msgs := make(chan inMsg, 64)
	sub := comms.Subscribe(in, func(_ string, v string) {
		var m inMsg
		if err := json.Unmarshal([]byte(v), &m); err != nil {
			fmt.Fprintf(os.Stderr, "judge: bad message from the page %q: %v\n", v, err)
			return
		}
		msgs <- m
	})
	defer comms.Unsubscribe(sub)
	gonbui.UpdateHTML(region, panelHTML(id, in, out, ss, t))
	gonbui.Sync()

	watch, unwatch := context.WithCancel(context.Background())
	defer unwatch()
	panel.WatchParent(watch, func() { ss.Store().Close() })

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, opt.Max)
	defer cancel()
	var probe <-chan time.Time
	if opt.Mode == panel.Auto {
		probe = time.After(opt.Probe)
	}
	// Until the page says hello, poke GoNB (panel.PokeFirst, then doubling): it checks its
	// WebSocket to the page and installs it again when the page's side is gone, as on a busy
	// machine; the page's connectComm follows the new one.
	pokeWait := panel.PokeFirst
	poke := time.NewTimer(pokeWait)
	defer poke.Stop()
	idle := time.NewTimer(opt.Idle)
	defer idle.Stop()
	// The page pings while the panel is in it and says bye when it goes: a closed tab must not
	// keep the kernel busy (Run All would wait behind this cell with no word).
	gone := time.NewTimer(pageGone)
	defer gone.Stop()
	shown := time.Now()
	connected := false
	reason := ""
	reply := func(seq int, status string, closed bool) {
		sc := cardHTML(ss, t)
		was := -1
		if p, ok := ss.Current(); ok {
			if g, ok := ss.Store().Grade(p); ok {
				was = g
			}
		}
		js, _ := json.Marshal(outMsg{Seq: seq, Key: sc.Key, HTML: sc.HTML, Progress: sc.Progress, Judged: sc.Judged, Was: was, Status: status, Closed: closed})
		comms.Send(out, string(js))
		shown = time.Now()
	}
	const help = "keys: 0–3 grade · s skip · b or ← back · u undo · n/p next/previous marked term · m note (each judgment and note is on disk before the next document shows)"
loop:
	for {
		select {
		case <-probe:
			if !connected {
				reason = "no-frontend"
				break loop
			}
		case <-poke.C:
			if connected {
				continue
			}
			comms.Start()
			pokeWait = panel.NextPoke(pokeWait)
			poke.Reset(pokeWait)
		case <-ctx.Done():
			reason = "max"
			if ctx.Err() == context.Canceled {
				reason = "interrupt"
			}
			break loop
		case <-idle.C:
			reason = "idle"
			break loop
		case <-gone.C:
			if connected {
				reason = fmt.Sprintf("the page went away (no word from it for %v: its tab was closed?)", pageGone)
				break loop
			}
			gone.Reset(pageGone)
		case m := <-msgs:
			gone.Reset(pageGone)
			if m.Act == "ping" {
				continue
			}
			if m.Act == "bye" {
				reason = "the page went away (its tab or output was closed)"
				break loop
			}
			idle.Reset(opt.Idle)
			if m.Act == "hello" {
				connected = true
				st := help
				if pid := ss.Store().StaleLock; pid != 0 {
					st = staleNote(pid) + " · " + help
				}
				if r := ss.Store().Repaired; len(r) > 0 {
					st = "repaired: " + strings.Join(r, "; ") + " · " + st
				}
				reply(m.Seq, st, false)
				continue
			}
			if m.Act == "done" {
				reason = "done"
				break loop
			}
			cur, ok := ss.Current()
			if key := cur.Query + "\t" + cur.Doc; !ok && m.Pair != "" || ok && m.Pair != key {
				reply(m.Seq, "that key was for another document: nothing recorded", false)
				continue
			}
			status := help
			var err error
			switch m.Act {
			case "0", "1", "2", "3":
				err = ss.Grade(int(m.Act[0]-'0'), time.Since(shown).Seconds())
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
				if ss.notes == nil {
					err = fmt.Errorf("no notes file")
				} else if err = ss.notes.Add(cur, ss.Store().judge, m.Note); err == nil {
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
			reply(m.Seq, status, false)
		}
	}
	ss.Store().Close()
	ss.notes.Close()
	if reason != "no-frontend" {
		reply(-1, "closed: "+reason, true)
	}
	state := "closed"
	if reason == "no-frontend" {
		state = "static"
	}
	gonbui.UpdateHTML(region, staticHTML(id, ss, t, state, reason))
	gonbui.Sync()
	return nil
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
