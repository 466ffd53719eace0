package retrieval

import (
	"fmt"
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/registry"
)

// Analyzer turns text into index terms. English is bleve's "en" analyzer (bleve v2.6.3):
// the Unicode word tokenizer (UAX #29 word boundaries), the English possessive filter
// ("'s" removed), lowercasing, bleve's English stop-word list, and the Porter stemmer.
// The same analyzer is applied to documents, chunks and queries.
type Analyzer struct {
	a analysis.Analyzer
}

var (
	englishOnce sync.Once
	english     Analyzer
	englishErr  error
)

// English returns bleve's English analyzer, built once per process from bleve's registry.
func English() (Analyzer, error) {
	englishOnce.Do(func() {
		a, err := registry.NewCache().AnalyzerNamed(en.AnalyzerName)
		if err != nil {
			englishErr = fmt.Errorf("retrieval: bleve analyzer %q: %w", en.AnalyzerName, err)
			return
		}
		english = Analyzer{a: a}
	})
	return english, englishErr
}

// Terms returns the terms of text in text order, repeated terms repeated. Stop words
// leave no term. The analyzer is safe for concurrent use.
func (a Analyzer) Terms(text string) []string {
	stream := a.a.Analyze([]byte(text))
	terms := make([]string, 0, len(stream))
	for _, tok := range stream {
		terms = append(terms, string(tok.Term))
	}
	return terms
}
