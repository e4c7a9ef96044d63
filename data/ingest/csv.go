package ingest

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"incidents/data/incident"
)

// The "csv" format is a table of incidents, one per row: an export of
// PagerDuty, incident.io or Jira (a built-in preset, picked from the
// headers), a file whose headers already name case fields, or any table
// with a mapping (--map field=Column, a mapping file). See csv_presets.go
// and README "CSV exports".
func init() {
	register(Parser{Name: csvFormat, Detect: detectCSV, Parse: parseCSV})
}

const csvFormat = "csv"

// csvHeader is the header row: names as written, and the columns of each
// normalised name (a name Jira repeats, such as Labels, has several).
type csvHeader struct {
	names []string
	index map[string][]int
}

func newHeader(names []string) *csvHeader {
	h := &csvHeader{names: names, index: map[string][]int{}}
	for i, n := range names {
		k := normHeader(n)
		h.index[k] = append(h.index[k], i)
	}
	return h
}

func (h *csvHeader) has(name string) bool { return len(h.index[normHeader(name)]) > 0 }

// normHeader folds case and runs of white space and trims.
func normHeader(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// sniffDelimiter picks ',', ';' or tab from the header line: the one that
// occurs most often outside quotes (',' on a tie).
func sniffDelimiter(data []byte) rune {
	line := data
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	counts := map[rune]int{}
	quoted := false
	for _, c := range string(line) {
		switch {
		case c == '"':
			quoted = !quoted
		case !quoted && (c == ',' || c == ';' || c == '\t'):
			counts[c]++
		}
	}
	best := ','
	for _, c := range []rune{';', '\t'} {
		if counts[c] > counts[best] {
			best = c
		}
	}
	return best
}

// readHeader reads the first record of data.
func readHeader(data []byte) ([]string, rune, error) {
	delim := sniffDelimiter(data)
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = delim
	r.FieldsPerRecord = -1
	rec, err := r.Read()
	return rec, delim, err
}

// detectCSV claims .csv and .tsv files whose first line is a header of at
// least two columns (90), and other files whose header matches a preset
// or names at least three case fields (60).
func detectCSV(in Input) int {
	data := stripBOM(in.Data[:min(len(in.Data), 64<<10)])
	ext := strings.ToLower(filepath.Ext(in.Name))
	first := data
	if i := bytes.IndexByte(first, '\n'); i >= 0 {
		first = first[:i]
	}
	if len(bytes.TrimSpace(first)) == 0 || bytes.HasPrefix(bytes.TrimSpace(first), []byte("{")) ||
		bytes.HasPrefix(bytes.TrimSpace(first), []byte("[")) || bytes.HasPrefix(first, []byte("---")) {
		return 0
	}
	names, _, err := readHeader(data)
	if err != nil && !errors.Is(err, io.EOF) && ext != ".csv" && ext != ".tsv" {
		return 0
	}
	if len(names) < 2 {
		return 0
	}
	if ext == ".csv" || ext == ".tsv" {
		return 90
	}
	h := newHeader(names)
	if matchPreset(h) != nil || nativeFields(h) >= 3 {
		return 60
	}
	return 0
}

// csvPlan is what one file's import does: the preset, the field of each
// column, and the settings in force.
type csvPlan struct {
	name   string
	names  []string // the header row as written
	preset *csvPreset
	fields map[string][]int // field -> columns, in candidate order
	// oneValue lists, sorted, the fields that hold one value and have
	// more than one column (csvRow.oneValue checks that they agree).
	oneValue []string
	used     map[int]bool
	org      string
	prefix   string
	loc      *time.Location
	zone     string
	layouts  []string
	skip     []csvSkipCol
	// fromText counts the rows whose times came from their description.
	fromText int
	// mapKeys are the mapping's columns the file has (Result.MapKeys).
	mapKeys []string
}

type csvSkipCol struct {
	cols   []int
	values map[string]bool
	why    string
}

// plan decides the mapping of a file's columns: the preset's (or the
// native field names'), then the mapping's, which win.
func planCSV(in Input, h *csvHeader) (*csvPlan, error) {
	m := in.Opts.Mapping
	p := &csvPlan{name: in.Name, names: h.names, fields: map[string][]int{}, used: map[int]bool{}}
	if err := p.choosePreset(in, h); err != nil {
		return nil, err
	}
	if p.preset.Name == nativePreset {
		for i, n := range h.names {
			if f := nativeName(n); m.column(f) == nil {
				if _, ok := csvFields[f]; ok {
					p.fields[f] = append(p.fields[f], i)
					p.used[i] = true
				}
			}
		}
	}
	for f, cols := range p.preset.Columns {
		if m.column(f) == nil {
			p.addField(in, h, f, cols, false) // never fails: not required
		}
	}
	if m != nil {
		// In field order, so that of two columns the file lacks the same
		// one is named every time.
		for _, f := range slices.Sorted(maps.Keys(m.Columns)) {
			if err := p.addField(in, h, f, m.Columns[f], true); err != nil {
				return nil, err
			}
		}
	}
	if len(p.fields["title"]) == 0 {
		return nil, inputError(incident.ErrMissing, in.Name, 1, "no column gives the title (columns: %s)", headerList(h.names, 12)).
			WithField("title").WithHint("map one: --map title=COLUMN")
	}
	p.skipColumns(h)
	for f, cols := range p.fields {
		if k := csvFields[f]; len(cols) > 1 && k != kindList && k != kindLines && k != kindURLs && k != kindAlias && k != kindServices {
			p.oneValue = append(p.oneValue, f)
		}
	}
	sort.Strings(p.oneValue)
	return p, p.settings(in, h)
}

// choosePreset sets p.preset: the one the mapping names, else the one the
// headers match, else the native field names, else a bare mapping (an
// error when there is no mapping either).
func (p *csvPlan) choosePreset(in Input, h *csvHeader) error {
	m := in.Opts.Mapping
	if m != nil && m.Preset != "" {
		p.preset, _ = presetByName(m.Preset)
	} else {
		p.preset = matchPreset(h)
	}
	if p.preset == nil && nativeFields(h) > 0 {
		p.preset, _ = presetByName(nativePreset)
	}
	if p.preset == nil && (m == nil || len(m.Columns) == 0) {
		return inputError(incident.ErrUnknownFormat, in.Name, 1, "no CSV preset matches these headers (%s)", headerList(h.names, 8)).
			WithHint("map the columns: --map title=COLUMN,start=COLUMN,… or --mapping FILE (presets: " + strings.Join(presetNames(), ", ") + ")")
	}
	if p.preset == nil {
		p.preset = &csvPreset{Name: "mapping"}
	}
	return nil
}

// addField maps field onto the file's columns named cols (every column of
// each name). A required field (one the mapping names) whose columns the
// file lacks is an error naming them.
func (p *csvPlan) addField(in Input, h *csvHeader, field string, cols []string, required bool) error {
	var idx []int
	for _, c := range cols {
		if ix := h.index[normHeader(c)]; len(ix) > 0 {
			idx = append(idx, ix...)
			if required {
				p.mapKeys = appendNew(p.mapKeys, normHeader(c))
			}
		} else if required && len(cols) == 1 {
			return inputError(incident.ErrMissing, in.Name, 1, "the mapping names column %q, which the file does not have (columns: %s)", c, headerList(h.names, 12)).
				WithField(field).WithHint("spell the column as the header row does (case and spaces do not matter)")
		}
	}
	if required && len(cols) == 0 {
		return nil // left unread (Unread)
	}
	if required && len(idx) == 0 {
		return inputError(incident.ErrMissing, in.Name, 1, "the mapping names columns %s, which the file does not have (columns: %s)", strings.Join(cols, ", "), headerList(h.names, 12)).
			WithField(field).WithHint("spell the columns as the header row does (case and spaces do not matter)")
	}
	if len(idx) > 0 {
		p.fields[field] = idx
		for _, i := range idx {
			p.used[i] = true
		}
	}
	return nil
}

// skipColumns finds the preset's skip columns (rows whose value there
// marks them as not incidents) in the file.
func (p *csvPlan) skipColumns(h *csvHeader) {
	for _, s := range p.preset.Skip {
		if ix := h.index[normHeader(s.Column)]; len(ix) > 0 {
			vals := map[string]bool{}
			for _, v := range s.Values {
				vals[v] = true
			}
			p.skip = append(p.skip, csvSkipCol{cols: ix, values: vals, why: s.Why})
			for _, i := range ix {
				p.used[i] = true
			}
		}
	}
}

// column is the mapping's columns for field, nil for a nil mapping.
func (m *Mapping) column(field string) []string {
	if m == nil {
		return nil
	}
	return m.Columns[field]
}

// settings resolves the organisation, id prefix, zone and layouts: the
// command line wins over the mapping file, which wins over the preset.
func (p *csvPlan) settings(in Input, h *csvHeader) error {
	m := in.Opts.Mapping
	pick := func(vals ...string) string {
		for _, v := range vals {
			if v != "" {
				return v
			}
		}
		return ""
	}
	var mOrg, mPrefix, mZone, mLayout string
	if m != nil {
		mOrg, mPrefix, mZone, mLayout = m.Org, m.IDPrefix, m.TimeZone, m.DateFormat
	}
	p.org = pick(in.Opts.Org, mOrg)
	p.prefix = pick(in.Opts.IDPrefix, mPrefix, p.preset.IDPrefix)
	p.zone = pick(in.Opts.TimeZone, mZone)
	if p.zone != "" {
		loc, ok := zoneLocation(p.zone)
		if !ok {
			return inputError(incident.ErrInvalid, in.Name, 0, "unknown time zone %q", p.zone).WithField("time_zone").
				WithHint("use an IANA zone such as Europe/Berlin, or UTC")
		}
		p.loc = loc
	}
	p.layouts = append(p.layouts, p.preset.Layouts...)
	if mLayout != "" {
		p.layouts = append([]string{mLayout}, p.layouts...)
	}
	if p.org == "" && len(p.fields["org"]) == 0 {
		return inputError(incident.ErrMissing, in.Name, 1, "the file has no org column and no organisation was given").WithField("org").
			WithHint(p.preset.orgHint())
	}
	return nil
}

func (p *csvPreset) orgHint() string {
	if p.Tool == "" || p.Name == nativePreset {
		return "pass --org NAME, or add an org column"
	}
	article := "a"
	if strings.ContainsRune("aeiouAEIOU", rune(p.Tool[0])) {
		article = "an" // "an incident.io export"
	}
	return fmt.Sprintf("pass --org NAME: %s %s export does not name the organisation", article, p.Tool)
}

func (p *csvPreset) toolName() string {
	if p.Tool != "" {
		return p.Tool
	}
	return "CSV"
}

// headerList shows up to n header names.
func headerList(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(", … (%d in all)", len(names))
}

func parseCSV(in Input) (*Result, error) {
	data := stripBOM(in.Data)
	names, delim, err := readHeader(data)
	if err != nil {
		return nil, csvSyntax(in.Name, err)
	}
	if len(names) < 2 {
		return nil, inputError(incident.ErrSyntax, in.Name, 1, "the header row has %d column", len(names)).
			WithHint("a CSV file opens with a header row naming its columns, separated by commas, semicolons or tabs")
	}
	for i, n := range names {
		if strings.TrimSpace(n) == "" {
			return nil, inputError(incident.ErrSyntax, in.Name, 1, "column %d of the header row has no name", i+1).
				WithHint("name every column, or delete the empty ones")
		}
	}
	h := newHeader(names)
	p, err := planCSV(in, h)
	if err != nil {
		return nil, err
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = delim
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	if _, err := r.Read(); err != nil { // the header, read above
		return nil, csvSyntax(in.Name, err)
	}
	res := &Result{}
	rows := 0
	skipped := map[string][]string{}
	var skipOrder []string
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvSyntax(in.Name, err)
		}
		rows++
		line, _ := r.FieldPos(0)
		if len(rec) != len(names) {
			return nil, inputError(incident.ErrSyntax, in.Name, line, "the row has %d cells, the header %d", len(rec), len(names)).
				WithHint("a cell that holds the separator or a line break must be in double quotes")
		}
		if why, key := p.skipped(rec); why != "" {
			if len(skipped[why]) == 0 {
				skipOrder = append(skipOrder, why)
			}
			skipped[why] = append(skipped[why], key)
			continue
		}
		c, derived, err := p.row(r, rec, line)
		if err != nil {
			return nil, err
		}
		res.Incidents = append(res.Incidents, c)
		res.Lines = append(res.Lines, line)
		res.Derived = append(res.Derived, derived)
	}
	if rows == 0 {
		return nil, inputError(incident.ErrEmpty, in.Name, 0, "the file has a header row and no incidents").
			WithHint("export at least one incident")
	}
	res.Notes = p.notes(h, rows, len(res.Incidents), skipped, skipOrder)
	res.MapKeys = p.mapKeys
	if len(res.Incidents) == 0 {
		return nil, inputError(incident.ErrEmpty, in.Name, 0, "every row was left out (%s)", strings.Join(res.Notes[1:], "; ")).
			WithHint("nothing to import")
	}
	return res, nil
}

// csvSyntax turns an encoding/csv error into a located syntax error.
func csvSyntax(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		what := pe.Err.Error()
		switch {
		case errors.Is(pe.Err, csv.ErrBareQuote):
			what = `a double quote inside a cell that is not quoted`
		case errors.Is(pe.Err, csv.ErrQuote):
			what = `a quoted cell is not closed, or a quote inside it is not doubled`
		}
		e := incident.Errorf(incident.ErrSyntax, "%s", what).AtCol(name, pe.Line, pe.Column).
			WithHint(`put cells that hold commas, quotes or line breaks in double quotes and double the quotes inside ("")`)
		if pe.StartLine != pe.Line && pe.StartLine > 0 {
			e.Msg += fmt.Sprintf(" (the row starts on line %d)", pe.StartLine)
		}
		return e
	}
	return inputError(incident.ErrSyntax, name, 0, "cannot read the CSV: %v", err)
}

// skipped says why a row is left out (and the row's id for the note), or
// "" to keep it.
func (p *csvPlan) skipped(rec []string) (why, key string) {
	for _, s := range p.skip {
		for _, i := range s.cols {
			if s.values[strings.ToLower(strings.TrimSpace(rec[i]))] {
				if ix := p.fields["id"]; len(ix) > 0 {
					key = strings.TrimSpace(rec[ix[0]])
				}
				return s.why, key
			}
		}
	}
	return "", ""
}

// maxUnmappedNamed is how many unmapped columns the import's note names
// (an export of 23 columns leaves 15; a sheet of 20,000 would fill the
// screen with one line).
const maxUnmappedNamed = 40

// notes says which preset read the file, what was left out and which
// columns were not imported.
func (p *csvPlan) notes(h *csvHeader, rows, kept int, skipped map[string][]string, order []string) []string {
	base := filepath.Base(p.name)
	head := fmt.Sprintf("%s: %s preset (%s): %d rows, %d incidents; kept %d of %d columns", base, p.preset.Name, p.preset.toolName(),
		rows, kept, len(p.used), len(h.names))
	var unmapped []string
	for i, n := range h.names {
		if !p.used[i] {
			unmapped = append(unmapped, n)
		}
	}
	if len(unmapped) > 0 {
		head += "; unmapped: " + headerList(unmapped, maxUnmappedNamed)
	}
	notes := []string{head}
	if p.fromText > 0 {
		notes = append(notes, fmt.Sprintf("%s: times of %d %s read from the description (no time column gave them)", base, p.fromText, plural(p.fromText, "row", "rows")))
	}
	for _, why := range order {
		keys := skipped[why]
		notes = append(notes, fmt.Sprintf("%s: left out %d %s: %s", base, len(keys), plural(len(keys), "row", "rows")+" ("+why+")", strings.Join(keys, ", ")))
	}
	if p.preset.Assumed {
		notes = append(notes, fmt.Sprintf("%s: the %s header names are assumed, not confirmed by a public source; check the mapping above", base, p.preset.toolName()))
	}
	if p.preset.RowCap > 0 && rows == p.preset.RowCap {
		notes = append(notes, fmt.Sprintf("%s: exactly %d rows: %s cuts its export there, so the file may be partial; export shorter periods", base, rows, p.preset.toolName()))
	}
	return notes
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
