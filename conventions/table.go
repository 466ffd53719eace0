package conventions

import (
	"errors"
	"fmt"
	"math"

	"github.com/ranklab/ranklab/eval"
)

// tolerance is the largest difference from the reference that still counts as agreement
// (float summation order differs between tools by far less).
const tolerance = 1e-9

// Cell is one tool's number for one measure.
type Cell struct {
	Name     string             // the tool's own name for the measure; "" when the tool has none
	Value    float64            // the tool's number; NaN when Name is "" or Err is set
	Queries  int                // queries in the tool's mean
	PerQuery map[string]float64 // each query the tool scores; NaN for a query it leaves out
	Err      string             // why the tool stops instead of giving a number
	Agrees   bool               // a number within 1e-9 (tolerance) of the reference row's
	Reasons  []string           // why the number differs from the reference (or why the tool stops), one line each
}

// available reports whether the tool has this measure.
func (c Cell) available() bool { return c.Name != "" }

// row is one convention's cells, one per measure of the table.
type row struct {
	Convention Convention
	Cells      []Cell
}

// Table is one run scored under every convention, side by side: Rows[0] is the reference
// (ranklab, trec_eval 10.0 -c) and Rows[i].Cells[j] is convention i on Measures[j].
type Table struct {
	Measures []eval.Measure
	Rows     []row
	Queries  []string // the qrels queries, byte order
	Missing  []string // qrels queries the run has no ranking for
	Ignored  []string // run queries absent from the qrels
}

// Compare scores run on qrels under every convention of Conventions for each measure, and
// explains each cell that differs from the reference. The reference row is eval's own result
// (eval.Options{AllQueries: true}); the other rows follow the rules each Convention documents,
// with each query's docs taken in the run's file order (eval.ReadRun keeps it). The inputs
// are not modified. It returns an error for a measure the table does not compare (see
// CheckMeasure), no measure, or qrels without a query.
func Compare(qrels eval.Qrels, run eval.Run, measures ...eval.Measure) (Table, error) {
	if len(measures) == 0 {
		return Table{}, errors.New("conventions: no measure")
	}
	if len(qrels) == 0 {
		return Table{}, errors.New("conventions: the qrels have no query")
	}
	for _, m := range measures {
		if err := CheckMeasure(m); err != nil {
			return Table{}, err
		}
	}
	d := newDataset(qrels, run)
	ref, err := eval.Options{AllQueries: true}.Evaluate(qrels, run, measures...)
	if err != nil {
		return Table{}, fmt.Errorf("conventions: %w", err)
	}
	t := Table{Measures: measures, Queries: d.qrelsQ, Missing: d.missing, Ignored: d.ignored}
	for ci, c := range Conventions() {
		r := row{Convention: c}
		for _, m := range measures {
			if ci == 0 {
				per := ref.PerQuery(m)
				r.Cells = append(r.Cells, Cell{Name: m.String(), Value: ref.Mean(m), Queries: len(ref.Queries), PerQuery: per, Agrees: true})
				continue
			}
			r.Cells = append(r.Cells, cell(d, c, m, ref.Mean(m)))
		}
		t.Rows = append(t.Rows, r)
	}
	return t, nil
}

// cell scores one convention on one measure and explains a difference from reference.
func cell(d *dataset, c Convention, m eval.Measure, reference float64) Cell {
	v, ok := c.variant(m)
	if !ok {
		return Cell{Value: math.NaN()}
	}
	o := v.evaluate(d)
	if o.err != nil {
		return Cell{Name: v.Name, Value: math.NaN(), Err: o.err.Error(), Reasons: []string{o.err.Error()}}
	}
	out := Cell{Name: v.Name, Value: o.mean, Queries: len(o.queries), PerQuery: o.values}
	out.Agrees = math.Abs(o.mean-reference) <= tolerance
	if !out.Agrees {
		out.Reasons = explain(d, v, o)
	}
	return out
}

// Cell returns the cell of the named convention on measure m; ok is false when the table has no
// such row or measure.
func (t Table) Cell(convention string, m eval.Measure) (c Cell, ok bool) {
	for _, r := range t.Rows {
		if r.Convention.Name != convention {
			continue
		}
		for j, tm := range t.Measures {
			if tm == m {
				return r.Cells[j], true
			}
		}
	}
	return Cell{}, false
}
