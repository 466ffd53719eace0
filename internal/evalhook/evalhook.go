// Package evalhook gives ranklab's own packages what package eval knows beyond its API: the
// command line trec_eval's measure table (names, nicknames, parameter kinds), the preflight
// checker eval's field grammar. Package eval fills the functions in when it is initialised (its
// family table and readers stay the one source), so a program that imports this package must
// import eval too.
package evalhook

var (
	// Names returns the names of trec_eval 10.0's measure table in its order (the order in
	// which it prints measures).
	Names func() []string
	// Nickname returns the measure names that trec_eval's nickname name ("official",
	// "all_trec", "set", "all_prefs", "prefs", "qrels_jg") stands for, in table order; with v9,
	// trec_eval 9.0.8's sets (no rbp, rbp_resid, unj). ok is false for another name.
	Nickname func(name string, v9 bool) (names []string, ok bool)
	// TakesParameters reports whether the measure name takes a parameter string (trec_eval
	// ignores one given to a measure that takes none); ok is false for an unknown name.
	TakesParameters func(name string) (takes, ok bool)
	// IROnly returns the measures ir_measures names that trec_eval lacks, as written
	// ("Judged@k", "ERR@k").
	IROnly func() []string
	// IntegerCutoffs reports whether the measure name takes integer cutoffs (P, recall,
	// ndcg_cut, ...), which trec_eval reads with atol.
	IntegerCutoffs func(name string) bool
	// ParseScore reads a run's score field exactly as eval's run reader does (a decimal
	// number with a finite value), so that package check's lenient reader agrees with the
	// evaluator on every score.
	ParseScore func(field string) (float64, error)
	// ParseGrade reads a qrels grade field exactly as eval's qrels reader does (an integer of
	// 32 bits; eval.Unjudged refused).
	ParseGrade func(field string) (int, error)
)
