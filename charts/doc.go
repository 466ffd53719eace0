// Package charts is the only place that writes chart options and HTML tables: it turns ranklab's
// values (lab outcomes, evaluation results, comparison reports, any named series of numbers) into
// ECharts charts (options built with go-echarts v2.6.7) and plain HTML tables, one HTML fragment
// per notebook output.
//
// The simplest use, in a GoNB cell:
//
//	o, _ := lab.DefaultState().Outcome()
//	charts.Show(charts.MetricCards(o), charts.Ranking(o))
//
// The general builders take plain value structs whose zero values mean "automatic":
//
//	charts.Bars(charts.Plot{Title: "P@5 by threshold", Categories: []string{"1", "2", "3"}, YMax: 1},
//		charts.Series{Name: "P@5", Values: []float64{0.6, 0.4, 0.2}})
//
// Bars and Lines draw Series over Plot.Categories (points or steps, never sloped lines between
// whole positions), with optional intervals as error bars, labelled reference lines (Ref) and
// bands (Band); their y axis starts at 0 unless Plot.Zoom asks otherwise, and then the subtitle
// says the axis is truncated. Table writes any header and rows as a plain HTML table.
//
// The builders for ranklab's own values: Ranking, Rerank, MetricCards, MetricsAtK and RerankSweep
// (the lab's ranking panel), ChunkingCard, ChunkOverlap and
// FootprintOverOverlap (the chunking panel; LabPanels returns both); one list (panels.go) declares the lab's views once
// for both panels and the live panel (package live), and one metric table (labMetrics) the four
// measures; QueryTable, QueryDistribution and
// QueryDiff (evaluated runs), LookAtQuery (one query across runs: rankings side by side
// with titles, snippets and grades, the relevant docs each run missed) and DifferingQueries (the
// queries where two runs differ most), CompareTable, CompareMeans and CompareDiff (a compare.Report),
// QualityAtBudget (a chunk-size × token-budget sweep beside each chunking's storage footprint) and
// Page (a standalone offline page of fragments). Every chart has a
// title, named axes and a legend where it has more than one series; the lab's default charts
// are each under 20 KB (ECharts itself is sent once, apart).
//
// # Fragments
//
// Every builder is a pure function of its arguments that returns one HTML fragment (apart from
// the container id, which is fresh on every call). A chart fragment is a div with a unique id
// ("ranklab-chart-<random>-<n>") and one inline script; the script waits for window.echarts,
// calls echarts.init(div).setOption(option) and, when ECharts reports the chart "finished",
// sets data-drawn="1" on the div. There is no <script src> per chart. Tables and metric cards
// are plain HTML with inline styles and no JavaScript, so they survive untrusted notebook views
// and GitHub's viewer.
//
// # Colours and themes
//
// Every colour that draws a mark or a table rule is listed once (colors.go) with the colour
// JupyterLab's dark theme shows instead; both keep a contrast ratio of at least 3:1 against the
// light and the dark backgrounds (WCAG 2's ratio, TestThemeContrast). A chart drawn on a dark
// page (data-jp-theme-light="false") swaps in the dark colours and redraws on a theme switch.
//
// # Escaping
//
// Every string that comes from data (doc ids, labels, query ids, run names, titles) is escaped:
// in HTML text and attributes with html.EscapeString, inside scripts by encoding/json, which
// writes <, > and & as \u003c, \u003e and \u0026, so a doc id such as "</script>" cannot end the
// script element. ECharts writes tooltips as HTML, so tooltip texts are HTML-escaped before they
// go into the option, and no chart passes data through ECharts' {b} templates.
//
// # Where ECharts comes from
//
// ECharts 5.4.3 (dist/echarts.min.js of the npm package, Apache-2.0, with its LICENSE and
// NOTICE in assets/) is embedded. Offline mode, the default, uses that copy: Page puts it once
// in the page head and Show sends it once per kernel run before the first chart, wrapped so
// that RequireJS cannot capture it and guarded by if(!window.echarts). Online mode loads the
// pinned CDN URL (jsDelivr, onlineURL) instead (through RequireJS where the page has it, else one script tag). The
// mode is set by the environment variable RANKLAB_ECHARTS=offline|online, read when the program
// starts (in a notebook: %env RANKLAB_ECHARTS online, then the cells that draw).
// An offline chart that finds no ECharts within 3 s tries the CDN URL before giving up with a
// visible message. Version 5.4.3 is pinned because 6.x moves title and legend defaults.
//
// # Display
//
// display.go is the only file that imports gonbui. Show is a no-op outside a notebook, so every
// builder is testable with go test.
package charts
