package eval

// ParseScore reads a run's score field exactly as ReadRun does (a finite float64), so that a
// tool reading runs another way (package check's lenient preflight reader) agrees with the
// evaluator on every score.
func ParseScore(field string) (float64, error) { return parseScore([]byte(field)) }

// ParseGrade reads a qrels grade field exactly as ReadQrels does (an integer; Unjudged and
// values beyond 32 bits refused), for the same reason as ParseScore.
func ParseGrade(field string) (int, error) { return parseGradeBytes([]byte(field)) }
