// Package check is the preflight: what to look at in a qrels file and its runs before anyone
// reports a number. It reads the files leniently (every line, every problem with its position,
// nothing stops at the first error), then checks them against each other.
//
// The simplest use:
//
//	r, err := check.Files("qrels.txt", []string{"run.txt"}, check.Options{})
//	fmt.Print(r.Text())
//	if !r.OK() { ... } // an error: the numbers would be wrong, undefined or refused
//
// The checks, and the severity each finding gets (an error means: fix the input before
// reporting a number; a warning: the number can be computed but tools will disagree or it
// misleads; info: facts to read the number with):
//
//	parse, empty          error    a line that does not parse (field count, score, grade), an empty file
//	blank-line            warning  a blank line (trec_eval 10.0 skips blank run lines, other readers differ)
//	comment-line          warning  a line starting with "#" (trec_eval 10.0 skips it, others read it)
//	bom                   warning  a UTF-8 byte order mark (ranklab drops it; trec_eval reads it into the first ID)
//	id-characters         error    control, invisible or Unicode space characters, invalid UTF-8
//	                      warning  "#" or quotes in an ID (comment and quoting rules of other readers)
//	duplicate-doc         error    a doc twice for one query, in a run or in the qrels
//	rank-order            warning  the rank column disagrees with the score order (or is not an integer)
//	near-match            error    a run query absent from the qrels that matches one after
//	                               normalizing: leading zeros ("01"/"1"), case, spaces, invisible characters
//	one-side              warning  qrels queries without a ranking; run queries without judgments
//	no-overlap            error    a run that ranks nothing, shares no query with the qrels, or
//	                               retrieves no judged doc: it is not a result
//	no-relevant           warning  a qrels query without a relevant doc
//	unjudged              info     the share of unjudged docs in each run's top k (warning above 50%)
//	grades                info     the grade distribution and the relevance level the measures use
//	ties                  warning  queries whose value depends on the order of tied scores, and
//	                               how far the mean can move (conventions.Ties); info when none
//	unreadable            error    ranklab's own reader (package eval) refuses the file, whatever the
//	                               checks above said: a "#" line or a blank line it does not skip
//
// A finding prints as "file:line: severity: message". Report.Text groups them; Report.JSON
// lists them all.
package check
