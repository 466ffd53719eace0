// Package measurename holds the values of eval.Measure.Name that the module's packages switch on:
// ir_measures' names of the measure families (eval's package doc lists every family). A user
// builds a measure with eval's constructors (eval.P(5)) or eval.ParseMeasure ("P@5") and reads
// its Name as that string; these constants keep the module's own switches (eval, conventions,
// compare, cmd/ranklab) spelled once.
package measurename

const (
	P         = "P"
	R         = "R"
	RR        = "RR"
	AP        = "AP"
	NDCG      = "nDCG"
	Rprec     = "Rprec"
	Bpref     = "Bpref"
	Success   = "Success"
	Judged    = "Judged"
	NumQ      = "NumQ"
	NumRet    = "NumRet"
	NumRel    = "NumRel"
	NumRelRet = "NumRelRet"
)
