// Command ranklab evaluates rankings: a trec_eval-compatible evaluator, the lab, standalone
// HTML pages, run comparison, each tool's conventions side by side, BM25, query likelihood and
// dense retrieval on BEIR collections (in-process, or on a Solr or OpenSearch cluster), chunk
// runs as RAG pipelines read them, run fusion, reranking, a collection from a team's own files,
// pooling, several judges' files joined, automatic judges, judge agreement, a preflight of the
// inputs, and a local search engine with your own index queried by your own request. Every subcommand (ranklab CMD -h for
// its flags):
//
//	ranklab eval [-q] [-c] [-l N] [-M N] [-m MEASURE]... QRELS RUN
//	ranklab lab [--k N] [--rerank N] ... [-f text|json|csv]
//	ranklab render lab|eval ... --out FILE.html
//	ranklab compare QRELS RUN_A RUN_B [RUN...]
//	ranklab conventions QRELS RUN [-m MEASURE]... [-f text|json|csv|md|html]
//	ranklab beir run|sweep --data DIR ... [--engine URL ...]
//	ranklab engine start [--kind solr|opensearch] [--nodes N] | ranklab engine query --engine URL --index NAME --template FILE ...
//	ranklab rag QRELS CHUNK_RUN --map MAP [--budgets B,...]
//	ranklab fuse [--method rrf|combsum|combmnz] [--norm ...] RUN RUN [RUN...]
//	ranklab pool [--depth 20] [--method depth|mtf] [--judged QRELS] RUN...
//	ranklab agree QRELS_A QRELS_B [RUN...] | ranklab agree --report HUMAN_QRELS AUTO_QRELS RUN...
//	ranklab autojudge --pool POOL --data DIR --judge 'COMMAND' --out QRELS
//	ranklab densejudge --fit SAMPLE_QRELS --data DIR
//	ranklab ppi HUMAN_QRELS AUTO_QRELS RUN...
//	ranklab corpus import [--split-on file|headings] [--questions FILE] --out DIR PATH...
//	ranklab judge merge [--on-conflict drop|low|high] QRELS QRELS...
//	ranklab check QRELS RUN... | ranklab check --corpus CORPUS [--qrels QRELS]
//	ranklab rerank --data DIR --run FIRST_STAGE_RUN [--depth N[,N...]] [--mix W]
//
// Each subcommand lives in its own file and registers itself in commands; TestDocListsCommands
// holds this list to them.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// A command runs one subcommand with its arguments and returns the exit status.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands is filled by the init functions of the subcommand files.
var commands = map[string]command{}

func main() {
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) > 1 && args[0] == "help" { // ranklab help CMD: CMD's own help, as CMD -h
		if c, ok := commands[args[1]]; ok {
			return c.run([]string{"-h"}, stdout, stderr)
		}
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "ranklab: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	return c.run(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: ranklab <command> [arguments]  (ranklab <command> -h for its flags)")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
}
