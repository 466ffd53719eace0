package eval

import (
	"io"
	"math"

	"github.com/ranklab/ranklab/internal/scan"
)

// zScores holds, per query ID and measure value name (as trec_eval prints it: "P_5", "map",
// "iprec_at_recall_0.10"), the mean and standard deviation a value is standardised with.
type zScores map[string]map[string]zScore

// zScore is one line of a Z-score file.
type zScore struct{ Mean, StdDev float64 }

// parseZScores reads trec_eval's Z-score file (-Z): one line a value, exactly 4 fields
//
//	query-id measure-name mean stddev
//
// with mean and stddev decimal numbers. Comment lines ('#') are skipped and a byte-order mark
// dropped as in the other readers; errors are *ParseError values as for ReadQrels (ErrScore for
// a number that does not parse, ErrDuplicate for a query and name given twice).
func parseZScores(r io.Reader, name string) (zScores, error) {
	z := zScores{}
	err := readRecords(r, name, 4, "4 (query-id measure mean stddev)", "", func(f [][]byte, line int) error {
		mean, ok1 := scan.Float(f[2])
		sd, ok2 := scan.Float(f[3])
		if !ok1 || !ok2 {
			bad := f[2]
			if ok1 {
				bad = f[3]
			}
			return parseErr(name, line, ErrScore, "%s", quoteField(bad))
		}
		q := inner(z, string(f[0]))
		if _, dup := q[string(f[1])]; dup {
			return parseErr(name, line, ErrDuplicate, "%s given twice for query %s", quoteField(f[1]), quoteField(f[0]))
		}
		q[string(f[1])] = zScore{mean, sd}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return z, nil
}

// zMissing is the value trec_eval gives a value without a Z-score line.
const zMissing = -1000000

// standardize returns r with every per-query value v replaced by its Z score, as trec_eval -Z
// does: (v - mean) / stddev with the mean and stddev of the query and value name in z;
// -1000000 when z has no line for them; when stddev is 0, 0 if v equals the mean, else
// -1000000. gm_map and gm_bpref standardise the stored log. Means and Summary are then
// computed again from the new values (the sum for counts, the number of queries for NumQ).
// r is not modified.
func (r Result) standardize(z zScores) Result {
	out := r
	out.Values = make([][]float64, len(r.Values))
	names := make([]string, len(r.Measures))
	for j, m := range r.Measures {
		if n, ok := m.TrecName(); ok {
			names[j] = n
		} else {
			names[j] = m.String()
		}
	}
	for i, q := range r.Queries {
		row := make([]float64, len(r.Measures))
		zq := z[q]
		for j, v := range r.Values[i] {
			e, ok := zq[names[j]]
			switch {
			case !ok:
				row[j] = zMissing
			case e.StdDev != 0:
				row[j] = (v - e.Mean) / e.StdDev
			case v == e.Mean:
				row[j] = 0
			default:
				row[j] = zMissing
			}
		}
		out.Values[i] = row
	}
	out.Means = make([]float64, len(r.Measures))
	out.Summary = make([]float64, len(r.Measures))
	for j, m := range r.Measures {
		out.Means[j], out.Summary[j] = aggregateColumn(out.Values, j, families[m.Name].agg, r.N, len(r.Queries))
	}
	return out
}

// aggregateColumn returns the mean and the "all" value of column j over n queries, of which
// evaluated have rows (the others count 0, or log(0.00001) for a geometric mean).
func aggregateColumn(values [][]float64, j int, agg aggKind, n, evaluated int) (mean, summary float64) {
	sum := 0.0
	for i := range values {
		sum += values[i][j]
	}
	mean = sum
	if n > 0 {
		mean = sum / float64(n)
	}
	summary = mean
	switch agg {
	case aggGeo:
		mean = math.Exp((sum + float64(n-evaluated)*math.Log(gmFloor)) / float64(n))
		summary = mean
	case aggSum:
		summary = sum
	case aggNumQ:
		summary = float64(n)
	case aggNone:
		mean, summary = 0, 0
	}
	return mean, summary
}
