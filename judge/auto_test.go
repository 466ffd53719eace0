package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/jsonx"
	"github.com/ranklab/ranklab/pool"
)

// exampleJudge is the README's example judge script, started for real by these tests.
func exampleJudge(t *testing.T, args string) string {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 to run the example judge")
	}
	script, err := filepath.Abs(filepath.Join("..", "judges", "overlap.py"))
	if err != nil {
		t.Fatal(err)
	}
	return "python3 " + script + " " + args
}

// autoFixture writes a corpus of n documents over 2 queries and the pool of every pair. Document
// i holds i%5 of query 1's four content words (so its overlap grade is known: 0 words → 0,
// 1 → 1, 2 → 2, 3 or 4 → 3) and, for query 2, none or all of its words.
func autoFixture(t *testing.T, n int) (dir string, cfg Config, want map[pool.Pair]int) {
	t.Helper()
	dir = t.TempDir()
	q1 := []string{"boundary", "layer", "transition", "heat"}
	var corpus, poolLines bytes.Buffer
	want = map[pool.Pair]int{}
	grade := map[int]int{0: 0, 1: 1, 2: 2, 3: 3, 4: 3}
	for i := range n {
		k := i % 5
		text := strings.Join(q1[:k], " ") + " of the plate"
		if i%2 == 1 {
			text += " supersonic wing flutter"
		}
		id := fmt.Sprintf("d%d", i)
		b, _ := json.Marshal(map[string]string{"_id": id, "title": "", "text": text})
		corpus.Write(append(b, '\n'))
		fmt.Fprintf(&poolLines, "1 0 %s -1\n2 0 %s -1\n", id, id)
		want[pool.Pair{Query: "1", Doc: id}] = grade[k]
		want[pool.Pair{Query: "2", Doc: id}] = 3 * (i % 2)
	}
	queries := `{"_id": "1", "text": "The boundary layer transition with heat"}` + "\n" +
		`{"_id": "2", "text": "supersonic wing flutter"}` + "\n"
	for name, data := range map[string]string{"corpus.jsonl": corpus.String(), "queries.jsonl": queries, "pool.txt": poolLines.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, Config{Pool: filepath.Join(dir, "pool.txt"), Qrels: filepath.Join(dir, "auto.qrels"), Corpus: dir}, want
}

// with returns cfg with the judge process settings of o.
func with(cfg, o Config) Config {
	cfg.Command, cfg.InFlight, cfg.Timeout, cfg.Log = o.Command, o.InFlight, o.Timeout, o.Log
	return cfg
}

func readGrades(t *testing.T, path string) map[pool.Pair]int {
	t.Helper()
	out := map[pool.Pair]int{}
	q, err := eval.ReadQrelsFile(path)
	if os.IsNotExist(err) {
		return out // nothing judged yet
	} else if err != nil {
		t.Fatal(err)
	}
	for qid, docs := range q {
		for d, g := range docs {
			out[pool.Pair{Query: qid, Doc: d}] = g
		}
	}
	return out
}

func TestAutoExampleJudge(t *testing.T) {
	_, cfg, want := autoFixture(t, 40)
	var log bytes.Buffer
	rep, err := Auto(context.Background(), with(cfg, Config{Command: exampleJudge(t, "--workers 3"), InFlight: 5, Log: &log}))
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if rep.Pairs != 80 || rep.Before != 0 || rep.Judged != 80 {
		t.Errorf("report %+v, want 80 pairs judged", rep)
	}
	got := readGrades(t, cfg.Qrels)
	for p, g := range want {
		if got[p] != g {
			t.Errorf("%v: grade %d, want %d (share of the query's words)", p, got[p], g)
		}
	}
	why, err := os.ReadFile(cfg.Qrels + ".why.jsonl")
	if err != nil || bytes.Count(why, []byte("\n")) != 80 || !bytes.Contains(why, []byte(`"why":"4 of 4 query words: boundary, heat, layer, transition"`)) {
		t.Errorf("why file (%v):\n%.300s", err, why)
	}
	// A second run has nothing to ask and starts no judge (the command would fail).
	rep, err = Auto(context.Background(), with(cfg, Config{Command: "exit 3", Log: &log}))
	if err != nil || rep.Before != 80 || rep.Judged != 0 {
		t.Errorf("re-run: %+v, %v", rep, err)
	}
}

// TestAutoKillAndResume kills the judge process mid-run: every grade it gave is on disk, and a
// second run asks only for the others (each pair judged once in the side log).
func TestAutoKillAndResume(t *testing.T) {
	dir, cfg, want := autoFixture(t, 30)
	pidFile := filepath.Join(dir, "judge.pid")
	// The judge writes its PID, then answers one pair every 20 ms; the test kills it with SIGKILL
	// once the qrels file holds 15 grades.
	cmd := fmt.Sprintf("echo $$ > %s; exec %s", pidFile, exampleJudge(t, "--delay 0.02"))
	killed := make(chan int, 1)
	go func() {
		for range 3000 { // 30 s: python's start on a loaded machine
			time.Sleep(10 * time.Millisecond)
			if g, err := eval.ReadQrelsFile(cfg.Qrels); err == nil && len(flatten(g)) >= 15 {
				b, _ := os.ReadFile(pidFile)
				pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
				syscall.Kill(pid, syscall.SIGKILL)
				killed <- len(flatten(g))
				return
			}
		}
		killed <- -1
	}()
	var log bytes.Buffer
	rep, err := Auto(context.Background(), with(cfg, Config{Command: cmd, InFlight: 4, Log: &log}))
	if n := <-killed; n < 0 {
		t.Fatalf("the judge was never killed: %+v %v\n%s", rep, err, log.String())
	}
	// The kill is seen either as the judge's output ending or, first, as a write to its input
	// failing (a broken pipe): both name the signal and say how to resume.
	if err == nil || !strings.Contains(err.Error(), "judge closed its output") || !strings.Contains(err.Error(), "(signal: killed)") || !strings.Contains(err.Error(), "run again to resume") {
		t.Fatalf("kill mid-run: err = %v", err)
	}
	first := readGrades(t, cfg.Qrels)
	if len(first) != rep.Judged || rep.Judged < 15 || rep.Judged >= 60 {
		t.Fatalf("after the kill: %d grades on disk, report says %d judged", len(first), rep.Judged)
	}
	rep2, err := Auto(context.Background(), with(cfg, Config{Command: exampleJudge(t, ""), Log: &log}))
	if err != nil {
		t.Fatal(err)
	}
	if rep2.Before != len(first) || rep2.Judged != 60-len(first) {
		t.Errorf("resume: %+v, want %d before and %d judged", rep2, len(first), 60-len(first))
	}
	got := readGrades(t, cfg.Qrels)
	for p, g := range want {
		if got[p] != g {
			t.Errorf("%v: grade %d, want %d", p, got[p], g)
		}
	}
	s, err := openStoreReadOnly(cfg.Qrels)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[pool.Pair]int{}
	for _, e := range s.Entries() {
		seen[e.Pair]++
	}
	for p, n := range seen {
		if n != 1 {
			t.Errorf("%v judged %d times in the side log, want once", p, n)
		}
	}
	if len(seen) != 60 {
		t.Errorf("%d pairs in the side log, want 60", len(seen))
	}
}

func flatten(q eval.Qrels) []int {
	var out []int
	for _, docs := range q {
		for _, g := range docs {
			out = append(out, g)
		}
	}
	return out
}

// TestAutoJudgeFaults: malformed answers name their pair, a judge that exits or hangs stops the
// run with its grades kept.
func TestAutoJudgeFaults(t *testing.T) {
	// answer runs a judge that answers the first two pairs correctly (grade 1), then prints last.
	answer := func(last string) string {
		return `python3 -c '
import json, sys
for i, line in enumerate(sys.stdin):
    p = json.loads(line)
    if i < 2:
        print(json.dumps({"qid": p["qid"], "docid": p["docid"], "grade": 1}), flush=True)
    else:
        print(` + last + `, flush=True)
        sys.stdin.read()
'`
	}
	for _, c := range []struct {
		name, command string
		want          string
	}{
		{"grade out of range", answer(`json.dumps({"qid": p["qid"], "docid": p["docid"], "grade": 7})`),
			`output line 3: answer for (qid "1", docid "d1"): grade 7: want an integer 0..3`},
		{"grade not an integer", answer(`json.dumps({"qid": p["qid"], "docid": p["docid"], "grade": "2"})`),
			`answer for (qid "1", docid "d1"): grade "2": want an integer 0..3`},
		{"no grade", answer(`json.dumps({"qid": p["qid"], "docid": p["docid"]})`),
			`answer for (qid "1", docid "d1") has no "grade"`},
		{"not JSON", answer(`"grade: 2"`),
			`output line 3: not a JSON object`},
		{"unknown pair", answer(`json.dumps({"qid": "9", "docid": "x", "grade": 1})`),
			`answer for (qid "9", docid "x"), which is not waiting for an answer`},
		{"answered twice", `python3 -c '
import json, sys
p = json.loads(sys.stdin.readline())
for _ in range(2):
    print(json.dumps({"qid": p["qid"], "docid": p["docid"], "grade": 2}), flush=True)
sys.stdin.read()
'`, `output line 2: answer for (qid "1", docid "d0"), which is not waiting for an answer (not sent, or answered already)`},
		{"exits", `python3 -c '
import json, sys
p = json.loads(sys.stdin.readline())
print(json.dumps({"qid": p["qid"], "docid": p["docid"], "grade": 2}), flush=True)
'`, `judge closed its output`},
		{"exits with status", `python3 -c '
import json, sys
p = json.loads(sys.stdin.readline())
print(json.dumps({"qid": p["qid"], "docid": p["docid"], "grade": 2}), flush=True)
sys.exit(4)
'`, `(exit status 4) with 1 pairs unanswered`}, // "closed its output", and "and its input (write |1: broken pipe)" when pair 2's write loses the race with the exit
		// sh, not python: its start cannot eat the timeout on a loaded machine.
		{"hangs", `read line; echo '{"qid": "1", "docid": "d0", "grade": 2}'; sleep 300`,
			`no answer for 3s, nor a line on its standard error; 1 pairs waiting, the oldest (qid "2", docid "d0")`},
		{"no such command", `no-such-judge-command-xyz`, `(exit status 127)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := exec.LookPath("python3"); err != nil {
				t.Skip("no python3")
			}
			_, cfg, _ := autoFixture(t, 3)
			var log bytes.Buffer
			start := time.Now()
			timeout := 20 * time.Second // python's start on a busy machine
			if c.name == "hangs" {
				timeout = 3 * time.Second
			}
			rep, err := Auto(context.Background(), with(cfg, Config{Command: c.command, InFlight: 1, Timeout: timeout, Log: &log}))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v\nwant it to contain %q\nlog: %s", err, c.want, log.String())
			}
			if time.Since(start) > 15*time.Second {
				t.Errorf("took %v", time.Since(start))
			}
			got := readGrades(t, cfg.Qrels)
			if len(got) != rep.Judged {
				t.Errorf("%d grades on disk, %d judged", len(got), rep.Judged)
			}
		})
	}
}

// TestAutoStopsJudgeGroup: ending ctx (Ctrl-C in the command) stops the judge and the children it
// started within 2 s, even when the judge ignores SIGTERM.
func TestAutoStopsJudgeGroup(t *testing.T) {
	dir, cfg, _ := autoFixture(t, 3)
	pids := filepath.Join(dir, "pids")
	// The judge starts a child (sleep), ignores SIGTERM, and never answers.
	cmd := fmt.Sprintf(`trap "" TERM; sleep 300 & echo $$ $! > %s; while :; do sleep 0.1; done`, pids)
	ctx, cancel := context.WithCancel(context.Background())
	var procs []int
	go func() {
		for range 3000 {
			time.Sleep(10 * time.Millisecond)
			if b, err := os.ReadFile(pids); err == nil && len(bytes.Fields(b)) == 2 {
				for _, f := range bytes.Fields(b) {
					n, _ := strconv.Atoi(string(f))
					procs = append(procs, n)
				}
				break
			}
		}
		cancel()
	}()
	start := time.Now()
	_, err := Auto(ctx, with(cfg, Config{Command: cmd, Log: &bytes.Buffer{}}))
	took := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "stopped") {
		t.Fatalf("err = %v", err)
	}
	if len(procs) != 2 {
		t.Fatalf("the judge never wrote its PIDs")
	}
	// Auto returns once the judge's group is killed; the kernel reaps the sleep a moment later.
	for _, pid := range procs {
		gone := false
		for range 100 {
			if syscall.Kill(pid, 0) != nil || isZombie(pid) {
				gone = true
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if !gone {
			t.Errorf("process %d still runs after the stop", pid)
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	t.Logf("stopped in %v", took)
}

// isZombie reports whether pid has exited and waits for its parent to reap it.
func isZombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	f := bytes.Fields(b[bytes.LastIndexByte(b, ')')+1:])
	return len(f) > 0 && string(f[0]) == "Z"
}

func TestJSONString(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want string
		ok   bool
	}{
		{`"abc"`, "abc", true},
		{`"q\udcff"`, "q\xff", true},                     // jsonx's escape of a byte that is not UTF-8
		{`"d\u00e9\udc80x"`, "dé\x80x", true},            // mixed with another escape
		{`"\ud83d\ude00\udcfe"`, "\U0001F600\xfe", true}, // a surrogate pair stays a rune
		{`"a\"b\\"`, `a"b\`, true},
		{`3`, "", false},
		{``, "", false},
	} {
		got, ok := jsonString(json.RawMessage(c.raw))
		if got != c.want || ok != c.ok {
			t.Errorf("jsonString(%s) = %q, %v; want %q, %v", c.raw, got, ok, c.want, c.ok)
		}
	}
}

// FuzzParseAnswer: any line gives a pair in flight with a grade in 0..3, or an error; never a
// panic. And an ID of any bytes written by jsonx reads back the same.
func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{`{"qid":"1","docid":"d0","grade":2,"why":"x"}`, `{"qid":"1","docid":"d0","grade":7}`,
		`{"qid":"q\udcff","docid":"d0","grade":0}`, `not json`, `{"qid":1}`, `{"qid":"1","docid":"d0","grade":"2"}`, ``} {
		f.Add(s, "q\xff")
	}
	waiting := map[pool.Pair]time.Time{{Query: "1", Doc: "d0"}: {}, {Query: "q\xff", Doc: "d0"}: {}}
	f.Fuzz(func(t *testing.T, line, id string) {
		p, g, _, err := parseAnswer([]byte(line), waiting)
		if err == nil {
			if _, ok := waiting[p]; !ok || g < 0 || g > 3 {
				t.Errorf("%q: accepted %v grade %d", line, p, g)
			}
		}
		b, err := jsonx.Marshal(id)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := jsonString(b); !ok || got != id {
			t.Errorf("jsonString(%s) = %q, %v; want %q", b, got, ok, id)
		}
	})
}

// TestAutoStderrIsAlive: a judge that says something on its standard error at least every
// Timeout is not taken for hung while it answers nothing (a judge installing itself, as
// judges/smollm2 does on its first use: here 3 s of progress lines, 0.1 s apart, before any
// answer, with a 1 s timeout); its lines reach the log. Before, the run stopped after 1 s.
func TestAutoStderrIsAlive(t *testing.T) {
	_, cfg, want := autoFixture(t, 2)
	var log bytes.Buffer
	cmd := `i=0; while [ $i -lt 30 ]; do echo "installing, step $i" >&2; sleep 0.1; i=$((i+1)); done
while read -r line; do
  q=$(printf '%s' "$line" | sed 's/.*"qid":"\([^"]*\)".*/\1/'); d=$(printf '%s' "$line" | sed 's/.*"docid":"\([^"]*\)".*/\1/')
  echo "{\"qid\":\"$q\",\"docid\":\"$d\",\"grade\":1}"
done`
	rep, err := Auto(context.Background(), with(cfg, Config{Command: cmd, InFlight: 1, Timeout: time.Second, Log: &log}))
	if err != nil || rep.Judged != len(want) {
		t.Fatalf("%+v, %v\nlog: %s", rep, err, log.String())
	}
	if !strings.Contains(log.String(), "installing, step 29") {
		t.Errorf("the judge's standard error is not in the log: %s", log.String())
	}
}

// TestAutoChildOutsideGroup: a judge whose child left its process group (setsid) and keeps its
// output and standard error open cannot hold the run: Auto returns within seconds of the timeout
// (without exec.Cmd's WaitDelay it waited for the child, 20 s here).
func TestAutoChildOutsideGroup(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	dir, cfg, _ := autoFixture(t, 2)
	pidFile := filepath.Join(dir, "child.pid")
	cfg.Command = fmt.Sprintf(`setsid sh -c 'echo $$ > %s; exec sleep 20' & sleep 0.2; exit 0`, pidFile)
	cfg.Timeout, cfg.Log = 500*time.Millisecond, &bytes.Buffer{}
	start := time.Now()
	_, err := Auto(context.Background(), cfg)
	took := time.Since(start)
	if b, rerr := os.ReadFile(pidFile); rerr == nil {
		if pid, _ := strconv.Atoi(strings.TrimSpace(string(b))); pid > 0 {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	if err == nil || took > 5*time.Second {
		t.Errorf("Auto returned after %v (%v); want an error within a few seconds", took, err)
	}
}
