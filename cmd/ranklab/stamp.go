package main

import (
	"fmt"

	"github.com/ranklab/ranklab/provenance"
)

// stampOutput adds the provenance stamp to an export in the way its format allows (package
// provenance): a last "provenance" member in JSON, leading "# " lines in CSV, leading "% "
// lines in LaTeX, a footer in Markdown and HTML, trailing "# " lines in text and trec output
// (which are stamped only when asked with --stamp). Any other format is an error.
func stampOutput(format string, out []byte, st provenance.Stamp) ([]byte, error) {
	switch format {
	case "json":
		return provenance.AppendJSON(out, st)
	case "csv":
		return append([]byte(st.Text()), out...), nil
	case "latex":
		return append([]byte(st.LaTeX()), out...), nil
	case "md":
		return append(out, st.Markdown()...), nil
	case "html":
		return append(out, (st.HTML() + "\n")...), nil
	case "text", "trec":
		return append(out, ("\n" + st.Text())...), nil
	}
	return nil, fmt.Errorf("no provenance stamp for format %q", format)
}

// wantStamp decides whether an export is stamped: always when asked (--stamp), never when
// refused (--no-stamp), else for every format but the terminal's text and trec_eval's own.
func wantStamp(format string, stamp, noStamp bool) bool {
	if stamp {
		return true
	}
	return !noStamp && format != "text" && format != "trec"
}
