package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"unicode/utf8"

	"incidents/data/incident"
	"incidents/data/safefile"
)

// FileResult is the outcome for one file: a result, or a located error.
// A file with any bad case is refused whole (Result nil), so a batch never
// stores half of a file. Err is a *Skipped for a path that is not a
// regular file: it is reported and skipped, not read.
type FileResult struct {
	Path   string // as the user sees it (see DisplayName)
	Result *Result
	Err    error
	// Warnings are said about the file even when it is imported.
	Warnings []string
}

// Skipped is the error of a path that names no regular file (a FIFO, a
// device such as /dev/zero, a socket, a directory behind a link): it is
// never opened or read, and an ingest reports it and goes on.
type Skipped struct {
	Path   string
	Reason string // "not a regular file (character device)"
}

func (s *Skipped) Error() string { return s.Path + ": " + s.Reason + "; skipped" }

// IsSkipped reports whether err is a *Skipped.
func IsSkipped(err error) bool {
	var s *Skipped
	return errors.As(err, &s)
}

// linkedDirReason is why a link to a directory met inside a walk is not
// read, with what to do instead.
const linkedDirReason = "a link to a directory, not followed inside a directory walk (name it on the command line to import what it holds)"

// skippedFor turns a *safefile.NotRegularError into a *Skipped; other
// errors come back as nil.
func skippedFor(path string, err error) *Skipped {
	var nr *safefile.NotRegularError
	if errors.As(err, &nr) {
		return &Skipped{Path: DisplayName(path), Reason: "not a regular file (" + nr.Type + ")"}
	}
	return nil
}

// cannotRead is the error of a path that could not be read. A link that
// leads nowhere, to nothing or round a loop of links, is said to be one,
// with what to do: "cannot read: stat x.json: no such file" names a file
// that ls lists.
func cannotRead(path string, err error) *incident.Error {
	e := &incident.Error{Kind: incident.ErrNotFound, File: DisplayName(path), Msg: "cannot read", Err: err}
	if lst, lerr := os.Lstat(path); lerr != nil || lst.Mode()&fs.ModeSymlink == 0 {
		return e
	}
	switch target, _ := os.Readlink(path); {
	case errors.Is(err, syscall.ELOOP):
		e.Msg = "a link in a loop of links"
	case errors.Is(err, fs.ErrNotExist):
		e.Msg = "a link to " + DisplayName(target) + ", which does not exist"
	default:
		return e
	}
	e.Err, e.Hint = nil, "point the link at the file to import, or remove it"
	return e
}

// candidateExts are the file endings Load picks up when walking a
// directory (html.go adds the web-page endings). Files named on the
// command line are always tried.
var candidateExts = map[string]bool{
	".txt": true, ".text": true, ".md": true, ".markdown": true,
	".json": true, ".jsonl": true, ".ndjson": true, ".csv": true, ".tsv": true,
	".docx": true, ".eml": true,
}

// CandidateExts lists the endings a directory walk picks up, sorted (for
// the hint of a walk that found nothing).
func CandidateExts() []string { return slices.Sorted(maps.Keys(candidateExts)) }

// labelsFile is the planted-cluster labels file that `incidents gen --out`
// writes beside the case files (gen.ClustersFile); it holds no cases.
const labelsFile = "clusters.json"

// Candidate reports whether a directory walk picks up the file name: not
// hidden, not a labels file, and ending in a case-file extension.
func Candidate(name string) bool {
	base := filepath.Base(name)
	if strings.HasPrefix(base, ".") || base == labelsFile {
		return false
	}
	return candidateExts[strings.ToLower(filepath.Ext(base))]
}

// Expand turns paths (files and directories) into the sorted list of files
// Load reads: directories are walked in lexical order, skipping hidden
// entries and non-candidates; files named directly are kept as given.
// Paths that cannot be read come back as FileResults with an error, and
// paths that are not regular files (checked without opening them; a link
// to a regular file is fine) with a *Skipped.
func Expand(paths []string) ([]string, []FileResult) {
	var files []string
	var bad []FileResult
	cannot := func(path, what string, err error) {
		bad = append(bad, FileResult{Path: DisplayName(path), Err: &incident.Error{Kind: incident.ErrNotFound, File: DisplayName(path), Msg: what, Err: err}})
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			bad = append(bad, FileResult{Path: DisplayName(p), Err: cannotRead(p, err)})
			continue
		}
		if !st.IsDir() {
			if !st.Mode().IsRegular() {
				bad = append(bad, FileResult{Path: DisplayName(p), Err: &Skipped{Path: DisplayName(p), Reason: "not a regular file (" + safefile.TypeName(st.Mode()) + ")"}})
				continue
			}
			files = append(files, p)
			continue
		}
		root := p
		if lst, err := os.Lstat(p); err == nil && lst.Mode()&fs.ModeSymlink != 0 {
			// A link to a directory named on the command line is walked
			// (WalkDir would not follow it and find nothing); links to
			// directories met inside the walk are reported, not followed.
			root = p + string(filepath.Separator)
		}
		var found []string
		err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				cannot(path, "cannot read", err)
				return nil
			}
			if path != root && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Type()&fs.ModeSymlink != 0 {
				if st, err := os.Stat(path); err == nil && st.IsDir() {
					// Said, whatever its name: the cases it holds are not
					// imported, and a link back up would loop.
					bad = append(bad, FileResult{Path: DisplayName(path), Err: &Skipped{Path: DisplayName(path), Reason: linkedDirReason}})
					return nil
				}
			}
			if d.IsDir() && path != root && savedPageAssets(path) {
				return filepath.SkipDir
			}
			if d.IsDir() || !Candidate(path) {
				return nil
			}
			if !d.Type().IsRegular() {
				// A link is followed; anything else is not read.
				if _, err := safefile.Check(path); err != nil {
					if s := skippedFor(path, err); s != nil {
						bad = append(bad, FileResult{Path: s.Path, Err: s})
						return nil
					}
					// A dangling link: LoadFile reports it.
				}
			}
			found = append(found, path)
			return nil
		})
		if err != nil {
			cannot(p, "cannot walk", err)
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, bad
}

// Load reads and parses every file under paths with the given format ("" =
// detect per file), validates each case, and returns one FileResult per
// file in order (unreadable and skipped paths first). progress, when not
// nil, is called after each file. Cancelling ctx stops before the next
// file; the files not read are left out.
func Load(ctx context.Context, paths []string, format string, progress func(done, total int)) []FileResult {
	return LoadWith(ctx, paths, Options{Format: format}, progress)
}

// LoadFile reads, checks, parses and validates one file. Only a regular
// file is read (anything else gives a *Skipped), and never more than
// MaxFileSize bytes, counted as they are read.
func LoadFile(path, format string) FileResult { return LoadFileWith(path, Options{Format: format}) }

// LoadFileWith is LoadFile with the batch's options.
func LoadFileWith(path string, opts Options) FileResult {
	name := DisplayName(path)
	fr := FileResult{Path: name}
	if name != path {
		fr.Warnings = append(fr.Warnings, name+`: the file name is not valid UTF-8; it is shown and recorded (source_file) as here, each byte that is not UTF-8 written \xNN and each backslash doubled`)
	}
	data, err := safefile.Read(path, MaxFileSize)
	var tl *safefile.TooLargeError
	switch {
	case err == nil:
	case skippedFor(path, err) != nil:
		fr.Err = skippedFor(path, err)
		return fr
	case errors.As(err, &tl) && tl.Size >= 0:
		fr.Err = inputError(incident.ErrTooLarge, name, 0, "file is %d bytes, over the %d-byte limit", tl.Size, MaxFileSize).WithHint("split the file")
		return fr
	case errors.As(err, &tl):
		fr.Err = inputError(incident.ErrTooLarge, name, 0, "file is over the %d-byte limit (it holds more than its size said)", MaxFileSize).WithHint("split the file")
		return fr
	default:
		fr.Err = cannotRead(path, err)
		return fr
	}
	fr.Result, fr.Err = ParseChecked(Input{Name: name, Data: data, Opts: opts}, opts.Format)
	return fr
}

// DisplayName is how a file name is shown and stored (source_file): as it
// is when it is valid UTF-8; otherwise each byte that is not UTF-8 is
// written \xNN and each backslash doubled, so the name stays text and
// the original bytes can be recovered.
func DisplayName(name string) string {
	if utf8.ValidString(name) {
		return name
	}
	var b strings.Builder
	for i := 0; i < len(name); {
		r, size := utf8.DecodeRuneInString(name[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, name[i])
		case r == '\\':
			b.WriteString(`\\`)
		default:
			b.WriteString(name[i : i+size])
		}
		i += size
	}
	return b.String()
}

// ParseChecked runs the byte-level checks (size, empty, binary, UTF-8),
// parses in, and validates every case, locating errors at the case's line.
func ParseChecked(in Input, format string) (*Result, error) {
	format, err := checkBytes(in, format)
	if err != nil {
		return nil, err
	}
	res, err := Parse(in, format)
	if err != nil {
		return nil, err
	}
	for i, c := range res.Incidents {
		if c.SourceFile == "" {
			c.SourceFile = in.Name
		}
		if err := incident.Validate(c); err != nil {
			var ie *incident.Error
			if errors.As(err, &ie) {
				line := 0
				if i < len(res.Lines) {
					line = res.Lines[i]
				}
				if ie.Kind == incident.ErrMissing && ie.Field == "org" {
					ie = ie.WithHint(orgHint(c.Format))
				}
				return nil, ie.At(in.Name, line)
			}
			return nil, &incident.Error{Kind: incident.ErrInvalid, File: in.Name, Msg: "invalid case", Err: err}
		}
	}
	return res, nil
}

// CheckBytes refuses input that is too large, empty, binary (NUL bytes)
// or not UTF-8, naming the line of the first bad byte. A Word document
// (wordDocument) passes: its text is checked as it is extracted; so does
// a web page that is not UTF-8: the html parser decodes it from the
// charset it declares, or says why it cannot (pageUTF8).
func CheckBytes(in Input) error {
	_, err := checkBytes(in, "")
	return err
}

// checkBytes is CheckBytes for input to be read as format ("" when it is
// to be detected). It returns the format to read it as: "html" for a page
// that is not UTF-8, detected here once (Parse need not detect it again),
// else format.
func checkBytes(in Input, format string) (string, error) {
	if len(in.Data) > MaxFileSize {
		return "", inputError(incident.ErrTooLarge, in.Name, 0, "file is %d bytes, over the %d-byte limit", len(in.Data), MaxFileSize).WithHint("split the file")
	}
	if len(bytes.TrimSpace(stripBOM(in.Data))) == 0 {
		return "", inputError(incident.ErrEmpty, in.Name, 0, "file is empty").WithHint("nothing to import; remove the file or add a case")
	}
	if wordDocument(in) {
		// A Word document is a zip archive: the docx parser checks the
		// text it extracts instead.
		return format, nil
	}
	if i := bytes.IndexByte(in.Data, 0); i >= 0 {
		return "", inputError(incident.ErrBinary, in.Name, lineOf(in.Data, int64(i)), "file contains NUL bytes (not text)").
			WithHint("import text files: case pages, postmortems, Markdown or JSON; a UTF-16 file must be saved as UTF-8")
	}
	if !utf8.Valid(in.Data) {
		if format == "" {
			if p, err := Detect(in); err == nil && p.Name == htmlFormat {
				format = htmlFormat
			}
		}
		if format != htmlFormat {
			i := firstInvalidUTF8(in.Data)
			return "", inputError(incident.ErrEncoding, in.Name, lineOf(in.Data, int64(i)), "invalid UTF-8 at byte %d", i).
				WithHint("save the file as UTF-8 (e.g. iconv -f latin1 -t utf-8)")
		}
	}
	return format, nil
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(b)
}

// CheckBatch reports case ids that occur more than once across a batch
// (within one file or in two files), naming both places. It returns nil,
// one *incident.Error, or several joined with errors.Join (errors.Is with
// incident.ErrDuplicate works on either).
func CheckBatch(results []FileResult) error {
	type place struct {
		file string
		line int
		id   string
	}
	seen := map[string]place{} // by incident.IDKey
	var errs []error
	for _, fr := range results {
		if fr.Err != nil || fr.Result == nil {
			continue
		}
		for i, c := range fr.Result.Incidents {
			line := 0
			if i < len(fr.Result.Lines) {
				line = fr.Result.Lines[i]
			}
			here := place{fr.Path, line, c.ID}
			if first, dup := seen[incident.IDKey(c.ID)]; dup {
				where := first.file
				if first.line > 0 {
					where = fmt.Sprintf("%s:%d", first.file, first.line)
				}
				if first.id == c.ID {
					errs = append(errs, inputError(incident.ErrDuplicate, here.file, here.line, "case id %s is also used by %s", c.ID, where).
						WithField("id").WithHint("give one of the cases another id, or import only one of the files"))
				} else {
					errs = append(errs, inputError(incident.ErrDuplicate, here.file, here.line, "case id %s differs only in case from %s in %s, and ids are matched without regard to case", c.ID, first.id, where).
						WithField("id").WithHint("spell both ids alike if they are one case, or give one of them another id"))
				}
				continue
			}
			seen[incident.IDKey(c.ID)] = here
		}
	}
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	return errors.Join(errs...)
}

// orgHint says where a file of format names its organisation, for a case
// that names none.
func orgHint(format string) string {
	switch format {
	case "markdown":
		return "add company: NAME to the front matter, or pass --org NAME"
	case "json":
		return `add "org": "NAME" to the case, or pass --org NAME`
	}
	return "pass --org NAME: the organisation the incident happened to"
}
