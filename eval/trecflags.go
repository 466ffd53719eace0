package eval

import (
	"fmt"
	"strings"
)

// TrecMeasures reads trec_eval's -m arguments by its rules (a nickname marks its measures, v9:
// 9.0.8's; a name takes its first parameter list, later ones are warned about and ignored):
// the marked measures in trec_eval's table order, then the ir_measures names as given.
func TrecMeasures(args []string, v9 bool) (ms []Measure, warnings []string, err error) {
	marked := map[string]bool{}
	params := map[string]string{}
	hasParams := map[string]bool{}
	var irNames []string
	for _, arg := range args {
		if strings.ContainsAny(arg, "(@") {
			irNames = append(irNames, arg)
			continue
		}
		name, p, dotted := strings.Cut(arg, ".")
		if dotted && p == "" {
			return nil, nil, fmt.Errorf("measure %q: empty parameter list (trec_eval: improper measure)", arg)
		}
		if members, ok := trecNickname(name, v9); ok {
			if dotted {
				warnings = append(warnings, fmt.Sprintf("-m %s: a nickname takes no parameters; %q ignored (as trec_eval)", arg, p))
			}
			for _, m := range members {
				marked[m] = true
			}
			continue
		}
		i, ok := trecByName(name)
		takes := ok && trecTable[i].kind != tkNone
		if !ok {
			irNames = append(irNames, arg) // an ir_measures name, or an error below
			continue
		}
		marked[name] = true
		switch {
		case !dotted:
		case !takes:
			warnings = append(warnings, fmt.Sprintf("-m %s: %s takes no parameters; %q ignored (as trec_eval)", arg, name, p))
		case hasParams[name]:
			if params[name] != p {
				warnings = append(warnings, fmt.Sprintf("-m %s ignored: trec_eval uses the first parameter list of a measure (%s.%s)", arg, name, params[name]))
			}
		default:
			params[name], hasParams[name] = p, true
		}
	}
	seen := map[Measure]bool{}
	for _, t := range trecTable {
		name := t.name
		if !marked[name] {
			continue
		}
		spec := name
		if hasParams[name] {
			spec += "." + params[name]
		}
		got, err := ParseMeasures(spec)
		if err != nil {
			return nil, nil, err
		}
		for _, m := range got {
			if !seen[m] {
				seen[m] = true
				ms = append(ms, m)
			}
		}
	}
	for _, n := range irNames {
		m, err := ParseMeasure(n)
		if err != nil {
			return nil, nil, err
		}
		if !seen[m] {
			seen[m] = true
			ms = append(ms, m)
		}
	}
	for _, arg := range args {
		if name, p, ok := strings.Cut(arg, "."); ok {
			if strings.Contains(p, ".") && integerCutoffs(name) {
				warnings = append(warnings, fmt.Sprintf("-m %s: cutoffs with decimals are truncated (as trec_eval's atol)", arg))
			}
		}
	}
	return ms, warnings, nil
}

// integerCutoffs reports whether trec_eval reads the measure name's cutoffs as integers (P,
// recall, ndcg_cut, ...: atol, which truncates "5.5" to 5).
func integerCutoffs(name string) bool {
	i, ok := trecByName(name)
	return ok && trecTable[i].kind == tkLongCutoffs
}

// IROnlyNames returns the ir_measures measures trec_eval lacks ("Judged@k", ...).
func IROnlyNames() []string {
	var out []string
	for _, f := range familyList {
		if f.ir && len(f.trec) == 0 {
			out = append(out, irForms(f)...)
		}
	}
	return out
}
