package retrieval

import (
	"strings"
	"testing"
)

// A corpus or queries file saved with a UTF-8 byte-order mark reads like one without.
func TestJSONLinesByteOrderMark(t *testing.T) {
	docs, err := ReadCorpus(strings.NewReader("\xef\xbb\xbf"+tinyCorpus), "corpus.jsonl")
	if err != nil || len(docs) != 2 || docs[0].ID != "d1" {
		t.Errorf("corpus with a BOM: %+v, %v", docs, err)
	}
}
