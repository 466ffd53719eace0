package retrieval

import (
	"slices"
	"testing"
)

func TestEnglish(t *testing.T) {
	a := mustEnglish(t)
	tests := []struct {
		name, text string
		want       []string
	}{
		// possessive 's dropped, lowercased, stop words (the, and) removed, Porter stems.
		{"possessive stop stem", "The cat's Running quickly, and the dogs ran.", []string{"cat", "run", "quickli", "dog", "ran"}},
		{"only stop words", "the and of", []string{}},
		{"empty", "", []string{}},
		{"numbers kept", "COVID-19 in 2020", []string{"covid", "19", "2020"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := a.Terms(tc.text); !slices.Equal(got, tc.want) {
				t.Errorf("Terms(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}
