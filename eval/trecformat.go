package eval

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
)

// TrecFormat is trec_eval's output format: lines "%-22s\t%s\t%6.4f" of the measure's TrecName
// (else m.String()), the query ID or "all" and the value (counts as integers, NaN as "-nan"),
// measures in trec_eval's order.
type TrecFormat struct {
	PerQuery  bool // also print each query's lines, queries in byte order (trec_eval's -q)
	NoSummary bool // leave out the "all" lines (trec_eval's -n)
	Digits    int  // decimals; 0 means 4
	Z         bool // the values are Z scores (standardize): prefix names with "Z", print counts as reals (trec_eval's -Z)
}

// Write writes r in the format f.
func (f TrecFormat) Write(w io.Writer, r Result) error {
	digits := f.Digits
	switch {
	case digits == 0:
		digits = 4
	case digits < 0:
		digits = 0
	}
	order := trecOrder(r.Measures)
	bw := bufio.NewWriter(w)
	line := func(m Measure, q string, v float64, text string) {
		name, ok := m.TrecName()
		if !ok {
			name = m.String()
		}
		fam := families[m.Name]
		switch {
		case m.Name == nameRunID:
			fmt.Fprintf(bw, "%-22s\t%s\t%s\n", name, q, text)
		case m.Name == nameRelString:
			fmt.Fprintf(bw, "%-22s\t%s\t'%s'\n", name, q, text)
		case f.Z:
			fmt.Fprintf(bw, "Z%-22s\t%s\t%s\n", name, q, formatValue(v, digits))
		case fam.integer:
			fmt.Fprintf(bw, "%-22s\t%s\t%d\n", name, q, truncate(v))
		default:
			fmt.Fprintf(bw, "%-22s\t%s\t%s\n", name, q, formatValue(v, digits))
		}
	}
	cols := make([]int, len(order))
	for k, m := range order {
		cols[k] = r.column(m)
	}
	if f.PerQuery {
		for i, q := range r.Queries {
			for k, m := range order {
				if families[m.Name].noSingle {
					continue
				}
				text := ""
				if m.Name == nameRelString {
					text = r.Text[i][cols[k]]
				}
				line(m, q, r.Values[i][cols[k]], text)
			}
		}
	}
	if !f.NoSummary {
		for k, m := range order {
			if m.Name == nameRelString {
				continue
			}
			line(m, "all", r.Summary[cols[k]], r.Tag)
		}
	}
	return bw.Flush()
}

// formatValue prints v as C's "%6.*f" does, with glibc's spellings of NaN and infinities.
func formatValue(v float64, digits int) string {
	switch {
	case math.IsNaN(v):
		return "  -nan" // the NaN of 0.0/0.0 on x86 has its sign bit set
	case math.IsInf(v, 1):
		return "   inf"
	case math.IsInf(v, -1):
		return "  -inf"
	}
	return fmt.Sprintf("%6s", strconv.FormatFloat(v, 'f', digits, 64))
}

// truncate is C's (long) cast of a count.
func truncate(v float64) int64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return int64(v)
}
