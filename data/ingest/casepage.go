package ingest

import (
	"fmt"
	"regexp"
	"strings"

	"incidents/data/incident"
	"incidents/taxonomy"
)

// The "casepage" format is the plain text of an incident-library case page:
//
//	IL-0395 Google Cloud · 2017-04-05gcpnetworking
//	<title>
//	<summary paragraphs>
//	- Severity / - <value> pairs (Scope, Users affected, Region, Time to detect, Time to resolve)
//	Symptoms, Root cause (- Trigger pair), Detection, Remediation, Action items,
//	Lessons, Sources (- URL · kind · note), Related cases
//
// followed by a "Check your cluster for this" block that is ignored.
func init() {
	register(Parser{Name: "casepage", Detect: detectCasePage, Parse: parseCasePage})
}

var casePageHeader = regexp.MustCompile(`^(IL-\d+)\s+(.+?)\s+·\s+(\d{4}(?:-\d{2}(?:-\d{2})?)?)(.*)$`)

func detectCasePage(in Input) int {
	head := string(stripBOM(in.Data[:min(len(in.Data), 512)]))
	first, _, _ := strings.Cut(head, "\n")
	if !casePageHeader.MatchString(strings.TrimSpace(first)) {
		return 0
	}
	if strings.Contains(string(in.Data[:min(len(in.Data), 64<<10)]), "\n- Severity") {
		return 95
	}
	return 70
}

// casePageSections are the headings of a case page in page order; a line
// equal to one of them starts that section.
var casePageSections = map[string]bool{
	"Symptoms": true, "Root cause": true, "Detection": true, "Remediation": true,
	"Action items": true, "Lessons": true, "Sources": true, "Related cases": true,
}

// casePageEnd starts the trailing block that is not part of the case.
var casePageEnd = map[string]bool{"Check your cluster for this": true, "For AI tools and scripts": true}

// casePageFields are the "- Name" / "- value" pairs after the summary.
var casePageFields = map[string]bool{
	"Severity": true, "Scope": true, "Users affected": true, "Region": true,
	"Time to detect": true, "Time to resolve": true,
}

type pageLine struct {
	text string
	no   int
}

func parseCasePage(in Input) (*Result, error) {
	lines := splitLines(string(stripBOM(in.Data)))
	var ls []pageLine
	for i, l := range lines {
		if t := strings.TrimSpace(l); t != "" {
			ls = append(ls, pageLine{t, i + 1})
		}
	}
	if len(ls) == 0 {
		return nil, inputError(incident.ErrEmpty, in.Name, 0, "case page is empty")
	}
	m := casePageHeader.FindStringSubmatch(ls[0].text)
	if m == nil {
		return nil, inputError(incident.ErrSyntax, in.Name, ls[0].no, "first line is not a case page header").
			WithHint(`expected "IL-0395 Org · 2017-04-05categories"`)
	}
	c := &incident.Incident{ID: m[1], Org: strings.TrimSpace(m[2]), Date: m[3], Format: "casepage", SourceFile: in.Name}
	c.Categories = splitCategories(strings.TrimSpace(m[4]))
	if len(ls) < 2 {
		return nil, inputError(incident.ErrMissing, in.Name, ls[0].no, "case page has no title line").WithField("title").
			WithHint("the line after the IL-… header is the case title")
	}
	c.Title = ls[1].text
	p := &pageParser{in: in, c: c, v: taxonomy.Default()}
	if err := p.body(ls[2:]); err != nil {
		return nil, err
	}
	if strings.TrimSpace(c.Narrative) == "" {
		c.Narrative = ""
	}
	startEnd(c)
	notes := []string{fmt.Sprintf("%s: ttd %s, ttr %s, %d tags, %d references", c.ID, durNote(c.TTD), durNote(c.TTR), len(c.Tags), len(c.References))}
	return &Result{Incidents: []*incident.Incident{c}, Notes: notes, Lines: []int{ls[0].no}}, nil
}

func durNote(d *incident.Duration) string {
	if d == nil {
		return "unknown"
	}
	return d.Source
}

type pageParser struct {
	in Input
	c  *incident.Incident
	v  *taxonomy.Vocab
}

func (p *pageParser) body(ls []pageLine) error {
	c := p.c
	var summary []string
	i := 0
	for ; i < len(ls) && !isFieldStart(ls, i) && !casePageSections[ls[i].text]; i++ {
		summary = append(summary, ls[i].text)
	}
	c.Summary = strings.Join(summary, "\n\n")
	for i < len(ls) && isFieldStart(ls, i) {
		name := strings.TrimPrefix(ls[i].text, "- ")
		if i+1 >= len(ls) || !strings.HasPrefix(ls[i+1].text, "- ") {
			return inputError(incident.ErrSyntax, p.in.Name, ls[i].no, "field %q has no value line", name).WithField(name).
				WithHint(`each field is two lines: "- Name" then "- value" ("- –" when unknown)`)
		}
		if err := p.field(name, strings.TrimSpace(strings.TrimPrefix(ls[i+1].text, "- ")), ls[i+1].no); err != nil {
			return err
		}
		i += 2
	}
	section := ""
	var text []string
	flush := func() {
		p.setText(section, text)
		text = nil
	}
	for ; i < len(ls); i++ {
		t := ls[i].text
		if casePageEnd[t] {
			break
		}
		if casePageSections[t] {
			flush()
			section = t
			continue
		}
		if f, rest, ok := p.tagLine(t); ok {
			c.Tags = incident.MergeTags(c.Tags, splitLabels(p.v, f, rest)...)
			continue
		}
		switch section {
		case "Root cause":
			if t == "- Trigger" && i+1 < len(ls) {
				c.Trigger = strings.TrimSpace(strings.TrimPrefix(ls[i+1].text, "- "))
				i++
				continue
			}
		case "Sources":
			c.Sources = append(c.Sources, parseSourceLine(t))
			continue
		case "Related cases":
			if r, ok := parseReference(t); ok {
				c.References = append(c.References, r)
				continue
			}
		}
		text = append(text, t)
	}
	flush()
	return nil
}

func isFieldStart(ls []pageLine, i int) bool {
	return strings.HasPrefix(ls[i].text, "- ") && casePageFields[strings.TrimPrefix(ls[i].text, "- ")]
}

func (p *pageParser) field(name, val string, line int) error {
	c := p.c
	if isDash(val) {
		val = ""
	}
	switch name {
	case "Severity":
		c.Severity = val
	case "Scope":
		c.Scope = val
	case "Users affected":
		c.UsersAffected = val
	case "Region":
		c.Region = val
	case "Time to detect", "Time to resolve":
		d, err := incident.ParseDuration(val)
		if err != nil {
			kind := incident.ErrSyntax
			if strings.Contains(err.Error(), "out of range") {
				kind = incident.ErrRange
			}
			field := "ttd"
			if name == "Time to resolve" {
				field = "ttr"
			}
			return &incident.Error{Kind: kind, File: p.in.Name, Line: line, Field: field, Msg: "bad duration", Err: err, Hint: durationHint}
		}
		if name == "Time to detect" {
			c.TTD = d
		} else {
			c.TTR = d
		}
	}
	return nil
}

// durationHint is the hint for durations that cannot be read.
const durationHint = "write durations like 9m, 3h 59m or 10 hrs, 47 minutes, at most 365 days; – when unknown"

func isDash(s string) bool { return s == "–" || s == "—" || s == "-" || s == "" }

// tagLine recognises "Symptom High error rateProbe failures" and the like:
// a facet label, a space, and a run-on list of that facet's term labels.
// For Symptom and Root cause a short line without sentence breaks is a tag
// line even when no label matches (the text is kept as a raw tag); other
// lines must start with a known label (prose may start with these words).
func (p *pageParser) tagLine(t string) (incident.Facet, string, bool) {
	for _, fd := range p.v.Facets {
		rest, ok := strings.CutPrefix(t, fd.Label+" ")
		if !ok || strings.TrimSpace(rest) == "" {
			continue
		}
		if (fd.ID == incident.Symptom || fd.ID == incident.RootCause) && len(rest) < 100 && !strings.Contains(rest, ". ") {
			return fd.ID, rest, true
		}
		for _, l := range p.v.Labels(fd.ID) {
			if strings.HasPrefix(rest, l) {
				return fd.ID, rest, true
			}
		}
	}
	return "", "", false
}

func (p *pageParser) setText(section string, text []string) {
	c := p.c
	var items []string
	var prose []string
	for _, t := range text {
		if b, ok := strings.CutPrefix(t, "- "); ok {
			items = append(items, strings.TrimSpace(b))
		} else if !isDash(t) {
			prose = append(prose, t)
		}
	}
	joined := strings.Join(prose, "\n\n")
	switch section {
	case "":
		c.Narrative = joined
	case "Symptoms":
		c.Symptoms = joined
	case "Root cause":
		c.RootCause = joined
	case "Detection":
		c.Detection = joined
	case "Remediation":
		c.Remediation = append(items, prose...)
	case "Action items":
		c.ActionItems = append(items, prose...)
	case "Lessons":
		c.Lessons = append(items, prose...)
	}
}

// parseSourceLine reads "- URL · kind · note".
func parseSourceLine(t string) incident.Source {
	parts := strings.Split(strings.TrimPrefix(t, "- "), " · ")
	s := incident.Source{URL: strings.TrimSpace(parts[0])}
	if len(parts) > 1 {
		s.Kind = strings.TrimSpace(parts[1])
	}
	if len(parts) > 2 {
		s.Note = strings.TrimSpace(strings.Join(parts[2:], " · "))
	}
	return s
}

// categoryWords are the category names run together in a case page header
// ("gcpnetworking"), longest first so "networking" wins over "network".
var categoryWords = []string{
	"observability", "kubernetes", "networking", "monitoring", "automation", "messaging",
	"security", "database", "hardware", "storage", "network", "compute", "payments", "config",
	"github", "heroku", "mobile", "search", "azure", "cache", "cloud", "power", "email", "queue",
	"ci-cd", "auth", "time", "data", "saas", "aws", "gcp", "dns", "cdn", "api", "iam", "k8s", "ci",
}

// splitCategories splits a run-on category list with categoryWords; text
// that starts with no known word is kept whole as the last category.
func splitCategories(s string) []string {
	var out []string
	rest := strings.ToLower(s)
	for rest != "" {
		rest = strings.TrimLeft(rest, " ,;")
		matched := ""
		for _, w := range categoryWords {
			if strings.HasPrefix(rest, w) {
				matched = w
				break
			}
		}
		if matched == "" {
			if rest != "" {
				out = append(out, rest)
			}
			break
		}
		out = append(out, matched)
		rest = rest[len(matched):]
	}
	return out
}
