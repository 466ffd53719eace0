// Package provenance stamps an export with what produced it: the tool and its version, the
// command and its flags, the conventions in force (trec_eval's version rules, -c, -l, -M, gains)
// and the SHA-256 of each input file, so a number found later in a report, a spreadsheet or a
// page can be traced to exactly how it was computed.
//
// The simplest use, in a command that read qrels and a run:
//
//	st, err := provenance.New("ranklab eval", os.Args[2:], provenance.EvalConventions(opt, measures),
//		provenance.File{Role: "qrels", Path: qrelsPath}, provenance.File{Role: "run", Path: runPath})
//	out := provenance.AppendJSON(js, st) // or Text (text and CSV), Markdown, LaTeX, HTML
//
// Decisions made once:
//
//   - The stamp holds no clock time, so the same inputs and flags give byte-identical exports.
//   - A file's hash is the SHA-256 of its bytes as stored (a gzipped input is hashed compressed,
//     as sha256sum would); "-" (standard input) is recorded as "stdin" without a hash.
//   - Each format carries the stamp where its readers ignore it or expect metadata: JSON gets a
//     last "provenance" member, CSV leading "# " comment lines (Text; pandas: comment="#"), LaTeX
//     leading "% " comment lines, Markdown and HTML a visible footer (HTML escaped, with the
//     stamp's JSON in a data attribute), plain text trailing "# " lines. trec_eval's own format
//     is never stamped unless asked (--stamp), so it stays byte-identical to trec_eval.
package provenance

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/ranklab/ranklab/eval"
)

// Input is one input file as the stamp records it.
type Input struct {
	Role   string `json:"role"`   // "qrels", "run", "run 2", ...
	Path   string `json:"path"`   // as given on the command line
	SHA256 string `json:"sha256"` // hex; "" for standard input
	Bytes  int64  `json:"bytes"`  // size as stored; -1 for standard input
}

// Stamp is the provenance of one export.
type Stamp struct {
	Tool        string   `json:"tool"`        // "ranklab"
	Version     string   `json:"version"`     // module version and VCS revision when known
	Command     string   `json:"command"`     // "ranklab eval"
	Args        []string `json:"args"`        // the arguments as given
	Conventions []string `json:"conventions"` // the rules in force, one phrase each
	Inputs      []Input  `json:"inputs"`
}

// File names an input to hash: its role and its path ("-" for standard input).
type File struct{ Role, Path string }

// New returns the stamp of a command run with args under conventions, hashing every file. It
// returns an error when a file cannot be read.
func New(command string, args, conventions []string, files ...File) (Stamp, error) {
	st := Stamp{Tool: "ranklab", Version: version(), Command: command, Args: append([]string{}, args...), Conventions: append([]string{}, conventions...), Inputs: []Input{}}
	for _, f := range files {
		in, err := hashFile(f)
		if err != nil {
			return Stamp{}, err
		}
		st.Inputs = append(st.Inputs, in)
	}
	return st, nil
}

func hashFile(f File) (Input, error) {
	if f.Path == "-" {
		return Input{Role: f.Role, Path: "stdin", Bytes: -1}, nil
	}
	if st, err := os.Stat(f.Path); err == nil && !st.Mode().IsRegular() {
		return Input{Role: f.Role, Path: f.Path, Bytes: -1}, nil // a pipe: read once, by the evaluation
	}
	fh, err := os.Open(f.Path)
	if err != nil {
		return Input{}, err
	}
	defer fh.Close()
	h := sha256.New()
	n, err := io.Copy(h, fh)
	if err != nil {
		return Input{}, fmt.Errorf("%s: %w", f.Path, err)
	}
	return Input{Role: f.Role, Path: f.Path, SHA256: hex.EncodeToString(h.Sum(nil)), Bytes: n}, nil
}

// version returns ranklab's version as the build recorded it: the main module's version (or
// "devel"), then the VCS revision and "+dirty" when the build embedded them.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		v += " " + rev + dirty
	}
	return v
}

// EvalConventions lists the rules an evaluation with opt and measures follows: trec_eval 10.0's
// ranking and formulas, the query set (-c or not), the relevance level (-l), the depth (-M) and
// the nDCG gains of the measures asked for.
func EvalConventions(opt eval.Options, measures []eval.Measure) []string {
	out := []string{"trec_eval 10.0 rules: ranked by score (float64) descending, ties by doc ID descending; the rank column ignored"}
	if opt.TrecEval9 {
		out[0] = "trec_eval 9.0.8 rules (--trec-eval-9, as pytrec_eval): ranked by score (float32) descending, ties by doc ID descending; the rank column ignored"
	}
	if opt.AllQueries {
		out = append(out, "-c: every qrels query averaged, one without a ranking scores 0")
	} else {
		out = append(out, "queries in both files averaged (trec_eval 9.0.8; 10.0 stops instead); -c not given")
	}
	level := opt.RelLevel
	if level == 0 {
		level = 1
	}
	out = append(out, fmt.Sprintf("-l %d: a grade >= %d is relevant for binary measures", level, level))
	if opt.Depth > 0 {
		out = append(out, fmt.Sprintf("-M %d: only the first %d ranked docs of each query", opt.Depth, opt.Depth))
	} else {
		out = append(out, "-M not given: every ranked doc")
	}
	if opt.JudgedOnly {
		out = append(out, "-J: docs the qrels do not judge (or grade negative) dropped before every measure")
	}
	if opt.DropSelf {
		out = append(out, "--ignore-identical-ids: a doc whose ID is the query's ID dropped from its ranking (BEIR's ignore_identical_ids)")
	}
	lin, exp := false, false
	for _, m := range measures {
		if m.Name == eval.NameNDCG {
			if m.Exp {
				exp = true
			} else {
				lin = true
			}
		}
	}
	if lin {
		out = append(out, "nDCG gain = grade (linear, as trec_eval's ndcg_cut)")
	}
	if exp {
		out = append(out, "nDCG(dcg=exp-log2) gain = 2^grade - 1")
	}
	return out
}

// lines returns the stamp as "key: value" lines.
func (s Stamp) lines() []string {
	out := []string{
		"generated by: " + s.Tool + " " + s.Version,
		"command: " + strings.TrimSpace(s.Command+" "+strings.Join(quoteArgs(s.Args), " ")),
	}
	for _, c := range s.Conventions {
		out = append(out, "convention: "+c)
	}
	for _, in := range s.Inputs {
		if in.SHA256 == "" {
			out = append(out, fmt.Sprintf("input %s: %s (not hashed)", in.Role, in.Path))
			continue
		}
		out = append(out, fmt.Sprintf("input %s: %s sha256 %s (%d bytes)", in.Role, in.Path, in.SHA256, in.Bytes))
	}
	return out
}

// quoteArgs quotes the arguments a shell would split or expand.
func quoteArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`*?[]{}()<>|&;#~!") {
			out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		} else {
			out[i] = a
		}
	}
	return out
}

// commentLines prefixes every line with prefix, one line of the stamp a line; newlines and
// carriage returns inside values are written as spaces so a value cannot end the comment.
func (s Stamp) commentLines(prefix string) string {
	var b strings.Builder
	for _, l := range s.lines() {
		b.WriteString(prefix + strings.NewReplacer("\n", " ", "\r", " ").Replace(l) + "\n")
	}
	return b.String()
}
