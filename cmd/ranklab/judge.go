package main

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/words"
)

func init() {
	commands["judge"] = command{summary: "join the judgments of several judges of one pool (their shares, or each judging it all)", run: runJudge}
}

const judgeUsage = `usage:
  ranklab judge merge [--on-conflict drop|low|high] [--conflicts FILE] [--out FILE] QRELS QRELS...

Joins judgments files (TREC qrels, as the judging panel writes them; BEIR TSV too) of one pool:
the shares of several judges (judge.Config.Share "1/2", "2/2"), or each judge's own file over the
whole pool. A pair one judge graded keeps that grade; a pair several graded alike keeps it; a
pair graded differently is a conflict: listed on stderr (and with --conflicts as
"query doc grade-in-file-1 grade-in-file-2 ..." lines, "-" where a file has none) and, by
default, left out of the merged file (--on-conflict drop: a judge should settle it) or given the
lowest or highest grade. Pool lines (grade -1, not judged) count as no grade. ranklab agree on
two of the files gives Cohen's κ on the pairs both judged. The merged qrels go to --out (written
to a temporary file, then renamed) or stdout, sorted by query and document.`

func runJudge(args []string, stdout, stderr io.Writer) int {
	return runAction("ranklab judge", "action", judgeUsage, []action{{"merge", judgeMerge}}, args, stdout, stderr)
}

func judgeMerge(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ranklab judge merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, judgeUsage); fs.PrintDefaults() }
	onConflict := fs.String("on-conflict", "drop", "a pair graded differently: drop (leave it out), low or high (its lowest or highest grade)")
	conflicts := fs.String("conflicts", "", "also write the conflicting pairs to `FILE`")
	out := fs.String("out", "-", "the merged qrels `FILE` (- for stdout)")
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return flagStatus(err, 2)
	}
	fail := failer(stderr, "ranklab judge merge")
	if len(files) < 2 {
		return fail(2, "want at least two judgments files, got %d", len(files))
	}
	if *onConflict != "drop" && *onConflict != "low" && *onConflict != "high" {
		return fail(2, "--on-conflict %q: want drop, low or high", *onConflict)
	}
	type pair struct{ q, d string }
	grades := map[pair][]int{} // one slot per file; -1: no grade there
	counts := make([]int, len(files))
	for i, f := range files {
		q, err := eval.ReadQrelsFile(f)
		if err != nil {
			return fail(1, "%v", err)
		}
		for qid, docs := range q {
			for did, g := range docs {
				if g < 0 {
					continue // a pool line: not judged
				}
				p := pair{qid, did}
				if grades[p] == nil {
					grades[p] = slices.Repeat([]int{-1}, len(files))
				}
				grades[p][i] = g
				counts[i]++
			}
		}
	}
	keys := slices.SortedFunc(maps.Keys(grades), func(a, b pair) int {
		if c := strings.Compare(a.q, b.q); c != 0 {
			return c
		}
		return strings.Compare(a.d, b.d)
	})
	var merged, conflictLines []string
	shared, agreed := 0, 0
	for _, p := range keys {
		var got []int
		for _, g := range grades[p] {
			if g >= 0 {
				got = append(got, g)
			}
		}
		if len(got) > 1 {
			shared++
		}
		lo, hi := slices.Min(got), slices.Max(got)
		g := lo
		if lo != hi {
			cells := make([]string, len(files))
			for i, x := range grades[p] {
				cells[i] = "-"
				if x >= 0 {
					cells[i] = fmt.Sprint(x)
				}
			}
			conflictLines = append(conflictLines, fmt.Sprintf("%s %s %s", p.q, p.d, strings.Join(cells, " ")))
			switch *onConflict {
			case "drop":
				continue
			case "high":
				g = hi
			}
		} else if len(got) > 1 {
			agreed++
		}
		merged = append(merged, fmt.Sprintf("%s 0 %s %d", p.q, p.d, g))
	}
	write := func(lines []string) func(io.Writer) error {
		return func(w io.Writer) error {
			for _, l := range lines {
				if _, err := io.WriteString(w, l+"\n"); err != nil {
					return err
				}
			}
			return nil
		}
	}
	if err := writeTo(*out, stdout, write(merged)); err != nil {
		return fail(1, "%v", err)
	}
	if *conflicts != "" {
		if err := writeTo(*conflicts, stdout, write(conflictLines)); err != nil {
			return fail(1, "%v", err)
		}
	}
	var per []string
	for i, f := range files {
		per = append(per, fmt.Sprintf("%s %d", f, counts[i]))
	}
	fmt.Fprintf(stderr, "ranklab judge merge: %d judged pairs (%s); %d judged by more than one file: %d alike, %d in conflict; %d pairs merged\n",
		len(keys), strings.Join(per, ", "), shared, agreed, len(conflictLines), len(merged))
	if n := len(conflictLines); n > 0 {
		what := map[string]string{"drop": "left out (settle them, then merge again)", "low": "given the lowest grade", "high": "given the highest grade"}[*onConflict]
		fmt.Fprintf(stderr, "ranklab judge merge: %d %s %s; ranklab agree %s %s gives κ on the pairs both judged:\n", n,
			words.Plural(n, "conflict", "conflicts"), what, files[0], files[1])
		for _, l := range conflictLines[:min(n, 20)] {
			fmt.Fprintf(stderr, "  %s\n", escapeText(l))
		}
		if n > 20 {
			fmt.Fprintf(stderr, "  … (%d more%s)\n", n-20, map[bool]string{true: "; all in " + *conflicts, false: "; --conflicts FILE lists them all"}[*conflicts != ""])
		}
	}
	return 0
}
