//go:build !unix

package rerank

import "time"

// cpuTime cannot read the process's CPU time here: costs then report it as not measured.
func cpuTime() (time.Duration, bool) { return 0, false }
