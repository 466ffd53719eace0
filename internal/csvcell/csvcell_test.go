package csvcell

import "testing"

// TestCell is defect 11 of issue 23 at its root: the cells of the issue come out as text.
func TestCell(t *testing.T) {
	for in, want := range map[string]string{
		`=cmd|'/C calc'!A0`: `'=cmd|'/C calc'!A0`,
		"+SUM(1+1)":         "'+SUM(1+1)",
		`=HYPERLINK("x")`:   `'=HYPERLINK("x")`,
		"@SUM(A1)":          "'@SUM(A1)",
		"-2+3":              "'-2+3",
		"\t=1":              "'\t=1",
		"\r=1":              "'\r=1",
		"'x":                "''x",
		"-0.25":             "-0.25",
		"+3":                "+3",
		"-1e-05":            "-1e-05",
		"q1":                "q1",
		"-":                 "-",
		"":                  "",
		"a=b":               "a=b",
	} {
		if got := Cell(in); got != want {
			t.Errorf("Cell(%q) = %q, want %q", in, got, want)
		}
		if back := Uncell(Cell(in)); back != in {
			t.Errorf("Uncell(Cell(%q)) = %q", in, back)
		}
	}
}

func FuzzCell(f *testing.F) {
	f.Add("=1")
	f.Add("-1")
	f.Fuzz(func(t *testing.T, s string) {
		c := Cell(s)
		if Uncell(c) != s {
			t.Errorf("Uncell(Cell(%q)) = %q", s, Uncell(c))
		}
		if c != "" && (c[0] == '=' || c[0] == '@' || c[0] == '\t' || c[0] == '\r' || (c[0] == '+' || c[0] == '-') && len(c) > 1 && !isNumber(c)) {
			t.Errorf("Cell(%q) = %q starts a formula", s, c)
		}
	})
}
