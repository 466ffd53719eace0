package sharedtest

import "testing"

// SmallBEIR writes a four-document BEIR collection (d4 empty) with three queries judged in
// qrels/test.tsv (query 1 graded: d1 2, d3 1) into a new temporary folder and returns the
// folder: the small collection of the retrieval and study tests.
func SmallBEIR(t testing.TB) string {
	t.Helper()
	corpus := `{"_id":"d1","title":"Zebras","text":"zebras graze on the open savanna grass all day long while lions watch from the shade of acacia trees and wait"}
{"_id":"d2","title":"Quartz","text":"quartz is a hard mineral made of silicon and oxygen found in many rocks such as granite and sandstone"}
{"_id":"d3","title":"Lions","text":"lions hunt zebras at night and sleep in the shade of the savanna trees during the hottest hours of the day"}
{"_id":"d4","title":"","text":""}
`
	queries := `{"_id":"1","text":"zebra savanna"}
{"_id":"2","text":"silicon mineral"}
{"_id":"3","text":"night hunting lions"}
`
	qrels := "query-id\tcorpus-id\tscore\n1\td1\t2\n1\td3\t1\n2\td2\t1\n3\td3\t1\n"
	return WriteTree(t, map[string]string{"corpus.jsonl": corpus, "queries.jsonl": queries, "qrels/test.tsv": qrels})
}
