// Package trecnames gives the command line what package eval knows of trec_eval's measure table
// (its names, nicknames and parameter kinds) without making it part of eval's API. Package eval
// fills the functions in when it is initialised (eval's family table is the one source), so a
// program that imports this package must import eval too.
package trecnames

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
	// IntegerCutoffs reports whether the measure name takes integer cutoffs (P, recall,
	// ndcg_cut, ...), which trec_eval reads with atol.
	IntegerCutoffs func(name string) bool
)
