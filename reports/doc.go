// Package reports builds the quarterly reliability report and the one-case
// page as self-contained HTML files that open offline and can be mailed.
//
// A report is made in two steps. Build gathers the figures from the store
// into a plain QuarterReport (the report data: counts, summaries and
// comparisons from the analysis package, chart series, related-case
// clusters); its JSON form is what the golden tests compare. Render turns a
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
