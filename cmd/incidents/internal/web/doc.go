// Package web serves the incident library over HTTP: server-rendered pages
// (search with facet filters, case pages with related cases both ways, the
// vocabulary, the quarterly report, a read-only SQL page) and a JSON API
// under /api/, all answered from one engine.Engine snapshot per request.
//
// Pages use html/template with embedded templates and CSS (no remote assets,
// no scripts), so they work without internet and every text is escaped.
// The content of case pages, the hot path, is written by caseBody, which
// escapes each value as html/template would in its context and is tested
// to match the reference template byte for byte. Rendered case pages are
// kept in a least-recently-used cache of one snapshot, bounded in bytes
// (Options.PageCacheBytes); every page and JSON answer is written from a
// pooled buffer with its Content-Length.
// Narratives are Markdown rendered with goldmark: raw HTML is shown as text,
// links are kept only for http and https URLs, and images become their alt
// text.
//
// Requests are checked before routing (guard.go): Host must name the
// address the connection arrived on or an allowed host, and requests that
// change state or run SQL must not come from another origin.
//
// Every error of the JSON API is {"error": message, "hint": ...} with a
// fitting status: 404 for unknown ids and routes, 400 for bad parameters,
// 403 for foreign hosts and origins, 413 for oversized bodies, 415 for SQL
// not sent as JSON, 429 when every SQL worker is busy, 503 while the
// database is held by a writer.
package web
