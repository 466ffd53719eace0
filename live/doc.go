// Package live is the lab's live panel for GoNB notebooks: sliders and buttons that update the
// lab's views (declared once in package charts: the metric cards, the ranking beside its reading, and in tabs the
// measures over k, the ranking table, the rerank before/after and depth sweep, the chunking
// card and windows) in place. One call from the last cell of a notebook:
//
//	live.Show(lab.DefaultState())
//
// The panel only displays: every number comes from lab.State.Outcome and every chart and card
// from package charts. Each slider offers exactly the values lab.State.Validate accepts (the
// spans come from lab.Field and follow the state), and two rules of the UI keep one control's
// move from invalidating another: the overlap slider's maximum follows the chunk size (overlap
// < chunk), and a non-zero total is raised to the relevant items found when a lower grade finds
// more. A typed corpus size out of range still shows lab's validation message in place of the
// numbers, never stale ones.
//
// # Controls
//
// k (up to 10 beyond the list, where precision still divides by k), rerank depth, reranker
// quality (0 = noise .. 75 and above = orders by grade), minimum grade, total relevant (0 = the qrels'
// count at the slider's left end, then the relevant items found and up; its label says "0 = the
// qrels' count (8)" with the count for the current grade), chunk size and overlap are sliders;
// corpus tokens is a number input. A focused control keeps its keys (arrows, Page Up/Down, Home,
// End, digits): the panel stops their keydown events before JupyterLab's notebook shortcuts,
// which would cancel them. Reset returns to lab.DefaultState. Copy link shows the state's link
// (lab.State.Link) and copies it to the clipboard. Export CSV writes lab.WriteCSV of the current
// outcome to ranklab-lab.csv beside the notebook (GoNB's GONB_DIR) and links it.
// Done ends the panel.
//
// # Layout
//
// The panel fits one 1280×800 screen in JupyterLab: the controls in four columns, the metric
// cards, the ranking chart with the reading beside it, then a tab strip for the other views
// (one shown at a time), so the cell stays within about 900 px whichever tab is open. The
// static snapshot has no tabs: it shows every view.
//
// # Modes and the end of the loop
//
// Widgets only live while the cell's program runs, so a live panel blocks the cells after it;
// put it last. Show picks the mode from the environment variable RANKLAB_LIVE:
//
//   - static: a snapshot of the state at once (header, cards, ranking, charts), no front-end talk.
//   - live: the panel, waiting for a front-end however long it takes.
//   - auto (default): the panel, and when no front-end answers within RANKLAB_LIVE_PROBE — 60 s
//     when the kernel belongs to a Jupyter server's session (JPY_SESSION_NAME, set by
//     jupyter_server for JupyterLab and Notebook 7), else 8 s (nbconvert, nbclient, papermill,
//     the classic Notebook) — the same outputs become a static snapshot of the state passed to
//     Show, saying how to retry. So `jupyter nbconvert --execute` never hangs.
//
// The live loop ends on Done, after RANKLAB_LIVE_IDLE (10 min) without input, after
// RANKLAB_LIVE_MAX (60 min) in total, or on an interrupt (SIGINT, which Jupyter's interrupt
// sends). It then leaves a static snapshot of the final state: the controls are replaced by a
// header with the state's link and the reason, and the views keep the final numbers, so the saved
// notebook shows them.
//
// # How it talks to the page
//
// The controls are plain HTML with one script that uses GoNB's gonb_comm (a WebSocket to the
// Jupyter server, installed in the page by GoNB when the program subscribes to an address).
// GoNB's page script gives up when the kernel takes over 500 ms to acknowledge it (a busy
// machine), so until the page has said hello the program asks GoNB (after 2 s, then at doubling
// intervals up to 8 s) to check the WebSocket (a heartbeat) and install it again, and the page
// follows whichever gonb_comm is current, subscribing again and repeating hello every second
// (panel.Serve and internal/panel/comm.js, the one driver of both panels). The
// page sends the whole panel with a sequence number on every move and button; the kernel keeps
// only the newest values (GoNB delivers each message on its own goroutine, out of order) and the
// page re-sends ("settle") 150 ms after the last move, so a burst of moves ends on the value the
// slider shows. Each view is its own notebook output updated with gonbui.UpdateHTML; an
// unchanged view is not re-sent. GoNB's script reaches ws://<host>/api/kernels/...: behind
// JupyterHub or TLS the panel cannot connect and auto mode falls back to the snapshot.
//
// # Test hooks
//
// Stable attributes for browser tests: data-live-panel (data-live-state connecting, live,
// static or closed), data-field on controls (data-zero-at on a slider: the position that stands
// for 0; data-zero-note on its note), data-action on buttons, data-live-tabs on the tab strip
// (data-tab on its buttons) and data-live-of + data-live-tab on each tabbed view; inside the
// views (package charts) data-metric-card on each card, data-reading on the reading,
// data-ranking-table on the ranking table (rows with data-rank and data-inside-k="1" inside the
// top k), data-metric + data-value on the numbers of its caption, data-footprint with
// data-chunks on the chunking card; data-live-error on a validation message.
// scripts/check-live.sh drives them in headless Chromium.
package live
