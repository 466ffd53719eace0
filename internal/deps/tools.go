//go:build tools

// Package deps pins the modules that the project uses so that `go mod tidy`
// keeps them while parts of the project are still being written.
package deps

import (
	_ "github.com/blevesearch/bleve/v2/analysis/lang/en"
	_ "github.com/go-echarts/go-echarts/v2/charts"
	_ "github.com/janpfeifer/gonb/gonbui"
	_ "github.com/pkoukk/tiktoken-go"
	_ "github.com/pkoukk/tiktoken-go-loader"
	_ "gonum.org/v1/gonum/stat"
	_ "gonum.org/v1/gonum/stat/distuv"
)
