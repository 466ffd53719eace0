//go:build race

package scan_test

// raceEnabled: the tests run under the race detector (go test -race).
const raceEnabled = true
