package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

func TestConventionsCommand(t *testing.T) {
	// q7 has no ranking: pytrec_eval averages over q1, q2; trec_eval 10.0 stops.
	dir := sharedtest.WriteTree(t, map[string]string{
		"qrels": "q1 0 a 1\nq2 0 b 1\nq7 0 c 1\n",
		"run":   "q1 Q0 a 1 2 t\nq1 Q0 b 2 1 t\nq2 Q0 x 1 1 t\nq2 Q0 b 2 0.5 t\n",
	})
	q, r := filepath.Join(dir, "qrels"), filepath.Join(dir, "run")
	out, errOut, rc := runCmd("conventions", q, r, "-m", "P@1")
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, errOut)
	}
	for _, want := range []string{
		"ranklab (trec_eval 10.0 -c)  0.3333",
		"trec_eval 10.0  error [1]",
		`query "q7" has no ranking: stops (exit 4`,
		"pytrec_eval 0.5.11 (trec_eval 9.0.8)  0.5000 [2]",
		`query "q7" has no ranking: left out, averaged over 2 queries, not 3`,
	} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), strings.Join(strings.Fields(want), " ")) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if out, errOut, rc = runCmd("conventions", q, r, "-mP@1", "-f", "json"); rc != 0 {
		t.Fatal(errOut)
	}
	var js struct {
		Rows []struct {
			Convention string
			Cells      []struct{ Value *float64 }
		}
		Provenance struct{ Command string }
	}
	if err := json.Unmarshal([]byte(out), &js); err != nil || len(js.Rows) < 4 || js.Rows[3].Cells[0].Value == nil || *js.Rows[3].Cells[0].Value != 0.5 || js.Provenance.Command != "ranklab conventions" {
		t.Errorf("json %v: %s", err, out)
	}
	if _, _, rc := runCmd("conventions", q, r, "-m", "Bpref"); rc != 2 {
		t.Errorf("an uncompared measure: rc %d", rc)
	}
}

func TestCheckCommand(t *testing.T) {
	dir := sharedtest.WriteTree(t, map[string]string{
		"qrels": "1 0 a 1\n2 0 b 1\n",
		"good":  "1 Q0 a 1 2 t\n2 Q0 b 1 1 t\n",
		"bad":   "\xef\xbb\xbf1 Q0 a 1 2 t\n02 Q0 b 1 1 t\n",
	})
	q := filepath.Join(dir, "qrels")
	if out, errOut, rc := runCmd("check", q, filepath.Join(dir, "good")); rc != 0 {
		t.Errorf("a clean run: rc %d\n%s%s", rc, out, errOut)
	}
	out, _, rc := runCmd("check", q, filepath.Join(dir, "bad"), "--json")
	if rc != 1 {
		t.Errorf("a broken run: rc %d", rc)
	}
	var js struct {
		Errors   int
		Findings []struct{ Code, Severity string }
	}
	// One error (query "02" near-matches "2": not a result) and a warning for the byte order
	// mark, which ranklab drops (the peers would read it into the first ID).
	if err := json.Unmarshal([]byte(out), &js); err != nil || js.Errors != 1 {
		t.Errorf("json %v: %s", err, out)
	}
	bomWarning := false
	for _, f := range js.Findings {
		bomWarning = bomWarning || f.Code == "bom" && f.Severity == "warning"
	}
	if !bomWarning {
		t.Errorf("no warning with code bom: %s", out)
	}
	if _, _, rc := runCmd("check", q); rc != 2 {
		t.Errorf("no run: rc %d", rc)
	}
}

func TestCompareRefusesFailingRun(t *testing.T) {
	var qrels, base, good, off strings.Builder
	for i := 1; i <= 12; i++ {
		q := string(rune('a' + i))
		qrels.WriteString(q + " 0 d1 1\n")
		base.WriteString(q + " Q0 x 1 2 t\n" + q + " Q0 d1 2 1 t\n")
		good.WriteString(q + " Q0 d1 1 2 t\n")
		off.WriteString(strings.ToUpper(q) + " Q0 d1 1 2 t\n") // near-matching IDs: not a result
	}
	dir := sharedtest.WriteTree(t, map[string]string{"qrels": qrels.String(), "base": base.String(), "good": good.String(), "off": off.String()})
	p := func(n string) string { return filepath.Join(dir, n) }
	out, errOut, rc := runCmd("compare", p("qrels"), p("base"), p("good"), p("off"), "-m", "RR", "-f", "json")
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, errOut)
	}
	var js struct {
		Comparisons []struct {
			Run          string
			SignificantT bool   `json:"significant_t"`
			Refused      string `json:"refused"`
		}
	}
	if err := json.Unmarshal([]byte(out), &js); err != nil {
		t.Fatal(err)
	}
	if !js.Comparisons[0].SignificantT || js.Comparisons[0].Refused != "" {
		t.Errorf("the good run should stand and be significant: %+v", js.Comparisons[0])
	}
	if js.Comparisons[1].SignificantT || !strings.Contains(js.Comparisons[1].Refused, "nearly matches") {
		t.Errorf("the near-matching run should be refused: %+v", js.Comparisons[1])
	}
}
