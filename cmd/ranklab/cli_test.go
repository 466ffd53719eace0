package main

import "bytes"

// runCmd runs the command line "ranklab args..." and returns what it printed and its exit status.
func runCmd(args ...string) (stdout, stderr string, rc int) {
	var o, e bytes.Buffer
	rc = dispatch(args, &o, &e)
	return o.String(), e.String(), rc
}
