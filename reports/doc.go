// Package reports builds the quarterly reliability report and the one-case
// page as self-contained HTML files that open offline and can be mailed.
//
// A report is made in two steps. Build gathers the figures from the store
// into a plain QuarterReport (the report data: counts, summaries and
// comparisons from the analysis package, chart series, related-case
// clusters); its JSON form is what the golden tests compare.
//
// Build also decides what the data can say, each decision in one place
// with a sentence the page shows: the period (period.go: the latest
// complete quarter when it and the quarter before have the known figures a
// comparison needs, otherwise the last four quarters), the duration measure
// (time to mitigate or exposure, computed per case from its times, the one
// more cases give, so that all figures are defined the same way), what it
// would take to see a 20% change (headline.go, analysis.NeededPerPeriod) and
// which charts have enough data (enough.go: a chart that has not is replaced
// by one sentence saying what is missing). Render turns a
// QuarterReport into one HTML page: chart options are built with go-echarts,
// the ECharts library is inlined from the embedded assets, and every text
// from the data goes through html/template, so a narrative containing
// <script> shows as text. The same data gives byte-identical output: chart
// ids are fixed, every list has a stable order, and no clock is read while
// rendering.
//
// BuildCase and RenderCase do the same for one case page: every field, the
// tags with their origin, the related cases named by the source and the
// computed related cases with their reasons.
//
// ECharts itself (assets/echarts.min.js) is fetched by 'make assets' at build
// time and never committed; Render fails with a clear error when it is
// missing.
package reports
