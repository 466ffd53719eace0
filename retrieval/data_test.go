package retrieval

import (
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

// sharedData returns ../shared/data/<name> relative to the module root, skipping the test
// when it is absent.
func sharedData(t testing.TB, name string) string {
	t.Helper()
	return sharedtest.Path(t, "data", name)
}
