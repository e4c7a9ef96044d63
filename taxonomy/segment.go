package taxonomy

import (
	"regexp"
	"strings"
	"unicode"

	"incidents/data/incident"
)

// Role says which part of a postmortem a sentence comes from: a field of a
// structured case, or the section of a narrative its heading names.
type Role uint8

// Roles.
const (
	RoleBody        Role = iota // narrative outside any recognised section
	RoleTitle                   // the case title
	RoleSummary                 // a summary field or section ("Summary", "What happened")
	RoleCause                   // the root-cause field or a "Root cause" section
	RoleTrigger                 // the trigger field or a "Trigger" section
	RoleImpact                  // symptoms, "Impact", "Customer impact"
	RoleDetection               // the detection field or a "Detection" section
	RoleRemediation             // remediation steps, "Resolution", "Mitigation"
	RoleFollowUp                // action items, lessons, prevention: what will be done
	RoleTimeline                // "Timeline", "Chronology"
	RoleBackground              // "Background", "Architecture", "Context"
)

var roleNames = [...]string{"body", "title", "summary", "cause", "trigger", "impact", "detection", "remediation", "follow-up", "timeline", "background"}

func (r Role) String() string {
	if int(r) < len(roleNames) {
		return roleNames[r]
	}
	return "body"
}

// Sentence is one sentence of a case with the field and role it comes from.
type Sentence struct {
	Text  string
	Field string // title, summary, narrative, symptoms, root_cause, trigger, detection, remediation
	Role  Role
}

// fieldRoles gives the role of each structured field.
var fieldRoles = []struct {
	field string
	role  Role
}{
	{"title", RoleTitle}, {"summary", RoleSummary}, {"root_cause", RoleCause}, {"trigger", RoleTrigger},
	{"symptoms", RoleImpact}, {"detection", RoleDetection}, {"remediation", RoleRemediation}, {"narrative", RoleBody},
}

// Segment splits a case into sentences, field by field in a fixed order;
// the narrative is split into sections at its headings (see Sections) so
// that a sentence under "Root cause:" has the cause role.
func Segment(in *incident.Incident) []Sentence {
	fields := caseFields(in)
	var out []Sentence
	for _, fr := range fieldRoles {
		text := fields[fr.field]
		if text == "" {
			continue
		}
		if fr.field != "narrative" {
			for _, s := range Sentences(text) {
				out = append(out, Sentence{Text: s, Field: fr.field, Role: fr.role})
			}
			continue
		}
		head := true // the narrative's first sentence
		for _, sec := range Sections(text) {
			for _, s := range Sentences(sec.Text) {
				if head && titleAgain(s, in.Title) {
					head = false
					continue // the title at the head of the narrative is read once, as the title
				}
				head = false
				out = append(out, Sentence{Text: s, Field: fr.field, Role: sec.Role})
			}
		}
	}
	return out
}

// titleAgain reports whether a sentence of the narrative is the case's
// title repeated (a document's first heading, which became the title).
// Only the narrative's first sentence is read so: a title told again
// further down is the text's own ("Checkout errors, rolled back release
// 4.2" under the impact).
func titleAgain(s, title string) bool {
	t := strings.TrimSpace(title)
	return t != "" && strings.EqualFold(strings.Trim(s, "=*_ \t"), t)
}

// caseFields returns the texts of a case by field name.
func caseFields(in *incident.Incident) map[string]string {
	return map[string]string{
		"title":       in.Title,
		"summary":     in.Summary,
		"narrative":   in.Narrative,
		"symptoms":    in.Symptoms,
		"root_cause":  in.RootCause,
		"trigger":     in.Trigger,
		"detection":   in.Detection,
		"remediation": strings.Join(in.Remediation, "\n"),
	}
}

// Section is a run of narrative text under one heading.
type Section struct {
	Heading string // "" before the first heading
	Role    Role
	Text    string
}

// HeadingRole returns the role a heading names, if any: the first rule of
// the headings of cues.yaml its words match ("Root cause and remediation"
// is a cause section, "Remediation and prevention" a remediation one).
func HeadingRole(heading string) (Role, bool) {
	h := strings.ToLower(headingWords(heading))
	for _, hr := range headingRoles {
		if hr.re.MatchString(h) {
			return hr.role, true
		}
	}
	return RoleBody, false
}

// headingWords is a heading without the emoji or symbols before its first
// letter or digit ("🧠 Why" is "Why") and the spaces around it.
func headingWords(h string) string {
	return strings.TrimSpace(strings.TrimLeftFunc(h, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
}

// namesSection reports whether a heading rule matches the whole of h:
// "root cause", "fixes" and "what went wrong" name sections; "because of
// the load", "the fix" and "analysis in progress" (a chat message) do not.
func namesSection(h string) bool {
	h = strings.ToLower(headingWords(h))
	for _, hr := range headingRoles {
		for _, loc := range hr.re.FindAllStringIndex(h, -1) {
			if loc[0] == 0 && loc[1] == len(h) {
				return true
			}
		}
	}
	return false
}

var (
	mdHeading = regexp.MustCompile(`^(#{1,6})\s+(.+?)\s*#*\s*$`)
	// AsciiDoc section titles: "== What we are changing".
	adocHeading = regexp.MustCompile(`^(={1,6})\s+(\S.*?)\s*$`)
	// A line of one repeated punctuation mark underlines (or overlines) a
	// heading in reStructuredText and Markdown ("Root cause" over "-----");
	// backticks fence code, and so does a tilde rule shorter than the line
	// above it.
	underline    = regexp.MustCompile(`^(?:={3,}|-{3,}|~{3,}|\^{3,}|\*{3,}|\+{3,}|#{3,}|'{3,}|"{3,}|\.{3,}|_{3,}|:{3,})$`)
	boldHeading  = regexp.MustCompile(`^(?:\*\*|__)([^*_]{2,80}?)(?::)?(?:\*\*|__):?\s*$`)
	colonHeading = regexp.MustCompile(`^([A-Z][^.!?:;]{1,70}):$`)
	// A heading written in lower case ("root cause:", "follow-ups") counts
	// when its words are a known section's name and it ends in a colon or
	// stands alone after a blank line.
	lowerHeading = regexp.MustCompile(`^([a-z][^.!?:;,]{1,40}?):?$`)
	// "**Root cause:** text" and "Root cause: text" label one paragraph.
	inlineLabel = regexp.MustCompile(`(?i)^(?:\*\*|__)?(root[\s-]?causes?|causes?|trigger|impact|detection|resolution|remediation|mitigation|summary)(?::(?:\*\*|__)|(?:\*\*|__):|:)\s+(\S.*)$`)
)

// maxHeadingWords bounds a heading without Markdown marks: a longer line
// ending in a colon introduces a list rather than a section.
const maxHeadingWords = 8

// Sections splits narrative text at its headings: Markdown and AsciiDoc
// headings ("## Root cause", "== Root cause"), lines with a rule under them
// (reStructuredText, Markdown setext), lines in bold ("**Impact**"), short lines ending in a colon
// ("Root Cause:"), and bare short lines that name a known section
// ("Detection"; in lower case, "follow-ups" or "root cause:", only as a
// paragraph of its own). A recognised heading sets the role of the text under it;
// an unrecognised Markdown heading at the same or a higher level, or an
// unrecognised bold or colon heading, ends the section. A paragraph that
// starts with a label ("Root cause: a bug in ...") has the label's role.
func Sections(text string) []Section {
	var out []Section
	cur := Section{Role: RoleBody}
	level := 0 // level of the heading that set cur.Role; 7 for unmarked headings
	var body strings.Builder
	flush := func() {
		if t := strings.TrimSpace(body.String()); t != "" {
			cur.Text = t
			out = append(out, cur)
		}
		body.Reset()
	}
	lines := strings.Split(text, "\n")
	fenced := false // inside a code fence, where no line is a heading
	for i, line := range lines {
		trimmed := strings.TrimSpace(line)
		isFence := fence(lines, i)
		if isFence {
			fenced = !fenced
		}
		if fenced || isFence {
			body.WriteString(line)
			body.WriteByte('\n')
			continue
		}
		if underlines(lines, i) {
			continue // the rule under or over a heading is no text
		}
		standalone := i == 0 || strings.TrimSpace(lines[i-1]) == ""
		title, lv, isHeading := headingOf(trimmed, standalone)
		if !isHeading && underlined(lines, i) {
			title, lv, isHeading = trimmed, 7, true
		}
		if isHeading {
			role, known := HeadingRole(title)
			switch {
			case known:
				flush()
				cur, level = Section{Heading: title, Role: role}, lv
				continue
			case lv < 7 && lv <= level, lv == 7 && level > 0:
				flush()
				cur, level = Section{Heading: title, Role: RoleBody}, 0
			}
		}
		if m := inlineLabel.FindStringSubmatch(trimmed); m != nil {
			if role, ok := HeadingRole(m[1]); ok {
				flush()
				out = append(out, Section{Heading: m[1], Role: role, Text: m[2]})
				continue
			}
		}
		body.WriteString(line)
		body.WriteByte('\n')
	}
	flush()
	return out
}

// underlined reports whether lines[i] is a short line of text with a
// rule under it (a reStructuredText or Markdown setext heading).
func underlined(lines []string, i int) bool {
	t := strings.TrimSpace(lines[i])
	if t == "" || underline.MatchString(t) || i+1 >= len(lines) || !underline.MatchString(strings.TrimSpace(lines[i+1])) {
		return false
	}
	rule := strings.TrimSpace(lines[i+1])
	if rule[0] == '~' && len(rule) < len(t) {
		return false // a Markdown code fence, not a reStructuredText rule
	}
	return len(strings.Fields(t)) <= maxHeadingWords && !strings.ContainsAny(t[len(t)-1:], ".!?,;")
}

// fence reports whether lines[i] opens or closes a Markdown code block
// ("```", "~~~go") rather than underlining a heading.
func fence(lines []string, i int) bool {
	t := strings.TrimSpace(lines[i])
	return (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")) && !underlines(lines, i)
}

// underlines reports whether lines[i] is the rule under a heading or the
// rule over one (reStructuredText titles have both).
func underlines(lines []string, i int) bool {
	if !underline.MatchString(strings.TrimSpace(lines[i])) {
		return false
	}
	return i > 0 && underlined(lines, i-1) || i+1 < len(lines) && underlined(lines, i+1)
}

// headingOf recognises a heading line and returns its text and level (1-6
// for Markdown, 7 for a bold, colon or bare heading); standalone says the
// line starts a paragraph.
func headingOf(line string, standalone bool) (string, int, bool) {
	if m := mdHeading.FindStringSubmatch(line); m != nil {
		return strings.Trim(m[2], "*_ "), len(m[1]), true
	}
	if m := adocHeading.FindStringSubmatch(line); m != nil {
		return strings.Trim(m[2], "*_ "), len(m[1]), true
	}
	if m := boldHeading.FindStringSubmatch(line); m != nil && len(strings.Fields(m[1])) <= maxHeadingWords {
		return strings.TrimSpace(m[1]), 7, true
	}
	if m := colonHeading.FindStringSubmatch(line); m != nil && len(strings.Fields(m[1])) <= maxHeadingWords {
		return strings.TrimSpace(m[1]), 7, true
	}
	// A bare short line counts only when it names a known section: "Impact"
	// alone on a line is a heading, "Google Kubernetes Engine" is not.
	if n := len(strings.Fields(line)); n > 0 && n <= 4 && !strings.ContainsAny(line[len(line)-1:], ".!?,;") {
		if _, ok := HeadingRole(line); ok && startsUpper(line) {
			return line, 7, true
		}
	}
	if m := lowerHeading.FindStringSubmatch(line); m != nil && (standalone || strings.HasSuffix(line, ":")) && len(strings.Fields(m[1])) <= 4 && namesSection(m[1]) {
		return strings.TrimSpace(m[1]), 7, true
	}
	return "", 0, false
}

func startsUpper(s string) bool {
	for _, r := range s {
		return r >= 'A' && r <= 'Z'
	}
	return false
}
