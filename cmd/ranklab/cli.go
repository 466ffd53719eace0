package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ranklab/ranklab/internal/jsonx"

	"github.com/ranklab/ranklab/internal/atomicfile"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/provenance"
)

// The plumbing the subcommands share: flags, error lines, inputs and outputs.

// failer returns the error printer of the subcommand who: fail(status, format, args...) prints
// "who: " and the message on stderr and returns status, the exit status.
func failer(stderr io.Writer, who string) func(status int, format string, a ...any) int {
	return func(status int, format string, a ...any) int {
		fmt.Fprintf(stderr, who+": "+format+"\n", a...)
		return status
	}
}

// parseName returns the one of values whose String is s (a flag's value), or an error naming
// what and every accepted spelling: the enumerations' String is their one spelling.
func parseName[T fmt.Stringer](what, s string, values ...T) (T, error) {
	names := make([]string, len(values))
	for i, v := range values {
		if v.String() == s {
			return v, nil
		}
		names[i] = v.String()
	}
	var zero T
	return zero, fmt.Errorf("unknown %s %q (want %s or %s)", what, s, strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}

// action is one verb of a subcommand that has several (ranklab beir run, ranklab render lab).
type action struct {
	name string
	run  func(args []string, stdout, stderr io.Writer) int
}

// runAction runs the action named by args[0] with the arguments after it. Without arguments it
// prints usage and returns 2, with -h or --help it prints usage and returns 0; an unknown name is
// an error naming who's actions (noun: "action", "page").
func runAction(who, noun, usage string, actions []action, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(stderr, usage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	names := make([]string, len(actions))
	for i, a := range actions {
		if a.name == args[0] {
			return a.run(args[1:], stdout, stderr)
		}
		names[i] = a.name
	}
	fmt.Fprintf(stderr, "%s: unknown %s %q (want %s)\n%s\n", who, noun, args[0], strings.Join(names, " or "), usage)
	return 2
}

// flagStatus is the exit status after fs.Parse's error err: 0 after -h (fs.Usage has printed the
// help), bad otherwise (the flag package has named the flag).
func flagStatus(err error, bad int) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return bad
}

// parseArgs parses args, which take no positional argument, with fs. It returns ok false and the
// exit status after -h (0), a bad flag or a positional argument (2, named on fs's output).
func parseArgs(fs *flag.FlagSet, args []string) (int, bool) {
	if err := fs.Parse(args); err != nil {
		return flagStatus(err, 2), false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return 2, false
	}
	return 0, true
}

// parseInterleaved parses flags that may come before, between or after the positional
// arguments (flag.FlagSet stops at the first positional one) and returns the positional ones in
// order. "--" ends the flags; "-" is a positional argument (stdin).
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// stringList is a repeatable string flag (-m MEASURE...).
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// synopsis returns the first line of a usage text.
func synopsis(usage string) string { return strings.SplitN(usage, "\n", 2)[0] }

// readRunArg reads a run file, or stdin for "-" through /dev/stdin, so a pipe takes the very
// path a file takes (gunzipped when it starts with gzip's magic bytes).
func readRunArg(path string) (eval.Run, error) {
	if path == "-" {
		path = "/dev/stdin"
	}
	return eval.ReadRunFile(path)
}

// inputFiles lists the inputs of a stamp: the qrels, then "run 1", "run 2", ...
func inputFiles(qrels string, runs []string) []provenance.File {
	in := []provenance.File{{Role: "qrels", Path: qrels}}
	for i, p := range runs {
		in = append(in, provenance.File{Role: fmt.Sprintf("run %d", i+1), Path: p})
	}
	return in
}

// writeJSON writes v as indented JSON for people and programs to read: "&", "<" and ">" are
// kept as they are (no HTML escaping; the output is never embedded in a page).
//
// A string that is not valid UTF-8 (an ID can be any bytes) is written losslessly, each invalid
// byte as \udcXX (package jsonx), so "q\xff" and "q\xfe" stay two queries.
func writeJSON(w io.Writer, v any) error {
	js, err := jsonx.Encode(v, "", "  ", false)
	if err != nil {
		return err
	}
	_, err = w.Write(js)
	return err
}

func writeRunTo(out string, run eval.Run, stdout io.Writer) error {
	return writeTo(out, stdout, func(w io.Writer) error { return eval.WriteRun(w, run) })
}

// writeTo writes with write to the file out, or to stdout when out is "-".
func writeTo(out string, stdout io.Writer, write func(io.Writer) error) error {
	if out == "-" {
		return write(stdout)
	}
	return atomicfile.Write(out, write) // a temporary file renamed on success, removed on failure
}
