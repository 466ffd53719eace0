// Package sharedtest finds the read-only ../shared folder (trec_eval anchors, real collections)
// for tests, skipping the test where it is absent.
package sharedtest

import (
	"testing"

	"github.com/ranklab/ranklab/nb"
)

// Path returns ../shared/<elem...> beside the module root (nb.Shared, searching from the test's
// working directory). It skips the test when that path is absent.
func Path(t testing.TB, elem ...string) string {
	t.Helper()
	p, err := nb.Shared(elem...)
	if err != nil {
		t.Skip(err)
	}
	return p
}
