package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"incidents/data/incident"
)

// Options are what the user says about a batch that the files themselves
// do not: the format to force, the organisation of cases whose source
// names none, a prefix for their ids, the zone of times written without
// one, and how CSV columns map onto case fields.
type Options struct {
	// Format forces one importer; "" detects per file.
	Format string
	// Org names the organisation of every case whose file does not: a CSV
	// export without an org column, raw text (whose organisation is
	// otherwise guessed from the names it mentions), a Markdown or JSON
	// case without one. A file that names its organisation keeps it.
	Org string
	// IDPrefix goes in front of every imported case id that does not
	// already start with it ("acme-" gives acme-pd-4181, acme-gcp-…).
	IDPrefix string
	// TimeZone is the zone of times written without an offset (Jira
	// exports, "2024-03-01 10:00" cells); "" means such times are refused.
	TimeZone string
	// Mapping maps CSV columns and front-matter keys onto case fields
	// (--map, --mapping); nil uses the preset the headers match.
	Mapping *Mapping
}

// Validate checks the options before any file is read: the time zone
// must resolve and the id prefix must be usable in an id.
func (o Options) Validate() error {
	if o.TimeZone != "" {
		if _, ok := zoneLocation(o.TimeZone); !ok {
			return incident.Errorf(incident.ErrInvalid, "unknown time zone %q", o.TimeZone).WithField("--tz").
				WithHint("use an IANA zone such as Europe/Berlin or America/New_York, or UTC")
		}
	}
	if o.IDPrefix != "" && !idPrefixOK(o.IDPrefix) {
		return incident.Errorf(incident.ErrInvalid, "id prefix %q is not usable in an id", o.IDPrefix).WithField("--id-prefix").
			WithHint("ids use letters, digits, '.', '_', ':' and '-' and start with a letter or digit")
	}
	return nil
}

func idPrefixOK(p string) bool {
	return len(p) < incident.MaxIDLen/2 && idPrefixPattern.MatchString(p)
}

// LoadWith is Load with options (format, organisation, id prefix, zone,
// CSV mapping) that apply to every file.
func LoadWith(ctx context.Context, paths []string, opts Options, progress func(done, total int)) []FileResult {
	files, out := Expand(paths)
	for i, f := range files {
		if ctx.Err() != nil {
			break
		}
		out = append(out, LoadFileWith(f, opts))
		if progress != nil {
			progress(i+1, len(files))
		}
	}
	warnUnmappedKeys(out, opts.Mapping)
	skipRepeatedFiles(out)
	return out
}

// skipRepeatedFiles turns a file whose cases are exactly those of an
// earlier file of the batch (a copy of it: the same ids and content, the
// file name aside) into a *Skipped naming that file, so that the copy is
// imported once instead of failing the batch with an id clash
// (CheckBatch). Only files whose first case id clashes are compared.
func skipRepeatedFiles(out []FileResult) {
	first := map[string]int{} // IDKey of a file's first case -> index in out
	for i := range out {
		fr := &out[i]
		if fr.Err != nil || fr.Result == nil || len(fr.Result.Incidents) == 0 {
			continue
		}
		k := incident.IDKey(fr.Result.Incidents[0].ID)
		j, seen := first[k]
		if !seen {
			first[k] = i
			continue
		}
		if sameCases(out[j].Result.Incidents, fr.Result.Incidents) {
			fr.Err = &Skipped{Path: fr.Path, Reason: "the same cases as " + out[j].Path + ", which is imported (once)"}
			fr.Result = nil
		}
	}
}

// sameCases reports two files' cases equal but for the file they came from.
func sameCases(a, b []*incident.Incident) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := *a[i], *b[i]
		x.SourceFile, y.SourceFile = "", ""
		bx, err1 := json.Marshal(&x)
		by, err2 := json.Marshal(&y)
		if err1 != nil || err2 != nil || !bytes.Equal(bx, by) {
			return false
		}
	}
	return true
}

// applyOptions gives the cases of one file the organisation and id prefix
// the options name, where the importer left them to the caller.
func applyOptions(res *Result, opts Options) {
	for _, c := range res.Incidents {
		if c.Org == "" && opts.Org != "" {
			c.Org = opts.Org
		}
		if opts.IDPrefix != "" && c.ID != "" && !strings.HasPrefix(c.ID, opts.IDPrefix) {
			c.ID = opts.IDPrefix + c.ID
			if len(c.ID) > incident.MaxIDLen {
				c.ID = c.ID[:incident.MaxIDLen]
			}
		}
	}
}

var idPrefixPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]*$`)

// slugOf is the id-safe lower-case form of a name: "Acme Cloud" gives
// "acme-cloud"; a name with no letter or digit gives "case".
func slugOf(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		switch {
		case r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		default:
			dash = true
		}
		if b.Len() >= 40 {
			break
		}
	}
	if b.Len() == 0 {
		return "case"
	}
	return b.String()
}

// OptionsFlags are the ingest command line's words for Options.
type OptionsFlags struct {
	Format, Org, IDPrefix, TimeZone string
	Maps                            []string // --map values, applied in order
	MappingFile                     string   // --mapping
}

// NewOptions checks the command line's options and reads the mapping
// file. A bad flag value is an *incident.Error of kind ErrInvalid naming
// the flag (a usage error); a bad mapping file is located in that file.
func NewOptions(f OptionsFlags) (Options, error) {
	o := Options{Format: f.Format, Org: strings.TrimSpace(f.Org), IDPrefix: strings.TrimSpace(f.IDPrefix), TimeZone: strings.TrimSpace(f.TimeZone)}
	var ms []*Mapping
	if f.MappingFile != "" {
		m, err := ReadMapping(f.MappingFile)
		if err != nil {
			return Options{}, err
		}
		ms = append(ms, m)
	}
	for _, spec := range f.Maps {
		m, err := ParseMapSpec(spec)
		if err != nil {
			return Options{}, err
		}
		ms = append(ms, m)
	}
	o.Mapping = MergeMappings(ms...)
	if o.Mapping != nil && o.Format != "" && !mappedFormat(o.Format) {
		return Options{}, incident.Errorf(incident.ErrInvalid, "--map and --mapping are for CSV files and Markdown front matter, not --format %s", o.Format).
			WithField("--map").WithHint("leave out --format, or give --format csv or --format markdown")
	}
	return o, o.Validate()
}

// mappedFormat reports whether a mapping applies to format: CSV columns
// and Markdown front-matter keys.
func mappedFormat(format string) bool { return format == csvFormat || format == "markdown" }

// formatForMapping is the format of a file read with a mapping and no
// --format: Markdown when it opens with front matter, else CSV (a table
// with any name).
func formatForMapping(in Input) string {
	if _, _, _, ok := splitFrontMatter(stripBOM(in.Data)); ok {
		return "markdown"
	}
	return csvFormat
}

// warnUnmappedKeys warns, on the first file of the batch read with the
// mapping, of every key the mapping names that no file of the batch
// holds (a CSV file that lacks a mapped column is refused on its own).
func warnUnmappedKeys(out []FileResult, m *Mapping) {
	if m == nil {
		return
	}
	held := map[string]bool{}
	first := -1
	for i, fr := range out {
		if fr.Result == nil {
			continue
		}
		if first < 0 {
			first = i
		}
		for _, k := range fr.Result.MapKeys {
			held[k] = true
		}
	}
	if first < 0 {
		return
	}
	for _, f := range slices.Sorted(maps.Keys(m.Columns)) {
		var missing []string
		for _, k := range m.Columns[f] {
			if !held[normHeader(k)] {
				missing = append(missing, k)
			}
		}
		if len(missing) == len(m.Columns[f]) {
			out[first].Warnings = append(out[first].Warnings, fmt.Sprintf("%s %s=%s: no file of the batch has the key %s, so %s was read from none (hint: spell the key as the files do; case and spaces do not matter)",
				m.Source, f, strings.Join(m.Columns[f], "|"), strings.Join(quoteAll(missing), " or "), f))
		}
	}
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// location is the zone --tz names (nil when none is given or it does not
// resolve, which Validate refuses before any file is read) and its name.
func (o Options) location() (*time.Location, string) {
	if o.TimeZone == "" {
		return nil, ""
	}
	loc, ok := zoneLocation(o.TimeZone)
	if !ok {
		return nil, ""
	}
	return loc, o.TimeZone
}
