// Package live is the lab's live panel for GoNB notebooks: sliders and buttons that update the
// ranking, the metrics, both readings, the rerank before/after and the chunk overlap chart in
// place. One call from the last cell of a notebook:
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
// count at the slider's left end, then the relevant items found and up), chunk size and overlap
// are sliders; corpus tokens is a number input. Reset returns to lab.DefaultState. Copy link shows the state's link
// (lab.State.Link) and copies it to the clipboard. Export CSV writes lab.WriteCSV of the current
// outcome to ranklab-lab.csv beside the notebook (GoNB's GONB_DIR, Options.CSVDir) and links it.
// Done ends the panel.
//
// # Modes and the end of the loop
//
// Widgets only live while the cell's program runs, so a live panel blocks the cells after it;
// put it last. Show picks the mode from the environment variable RANKLAB_LIVE:
//
//   - static: a snapshot of the state at once (header, cards, ranking, charts), no front-end talk.
//   - live: the panel, waiting for a front-end however long it takes.
//   - auto (default): the panel, and when no front-end answers within RANKLAB_LIVE_PROBE (8 s) —
//     nbconvert, an exported page, a viewer — the same outputs become a static snapshot of the
//     state passed to Show. So `jupyter nbconvert --execute` never hangs.
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
// Jupyter server, installed in the page by GoNB when the program subscribes to an address). The
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
// for 0), data-action on buttons, data-live-ranking on the plain-HTML ranking list (rows with
// data-rank and data-inside-k="1" inside the top k), data-metric + data-value on the numbers of
// its caption, data-chunks on the chunking card, data-live-error on a validation message.
// scripts/check-live.sh drives them in headless Chromium.
package live
