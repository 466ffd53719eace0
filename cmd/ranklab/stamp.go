package main

import (
	"fmt"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/measurename"
)

// wantStamp decides whether an export is stamped: always when asked (--stamp), never when
// refused (--no-stamp), else for every format but the terminal's text and trec_eval's own.
func wantStamp(format string, stamp, noStamp bool) bool {
	if stamp {
		return true
	}
	return !noStamp && format != "text" && format != "trec"
}

// evalConventions lists the rules an evaluation with opt and measures follows: trec_eval 10.0's
// ranking and formulas, the query set (-c or not), the relevance level (-l), the depth (-M) and
// the nDCG gains of the measures asked for.
func evalConventions(opt eval.Options, measures []eval.Measure) []string {
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
		if m.Name == measurename.NDCG {
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
