package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/ranklab/ranklab/internal/numflag"
	"github.com/ranklab/ranklab/judge"
)

func init() {
	commands["autojudge"] = command{summary: "judge a pool with an automatic judge (an LLM client, any program) through a JSON-lines protocol", run: runAutojudge}
}

const autojudgeUsage = `usage: ranklab autojudge --pool POOL --data DIR --judge 'COMMAND' --out QRELS [--in-flight 8] [--timeout 120] [--name NAME]

Runs COMMAND once (with /bin/sh -c, in its own process group) and judges with it every pair of
POOL (a pool file: ranklab pool's "query 0 doc -1" lines) that QRELS does not grade yet. For
each pair it writes one JSON line to the judge's standard input:

  {"qid": "1", "query": "what similarity laws ...", "docid": "184", "title": "...", "text": "..."}

and reads one JSON line per pair from its standard output, in any order (flush after each):

  {"qid": "1", "docid": "184", "grade": 2, "why": "optional reason"}

grade is an integer 0..3 (UMBRELA's scale: 0 nothing to do with the query, 1 related, 2 partly
answers, 3 dedicated to the query). Each grade is on disk (QRELS.log fsynced, QRELS rewritten
atomically, the reason in QRELS.why.jsonl) before the next pair is sent; at most --in-flight pairs
wait for an answer at once. A re-run asks only for the pairs QRELS does not grade. A malformed
answer (named by its pair), a judge that exits, or one silent for --timeout seconds (no answer
and no line on its standard error, which is shown: a judge installing itself or retrying an API
says so) stops the run and the judge; every grade it gave is kept. Ctrl-C, SIGTERM and SIGHUP stop the judge and
its children (SIGTERM, then SIGKILL after 1 s). The judging panel's lock keeps a second judge
or panel off QRELS.

--data is a BEIR folder (corpus.jsonl[.gz], queries.jsonl) or a corpus JSONL file with --queries.

Example: ranklab autojudge --pool pool.txt --data data/cranfield --judge 'python3 judges/overlap.py' --out auto.qrels
`

func runAutojudge(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ranklab autojudge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, autojudgeUsage); fs.PrintDefaults() }
	poolPath := fs.String("pool", "", "pool `FILE` (query 0 doc -1 lines, in judging order)")
	data := fs.String("data", "", "BEIR collection `DIR` or corpus JSONL file")
	queries := fs.String("queries", "", "queries JSONL `FILE` (default: DIR/queries.jsonl)")
	command := fs.String("judge", "", "the judge's `COMMAND` line (run with /bin/sh -c)")
	out := fs.String("out", "", "judgments `FILE` (TREC qrels; created, or resumed)")
	inFlight := numflag.NewInt(fs, "in-flight", 8, "pairs waiting for an answer at once, at most")
	timeout := numflag.NewFloat64(fs, "timeout", 120, "longest silence of the judge (no answer, nothing on its standard error), in seconds")
	name := fs.String("name", "auto", "the judge's name in the side log")
	if code, ok := parseArgs(fs, args); !ok {
		return code
	}
	fail := failer(stderr, "ranklab autojudge")
	switch {
	case *poolPath == "" || *data == "" || *command == "" || *out == "":
		return fail(2, "--pool, --data, --judge and --out are required")
	case *inFlight < 1:
		return fail(2, "--in-flight %d: want 1 or more", *inFlight)
	case !(*timeout > 0):
		return fail(2, "--timeout %v: want a positive number of seconds", *timeout)
	}
	// SIGHUP too: a closed terminal's reaches ranklab, not the judge (in a group of its own).
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	_, err := judge.Auto(ctx, judge.Config{Pool: *poolPath, Qrels: *out, Corpus: *data, Queries: *queries, Judge: *name,
		Command: *command, InFlight: *inFlight, Timeout: time.Duration(*timeout * float64(time.Second)), Log: stderr})
	if err != nil {
		if ctx.Err() != nil && errors.Is(ctx.Err(), context.Canceled) {
			return fail(130, "%v", err)
		}
		return fail(1, "%v", err)
	}
	return 0
}
