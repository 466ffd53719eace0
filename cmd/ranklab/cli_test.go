package main

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/compare"
	"github.com/ranklab/ranklab/fusion"
	"github.com/ranklab/ranklab/rag"
)

// runCmd runs the command line "ranklab args..." and returns what it printed and its exit status.
func runCmd(args ...string) (stdout, stderr string, rc int) {
	var o, e bytes.Buffer
	rc = dispatch(args, &o, &e)
	return o.String(), e.String(), rc
}

// TestParseName: every value of each enumeration a flag takes reads back from its String, and a
// wrong spelling is an error listing them all.
func TestParseName(t *testing.T) {
	for _, m := range []fusion.Method{fusion.RRF, fusion.CombSUM, fusion.CombMNZ} {
		if got, err := parseName("fusion method", m.String(), fusion.RRF, fusion.CombSUM, fusion.CombMNZ); err != nil || got != m {
			t.Errorf("%v: %v, %v", m, got, err)
		}
	}
	if _, err := parseName("normalisation", "min-max", fusion.Norm(0), fusion.MinMax, fusion.ZScore, fusion.Rank); err == nil ||
		err.Error() != `unknown normalisation "min-max" (want none, minmax, zscore or rank)` {
		t.Errorf("min-max: %v", err)
	}
	if _, err := parseName("aggregation", "MaxP", rag.MaxP, rag.FirstP, rag.SumP); err == nil ||
		err.Error() != `unknown aggregation "MaxP" (want maxp, firstp or sump)` {
		t.Errorf("MaxP: %v", err)
	}
	if got, err := parseName("test", "both", compare.TTest, compare.Randomization, compare.Tests(0)); err != nil || got != compare.Tests(0) {
		t.Errorf("both: %v, %v", got, err)
	}
}

// TestDocListsCommands: the command's doc (main.go) lists every subcommand, "ranklab NAME ...".
func TestDocListsCommands(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", src, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	doc := f.Doc.Text()
	for name := range commands {
		if !regexp.MustCompile(`(?m)^\s*ranklab ` + regexp.QuoteMeta(name) + `\b`).MatchString(doc) {
			t.Errorf("main.go's doc does not list `ranklab %s`", name)
		}
	}
}

// TestHelpOfACommand: `ranklab help CMD` is CMD's own help (it printed the list of commands), and
// `check --corpus -h`, which `check -h` suggests, prints the corpus check's help (--corpus took -h
// as its value: "stat -h").
func TestHelpOfACommand(t *testing.T) {
	for _, args := range [][]string{{"help", "rag"}, {"rag", "-h"}} {
		_, errOut, rc := runCmd(args...)
		if rc != 0 || !strings.Contains(errOut, "usage: ranklab rag QRELS CHUNK_RUN") {
			t.Errorf("ranklab %s: rc %d, %.120q; want rag's usage", strings.Join(args, " "), rc, errOut)
		}
	}
	for _, args := range [][]string{{"check", "--corpus", "-h"}, {"check", "--corpus", "x", "-h"}} {
		_, errOut, rc := runCmd(args...)
		if rc != 0 || !strings.Contains(errOut, "usage: ranklab check --corpus CORPUS") || strings.Contains(errOut, "stat -h") {
			t.Errorf("ranklab %s: rc %d, %.160q; want the corpus check's usage", strings.Join(args, " "), rc, errOut)
		}
	}
	if _, errOut, rc := runCmd("help", "nosuch"); rc != 0 || !strings.Contains(errOut, "usage: ranklab <command>") {
		t.Errorf("ranklab help nosuch: rc %d, %.120q; want the list of commands", rc, errOut)
	}
}
