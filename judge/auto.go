package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/ranklab/ranklab/internal/jsonx"
	"github.com/ranklab/ranklab/internal/scan"
	"github.com/ranklab/ranklab/pool"
)

// AutoReport is what Auto did.
type AutoReport struct {
	Pairs   int           // pairs in the pool
	Before  int           // judged before this run (a resume asks only for the others)
	Judged  int           // judged in this run, each on disk
	Elapsed time.Duration // from the judge's start to its end
}

// autoRequest is one line sent to the judge.
type autoRequest struct {
	QID   string `json:"qid"`
	Query string `json:"query"`
	DocID string `json:"docid"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

// autoWhy is one line of the why file: a judge's reason for a grade.
type autoWhy struct {
	Time  string `json:"time"`
	Judge string `json:"judge"`
	QID   string `json:"qid"`
	DocID string `json:"docid"`
	Grade int    `json:"grade"`
	Why   string `json:"why"`
}

// errJudge marks what the judge process did wrong (a malformed answer, death, a hang), as
// opposed to a file ranklab could not read or write.
var errJudge = errors.New("judge")

// Auto judges the pool of cfg with an automatic judge: it starts cfg.Command once, in its own
// process group, writes it one JSON line per pair not yet judged and reads back one JSON line
// per pair (the protocol, the package doc's "Automatic judges"), recording each grade in
// cfg.Qrels as the panel does (side log fsynced, qrels rewritten atomically) before the next pair
// is sent. At most cfg.InFlight pairs wait for an answer at once. It returns when every pair is
// judged, the judge fails (a malformed answer, an exit, no answer within cfg.Timeout) or ctx
// ends; the judge and its children are then stopped (SIGTERM to its group, SIGKILL 1 s later).
// Every grade received before that is on disk; running Auto again asks only for the rest.
func Auto(ctx context.Context, cfg Config) (AutoReport, error) {
	if cfg.InFlight == 0 {
		cfg.InFlight = 8
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 2 * time.Minute
	}
	if cfg.Log == nil {
		cfg.Log = os.Stderr
	}
	// The judge's standard error (copied by os/exec's goroutine) and the run's own progress lines
	// share the log: one lock keeps a writer that is not safe for concurrent use (a buffer) whole.
	cfg.Log = &lockedWriter{w: cfg.Log}
	switch {
	case strings.TrimSpace(cfg.Command) == "":
		return AutoReport{}, errors.New("judge: no judge command")
	case cfg.InFlight < 0:
		return AutoReport{}, fmt.Errorf("judge: %d pairs in flight: want 1 or more", cfg.InFlight)
	case cfg.Timeout < 0:
		return AutoReport{}, fmt.Errorf("judge: timeout %v is negative", cfg.Timeout)
	}
	if cfg.Judge == "" {
		cfg.Judge = "auto"
	}
	pairs, _, err := pool.ReadFile(cfg.Pool)
	if err != nil {
		return AutoReport{}, err
	}
	texts, err := loadTexts(pairs, cfg.Corpus, cfg.Queries)
	if err != nil {
		return AutoReport{}, err
	}
	st, err := openStore(cfg.Qrels, cfg.Judge)
	if err != nil {
		return AutoReport{}, err
	}
	defer st.Close()
	if st.StaleLock != 0 {
		fmt.Fprintf(cfg.Log, "autojudge: %s.lock was left by process %d, which is gone: taken over\n", cfg.Qrels, st.StaleLock)
	}
	for _, r := range st.Repaired {
		fmt.Fprintf(cfg.Log, "autojudge: repaired %s\n", r)
	}
	rep := AutoReport{Pairs: len(pairs)}
	var todo []pool.Pair
	for _, p := range pairs {
		if _, ok := st.Grade(p); ok {
			rep.Before++
		} else {
			todo = append(todo, p)
		}
	}
	if len(todo) == 0 {
		fmt.Fprintf(cfg.Log, "autojudge: all %d pairs of %s are judged in %s: nothing to ask\n", len(pairs), cfg.Pool, cfg.Qrels)
		return rep, nil
	}
	fmt.Fprintf(cfg.Log, "autojudge: %d of %d pairs to judge (%d judged before), %d in flight at most, timeout %v\n",
		len(todo), len(pairs), rep.Before, cfg.InFlight, cfg.Timeout)
	start := time.Now()
	r := &autoRun{cfg: cfg, st: st, texts: texts, todo: todo, rep: &rep, start: start}
	err = r.run(ctx)
	rep.Elapsed = time.Since(start)
	if r.why != nil {
		if cerr := r.why.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return rep, fmt.Errorf("%w; %d grades of this run are on disk in %s (%d of %d pairs judged): run again to resume", err, rep.Judged, cfg.Qrels, rep.Before+rep.Judged, rep.Pairs)
	}
	fmt.Fprintf(cfg.Log, "autojudge: %d pairs judged in %.1f s, %d of %d in %s\n", rep.Judged, rep.Elapsed.Seconds(), rep.Before+rep.Judged, rep.Pairs, cfg.Qrels)
	return rep, nil
}

// autoRun is one run of a judge process.
type autoRun struct {
	cfg   Config
	st    *judgmentStore
	texts docTexts
	todo  []pool.Pair
	rep   *AutoReport
	why   *os.File // the why file, opened at the first reason given
	start time.Time
}

// answerLine is one line the judge wrote, or the end of its output.
type answerLine struct {
	n    int
	line []byte
	err  error // io.EOF at a clean end
}

func (r *autoRun) run(ctx context.Context) error {
	cmd := exec.Command("/bin/sh", "-c", r.cfg.Command)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Stderr = r.cfg.Log
	// A child that left the group and kept the judge's standard error open cannot hold Wait.
	cmd.WaitDelay = time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("judge: starting %q: %w", r.cfg.Command, err)
	}
	exited := make(chan error, 1)
	var waitOnce sync.Once
	wait := func() { waitOnce.Do(func() { exited <- cmd.Wait() }) }
	// stop ends the judge and everything it started: its standard input closes, its process
	// group gets SIGTERM, and SIGKILL after grace.
	stopped := false
	stop := func(grace time.Duration) error {
		if stopped {
			return nil
		}
		stopped = true
		stdin.Close()
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		go wait()
		select {
		case err := <-exited:
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // children that outlived it
			return err
		case <-time.After(grace):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			return <-exited
		}
	}
	defer stop(time.Second)

	// Lines from the judge, read on their own goroutine so that a silent judge cannot block the
	// timer or ctx.
	lines := make(chan answerLine)
	done := make(chan struct{})
	defer close(done)
	go func() {
		sc := scan.NewLines(stdout)
		for sc.Next() {
			select {
			case lines <- answerLine{n: sc.Line(), line: bytes.Clone(sc.Bytes())}:
			case <-done:
				return
			}
		}
		err := sc.Err()
		if err == nil {
			err = io.EOF
		}
		select {
		case lines <- answerLine{n: sc.Line() + 1, err: err}:
		case <-done:
		}
	}()
	// Requests, written on their own goroutine: a judge that stops reading blocks only it.
	requests := make(chan []byte, r.cfg.InFlight)
	writeErr := make(chan error, 1)
	go func() {
		for b := range requests {
			if _, err := stdin.Write(b); err != nil {
				writeErr <- err
				for range requests {
				}
				return
			}
		}
	}()
	defer close(requests)

	waiting := map[pool.Pair]time.Time{} // sent, not answered
	next := 0
	send := func() error {
		p := r.todo[next]
		next++
		d := r.texts.Docs[p.Doc]
		b, err := jsonx.Encode(autoRequest{QID: p.Query, Query: r.texts.Queries[p.Query], DocID: p.Doc, Title: d.Title, Text: d.Text}, "", "", false)
		if err != nil {
			return err
		}
		waiting[p] = time.Now()
		requests <- b
		return nil
	}
	for next < len(r.todo) && len(waiting) < r.cfg.InFlight {
		if err := send(); err != nil {
			return err
		}
	}
	lastReport := time.Now()
	var writeFailed error
	timer := time.NewTimer(r.cfg.Timeout)
	defer timer.Stop()
	for len(waiting) > 0 {
		select {
		case <-ctx.Done():
			stop(time.Second)
			return fmt.Errorf("judge: stopped (%v) with %d pairs unanswered", context.Cause(ctx), len(waiting))
		case <-timer.C:
			return fmt.Errorf("%w: no answer for %v; %d pairs waiting, the oldest %s", errJudge, r.cfg.Timeout, len(waiting), oldest(waiting))
		case err := <-writeErr:
			// The judge closed its input: its output ends too, or the timer ends the run.
			writeFailed, writeErr = err, nil
		case a := <-lines:
			if a.err == io.EOF {
				what := "closed its output"
				if writeFailed != nil {
					what += fmt.Sprintf(" and its input (%v)", writeFailed)
				}
				return r.died(stop, what, waiting)
			} else if a.err != nil {
				return fmt.Errorf("%w: output line %d: %v", errJudge, a.n, a.err)
			}
			p, grade, why, err := parseAnswer(a.line, waiting)
			if err != nil {
				return fmt.Errorf("%w: output line %d: %v", errJudge, a.n, err)
			}
			if why != "" {
				if err := r.writeWhy(p, grade, why); err != nil {
					return err
				}
			}
			if err := r.st.Record(p, grade, time.Since(waiting[p]).Seconds()); err != nil {
				return err
			}
			delete(waiting, p)
			r.rep.Judged++
			if next < len(r.todo) {
				if err := send(); err != nil {
					return err
				}
			}
			if !timer.Stop() {
				select {
				case <-timer.C:
				default:
				}
			}
			timer.Reset(r.cfg.Timeout)
			if time.Since(lastReport) >= 5*time.Second {
				lastReport = time.Now()
				r.progress()
			}
		}
	}
	// Every pair answered: the judge may end on its own once its input closes.
	stdin.Close()
	go wait()
	select {
	case err := <-exited:
		stopped = true
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if err != nil {
			fmt.Fprintf(r.cfg.Log, "autojudge: the judge ended with %v after answering every pair\n", err)
		}
	case <-time.After(5 * time.Second):
		fmt.Fprintln(r.cfg.Log, "autojudge: the judge did not end within 5 s of its input closing: stopped")
		stop(time.Second)
	case <-ctx.Done():
	}
	return nil
}

// died reports a judge that ended (or stopped reading) with pairs unanswered, with its exit status.
func (r *autoRun) died(stop func(time.Duration) error, what string, waiting map[pool.Pair]time.Time) error {
	status := "exit status 0"
	if err := stop(time.Second); err != nil {
		status = err.Error()
	}
	return fmt.Errorf("%w %s (%s) with %d pairs unanswered, the oldest %s", errJudge, what, status, len(waiting), oldest(waiting))
}

// progress prints how far the run is and how long the rest should take at its pace so far.
func (r *autoRun) progress() {
	done, total := r.rep.Before+r.rep.Judged, r.rep.Pairs
	rate := float64(r.rep.Judged) / time.Since(r.start).Seconds()
	fmt.Fprintf(r.cfg.Log, "autojudge: %d of %d judged, %.1f pairs/s, about %s left\n", done, total, rate,
		time.Duration(float64(total-done)/rate*float64(time.Second)).Round(time.Second))
}

// oldest names the pair that has waited longest.
func oldest(waiting map[pool.Pair]time.Time) string {
	var best pool.Pair
	var at time.Time
	for p, t := range waiting {
		if at.IsZero() || t.Before(at) || (t.Equal(at) && (p.Query < best.Query || p.Query == best.Query && p.Doc < best.Doc)) {
			best, at = p, t
		}
	}
	return pairName(best)
}

// pairName is how errors name a pair.
func pairName(p pool.Pair) string {
	return fmt.Sprintf("(qid %s, docid %s)", strconv.Quote(p.Query), strconv.Quote(p.Doc))
}

// parseAnswer reads one answer line: a JSON object with qid and docid (strings) of a pair in
// flight, grade (an integer 0..3) and optionally why (a string). The error names the pair when
// the line names one, else the pairs waiting.
func parseAnswer(line []byte, waiting map[pool.Pair]time.Time) (p pool.Pair, grade int, why string, err error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(line, &raw); err != nil {
		return p, 0, "", fmt.Errorf("not a JSON object (%v): %.80q; %s", err, line, waitingNames(waiting))
	}
	var ok1, ok2 bool
	p.Query, ok1 = jsonString(raw["qid"])
	p.Doc, ok2 = jsonString(raw["docid"])
	if !ok1 || !ok2 {
		return p, 0, "", fmt.Errorf("want \"qid\" and \"docid\" as strings: %.80q; %s", line, waitingNames(waiting))
	}
	if _, ok := waiting[p]; !ok {
		return p, 0, "", fmt.Errorf("answer for %s, which is not waiting for an answer (not sent, or answered already); %s", pairName(p), waitingNames(waiting))
	}
	g, ok := raw["grade"]
	if !ok {
		return p, 0, "", fmt.Errorf("answer for %s has no \"grade\"", pairName(p))
	}
	n, err := strconv.Atoi(string(bytes.TrimSpace(g)))
	if err != nil || n < 0 || n > 3 {
		return p, 0, "", fmt.Errorf("answer for %s: grade %.40s: want an integer 0..3", pairName(p), g)
	}
	if w, ok := raw["why"]; ok && string(w) != "null" {
		if why, ok = jsonString(w); !ok {
			return p, 0, "", fmt.Errorf("answer for %s: \"why\" %.40s is not a string", pairName(p), w)
		}
	}
	return p, n, why, nil
}

// waitingNames lists up to 3 of the pairs waiting for an answer.
func waitingNames(waiting map[pool.Pair]time.Time) string {
	if len(waiting) == 1 {
		for p := range waiting {
			return "the pair waiting is " + pairName(p)
		}
	}
	return fmt.Sprintf("%d pairs waiting, the oldest %s", len(waiting), oldest(waiting))
}

// jsonString decodes a JSON string, reading the lone surrogate escapes \udc80–\udcff that
// jsonx writes for bytes that are not UTF-8 back into those bytes (so an ID of any bytes makes
// the round trip); false when raw is not a JSON string.
func jsonString(raw json.RawMessage) (string, bool) {
	var s string
	if len(raw) == 0 || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	if !bytes.Contains(bytes.ToLower(raw), []byte(`\udc`)) {
		return s, true
	}
	// Decode escape by escape: encoding/json turns a lone surrogate into U+FFFD.
	body := raw[1 : len(raw)-1]
	var b strings.Builder
	for i := 0; i < len(body); {
		if body[i] != '\\' {
			r, size := utf8.DecodeRune(body[i:])
			b.WriteRune(r)
			i += size
			continue
		}
		if body[i+1] == 'u' && i+6 <= len(body) {
			v, err := strconv.ParseUint(string(body[i+2:i+6]), 16, 16)
			if err == nil && v >= 0xdc80 && v <= 0xdcff {
				b.WriteByte(byte(v - 0xdc00))
				i += 6
				continue
			}
		}
		// Any other escape: let encoding/json decode it (with its surrogate partner if any).
		end := i + 2
		if body[i+1] == 'u' {
			end = i + 6
			if v, _ := strconv.ParseUint(string(body[i+2:min(i+6, len(body))]), 16, 16); v >= 0xd800 && v < 0xdc00 && i+12 <= len(body) {
				end = i + 12
			}
		}
		var part string
		if json.Unmarshal([]byte(`"`+string(body[i:min(end, len(body))])+`"`), &part) != nil {
			return "", false
		}
		b.WriteString(part)
		i = end
	}
	return b.String(), true
}

// writeWhy appends the judge's reason for a grade to cfg.Qrels+".why.jsonl" and fsyncs it.
func (r *autoRun) writeWhy(p pool.Pair, grade int, why string) error {
	path := r.cfg.Qrels + ".why.jsonl"
	if r.why == nil {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return err
		}
		r.why = f
	}
	b, err := jsonx.Encode(autoWhy{Time: time.Now().UTC().Format(time.RFC3339Nano), Judge: r.cfg.Judge, QID: p.Query, DocID: p.Doc, Grade: grade, Why: why}, "", "", false)
	if err != nil {
		return err
	}
	if _, err := r.why.Write(b); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := r.why.Sync(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// lockedWriter serializes writes to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
