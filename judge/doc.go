// Package judge is a judging panel for GoNB notebooks in JupyterLab: it shows the query and one
// pooled document at a time (title and text, the query's terms marked) and records a grade per
// key, so a team can make qrels for its own collection. One call from the last cell:
//
//	judge.Show(judge.Config{Pool: "pool.txt", Qrels: "judged.qrels", Corpus: "data/cranfield"})
//
// Pool is a pool file (package pool: "query 0 doc -1" lines in judging order); Corpus is a
// BEIR folder (SciFact, Cranfield, a user's own: corpus.jsonl[.gz] and queries.jsonl) or a
// JSONL corpus file with Queries naming the queries file.
//
// # Keys
//
// 0–3 grade (not relevant, related, relevant, highly relevant), s skip (the pair comes back
// once the others are judged), b or ← back (the pair judged before; a new grade replaces its
// grade), u undo (withdraws the newest judgment and shows its pair again). The panel stops
// these keys from reaching JupyterLab's command-mode shortcuts (b inserts a cell, 0 0 restarts
// the kernel). n and p move to the next and previous marked query term in the document (the
// card says how long the document is and how many terms it marks; an empty document gets a
// notice). m opens the note box: Enter saves a free-text note on the pair, Escape goes back. The progress line says "37 of 200 judged, about 12 min left at your pace": the
// pace is the mean time per judgment in the side log, each capped at 300 s.
//
// # No label is lost
//
// The judgments file (Config.Qrels) is TREC qrels, "query 0 doc grade", one line per pair:
// eval.ReadQrelsFile, trec_eval and every other tool read it, and eval's refusal of a pair
// listed twice never fires. Beside it:
//
//   - path.log, the side log: one tab-separated line per action, "time judge action query doc
//     grade seconds prev", append-only. action is judge (grade given, seconds on screen), undo
//     (the grade restored, "-" for none) or edit (a change found in the qrels file, made outside
//     the panel: judge "-", the grade found); prev is the pair's grade before the line ("-":
//     none), so an undo after reopening restores what was there before, another tool's grade
//     included. A re-judge (back, then a key) is a new judge line; the latest line of a pair
//     decides. The log is what agreement and cost studies read. (A v1 log, from before prev,
//     reads too; undo stops at a v1 judgment whose previous grade it cannot know.)
//   - path.notes.jsonl, the notes: one JSON object a line {"time", "judge", "query", "doc",
//     "note"}, append-only, the latest line of a pair its note; appended and fsynced before the
//     panel answers, as a grade (a torn last line is cut off when the next panel opens it).
//   - path.lock, held while a panel runs: it holds the panel's process id and an flock(2).
//     A second panel on the same file refuses to start (an error naming the PID). The kernel
//     drops a dead process's flock, so a lock file left by a killed panel is stale and the
//     next panel takes it over (and says so, with the dead PID). Done, an interrupt, the idle
//     and maximum timers and an orphaned cell program (its kernel gone) release it.
//
// path is the file's real path: a symbolic link is followed (link by link), so two names of one
// file share one lock and one log, and the link stays a link. New files honour the umask.
//
// Each key is made durable before the next document shows: the kernel appends the log line and
// fsyncs the log (the folder too when the log is created), then rewrites the qrels file
// atomically (internal/atomicfile: a temporary file beside it, fsync, rename over it, fsync of
// the folder), and only then sends the next screen; the page sends no other key until that
// screen arrives. A kernel restart, a closed tab, kill -9 or a power loss therefore loses at most
// a key whose screen had not changed yet. The rewrite keeps the file's own lines: comments,
// blank lines and unchanged lines as they are, a changed grade in place, new pairs at the end.
//
// Opening the file tells the crash windows from an edit. A torn last log line (power lost
// mid-append, never acknowledged) is dropped. When the qrels file disagrees with the log, is
// the file before the log's last judge or undo line and older than that line's time (a crash
// between the log's fsync and the rename), it is rewritten from the log. Any other difference
// is a change made after the panel wrote the file (by hand, by another tool): the file wins,
// the panel names the changed pairs ("1 a 2→1, 1 b 1→none") and logs them as edits; undo does
// not go past an edit of its pair. A file changed while a panel runs is taken in the same way
// before the next key is written. Judgments in a qrels file that the log does not mention
// (another tool's) are kept.
//
// A new panel on the same files resumes at the next pair of the pool file (pool order) that the
// judgments file does not grade. The page says bye when its tab closes (pagehide) or when the
// panel's output has left the page at two checks 5 s apart (the cell run again, the notebook
// closed), and the panel ends at once (its view says why), so an earlier panel does not hold
// the kernel: Run All after reopening the notebook no longer waits for its idle timer. A page
// that could not say bye (a crashed browser) leaves the idle timer; interrupting the kernel (■)
// ends the panel at once.
//
// # Several judges
//
// Config.Share "i/n" gives each of n judges a disjoint share of the pool (whole queries, dealt
// in pool order), each into a judgments file of their own; or each judge judges the whole pool
// into their own file. `ranklab judge merge` joins the files and lists the pairs graded
// differently; `ranklab agree` gives κ on the pairs two files both judge.
//
// # Automatic judges
//
// Auto judges a pool with a program instead of a person (an LLM client, a script that calls an
// API, an offline model), through a protocol of JSON lines. It starts the program once (/bin/sh
// -c, in its own process group), writes one line per pair not yet judged to its standard input,
//
//	{"qid": "1", "query": "...", "docid": "184", "title": "...", "text": "..."}
//
// and reads one line per pair from its standard output, in any order:
//
//	{"qid": "1", "docid": "184", "grade": 2, "why": "optional reason"}
//
// grade is an integer 0..3; IDs that are not UTF-8 travel as package jsonx writes them (\udcXX
// per byte) and are read back the same way. Each grade goes through the same store as the
// panel's keys (side log fsynced, qrels rewritten atomically, the lock) before the next pair is
// sent, and a reason, when given, is appended to path.why.jsonl (fsynced) before it. At most
// Config.InFlight pairs wait for an answer at once. An answer that is not a JSON object, has
// no integer grade in 0..3, or names a pair not waiting for an answer (unknown, or answered
// twice) stops the run with an error naming the output line and the pair; so does a judge that
// closes its output (exits) with pairs waiting, or stays silent for Config.Timeout (no answer,
// and no line on its standard error, which goes to Config.Log: a judge installing itself or
// retrying a busy API says so and is not taken for hung). The
// judge is then stopped: its input is closed, its process group gets SIGTERM and, 1 s later,
// SIGKILL (so Ctrl-C ends it and its children within about a second). Every grade received
// before is on disk, and a new run asks only for the pairs the judgments file does not grade.
// ranklab autojudge is the command; judges/overlap.py the example judge.
//
// # Modes
//
// As the live lab (package live, whose mode and timers it shares: RANKLAB_LIVE=static|live|auto,
// RANKLAB_LIVE_PROBE, _IDLE, _MAX; the maximum defaults to 4 h here): static
// shows at once, without a front-end, the progress, the pair that would be judged next and the
// ones after it (nbconvert never hangs), reading the files without the lock and writing nothing
// (read-only), so it works beside a running panel; auto falls back to the same view when no
// front-end answers within the probe. It connects to the page as the lab does (package live's
// doc, "How it talks to the page"; both run on panel.Serve and internal/panel/comm.js): until the page says
// hello the program asks GoNB to check and reinstall its WebSocket, and the page follows the
// current gonb_comm and repeats hello, so a busy machine delays the panel instead of leaving it
// static. Its keys stop at a capture listener on window, before JupyterLab's and Notebook 7's
// command-mode shortcuts. GoNB's comms reach ws://<host>/api/kernels/... only: behind
// JupyterHub or TLS the panel stays static.
//
// The core (judgmentStore, session, marker) knows nothing of the page and is tested without a browser;
// scripts/check-judge.sh drives the panel in JupyterLab (headless Chromium): keyboard judging,
// SIGKILL of the kernel mid-way, resume. Test hooks: data-judge-panel (data-judge-state
// connecting, live, static or closed; data-judge-pair "query<TAB>doc" on screen; data-judge-judged,
// data-judge-total), data-judge-progress, data-judge-status, data-act on buttons,
// data-judge-doc on the text, data-judge-error on an error.
package judge
