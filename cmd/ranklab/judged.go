package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/measurename"
	"github.com/ranklab/ranklab/internal/scan"
)

// judgedWarn is the share of the top k that must be judged for a measure at k to pass without a
// warning: below it, more than one document in ten of the top k counts as not relevant only
// because nobody judged it.
const judgedWarn = 0.9

// judgedCutoffs returns the cutoffs k of the measures that score the top k (P, R, RR, AP, nDCG,
// Success at k), in order, once each.
func judgedCutoffs(ms []eval.Measure) []int {
	var ks []int
	for _, m := range ms {
		switch m.Name {
		case measurename.P, measurename.R, measurename.RR, measurename.AP, measurename.NDCG, measurename.Success:
			if m.Cutoff > 0 && !slices.Contains(ks, m.Cutoff) {
				ks = append(ks, m.Cutoff)
			}
		}
	}
	slices.Sort(ks)
	return ks
}

// pooledQrels reports whether qrels judge some document not relevant (grade below the
// relevance level, 1 when level is 0): judgments from a pool. Qrels that list relevant
// documents only (SciFact's, MS MARCO's) leave most of every top k unjudged by design, and a
// warning about judged depth would only be noise there.
func pooledQrels(qrels eval.Qrels, level int) bool {
	level = max(level, 1)
	for _, docs := range qrels {
		for _, g := range docs {
			if g < level {
				return true
			}
		}
	}
	return false
}

// pooledFile reports whether the qrels file at path (TREC or BEIR TSV) judges some document
// not relevant (pooledQrels' rule), reading it line by line only until the first such grade, so
// a pooled file costs a line or two and no map; a file that does not read is not pooled (the
// evaluation says why).
func pooledFile(path string, level int) bool {
	level = max(level, 1)
	r, closeFile, err := scan.Open(path)
	if err != nil {
		return false
	}
	defer closeFile()
	lines := scan.NewLines(r)
	for lines.Next() {
		f := strings.Fields(string(lines.Bytes()))
		var grade string
		switch {
		case len(f) == 4: // TREC: query iter doc grade
			grade = f[3]
		case len(f) == 3: // BEIR TSV: query-id corpus-id score (the header does not parse)
			grade = f[2]
		default:
			continue
		}
		if g, err := strconv.Atoi(grade); err == nil && g < level {
			return true
		}
	}
	return false
}

// judgedMeasures returns Judged@1 and Judged@k for each k of ks: what judgedWarnings reads.
func judgedMeasures(ks []int) []eval.Measure {
	ms := []eval.Measure{eval.Judged(1)}
	for _, k := range ks {
		if k != 1 {
			ms = append(ms, eval.Judged(k))
		}
	}
	return ms
}

// judgedWarnings says, for run name evaluated in res (which holds judgedMeasures(ks)), where
// its measures at k score deeper than the qrels judged it: Judged@k below judgedWarn, and a
// first document without judgment (a run that was not pooled, such as a fusion made after the
// pool). qrelsPath names the file in the advice.
func judgedWarnings(res eval.Result, name, qrelsPath string, ks []int) []string {
	var out []string
	if len(res.Queries) == 0 {
		return nil
	}
	unpooled := 0
	for _, v := range res.Column(eval.Judged(1)) {
		if v < 1 {
			unpooled++
		}
	}
	if unpooled > 0 {
		out = append(out, fmt.Sprintf("%s: its first document has no judgment for %d of %d queries: it was not in the pool (a fusion made after it?), "+
			"so its unjudged documents count against it; pool it too (ranklab pool --judged %s ... %s) and judge the new pairs before comparing it",
			name, unpooled, len(res.Queries), qrelsPath, name))
	}
	for _, k := range ks {
		j := res.Mean(eval.Judged(k))
		if j >= judgedWarn {
			continue
		}
		out = append(out, fmt.Sprintf("%s: Judged@%d = %.2f: %.0f %% of its top %d was never judged and counts as not relevant, so its measures at %d "+
			"are scored deeper than the pool was judged; grow the pool (ranklab pool --depth %d --judged %s RUN...) and judge the new pairs, "+
			"or read bpref or a condensed list (eval -J), which skip unjudged documents",
			name, k, j, 100*(1-j), k, k, k, qrelsPath))
	}
	return out
}
