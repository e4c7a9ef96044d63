// Package ingest turns files into cases. Each input format has one parser
// behind one signature (Parser); Detect picks the format from the file name
// and its first bytes unless the caller forces one. Load walks files and
// directories and returns a result or a located error per file.
//
// Formats (Formats lists them; each file registers itself from init):
//
//   - casepage: the plain text of an incident-library case page
//     ("IL-0395 Google Cloud · 2017-04-05gcpnetworking", title, summary,
//     "- Severity" field pairs, sections, related cases).
//   - json: the project's case JSON, one object, an array or JSON lines;
//     strict (unknown fields, wrong types and a field named twice are
//     errors with line and field).
//   - markdown: Markdown with YAML front matter (uuid, url, title,
//     start_time, end_time, categories, keywords, company, product, ...).
//   - rawtext: a provider postmortem as plain text; times, durations,
//     region and organisation are extracted where stated.
//   - list: a Markdown list of postmortems, "[Org](url). text" paragraphs
//     under "## Section" headings.
//   - csv: a table of incidents, one per row: a PagerDuty, incident.io or
//     Jira export (a preset chosen from the headers, csv_presets.go), a
//     table whose headers name case fields, or any table with a Mapping.
//   - docx: a postmortem saved as a Word document (Word, Google Docs,
//     LibreOffice); its text, headings and table rows are read as a plain
//     note is. The byte-level text checks apply to the extracted text.
//   - html: a web page saved from the browser or exported (blog post,
//     status page, Confluence, Google Docs): the text a reader sees, read
//     as rawtext, with title, organisation, URL and date from the page.
//   - statuspage: a hosted status page's incidents feed (the Statuspage
//     API's incidents.json, or one {"incident": …}): one case per incident,
//     its updates in time order as the narrative (statuspage.go).
//   - gcpstatus: Google Cloud's incident history (status.cloud.google.com
//     incidents.json), read the same way (gcpstatus.go).
//
// In both feed formats the detected time is the first public post (when
// the page told its users, not when the operators noticed); every time,
// an update's too, is RFC 3339 (offsets and fractional seconds allowed)
// or the feed is refused at its place ("incidents[3].resolved_at",
// "[1].updates[1].when"); updates are ordered, and of an incident listed
// twice the copy updated last is kept, by instant, not by text; an
// incident without a resolution is imported unresolved, and its note says
// so.
//
// Plain notes (.md or .txt without front matter) are read as rawtext.
// The times that prose states (raw text, Markdown bodies, a CSV row's
// description) are read by one timeline reader (rawtext_time.go,
// rawtext_span.go, rawtext_timeline.go), in English, French, German and
// Spanish (dates_lang.go); a date written without its year takes a year
// stated elsewhere only where no guess is needed, an email's send date or
// the text's own full dates (dates_year.go).
// Options (LoadWith) carry what files do not say: --org, --id-prefix,
// --tz and the CSV mapping.
//
// Errors are *incident.Error values naming the file, and the line and field
// where known. A file with one bad case is refused whole. Only regular
// files are read (data/safefile), at most MaxFileSize bytes: a FIFO, a
// device or a socket is a *Skipped, reported and left out. Front matter is
// decoded by data/safeyaml, the project's one guarded YAML decoder.
//
// Result.Notes says, per case, what was extracted or assumed. Each note
// starts with the case id and a colon:
//
//	IL-0395: ttd given, ttr given, 3 tags, 12 references
//	gcp-2022-06-14-651394: extracted start, detected, resolved, ttr (given); region us-central1; org Google Cloud
//	gcp-2022-06-14-651394: ttd derived from its timestamps
//	gcp-2022-06-14-651394: dates without a year read in the year the text states: "13 June" as 2022
//	gcp-2022-06-14-651394: ttr 2h stated, start to resolved 1h; the stated one is kept: check it at the source
//	00b7f759-…: extracted start, resolved
//	00b7f759-…: ttr derived from its timestamps
//
// except the list and CSV formats, which write notes for the whole file
// ("README.md: 190 incidents, 69 dated from text or URL", "export.csv:
// derived from the timestamps: ttd of 3 rows, ttr of 5 rows"). No
// importer derives a TTD or TTR: Parse does, for every format, after the
// importer (Incident.DeriveMissing), and writes the note.
package ingest
