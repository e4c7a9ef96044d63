package ingest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"

	"incidents/data/incident"
	"incidents/taxonomy"
)

// The "list" format is a Markdown list of postmortems (the layout of
// danluu/post-mortems README.md): "## Section" headings, then one incident
// per paragraph, "[Org](url). What happened." Sections that list other
// lists, analysis or contributors end the incidents.
func init() {
	register(Parser{Name: "list", Detect: detectList, Parse: parseList})
}

var (
	// listEntry is a paragraph opening with one or more links, then ". ".
	listEntry = regexp.MustCompile(`^((?:\[[^\]]+\]\([^)\s]+\)(?:,\s*)?)+)\.?\s*(.*)$`)
	listLink  = regexp.MustCompile(`\[([^\]]+)\]\(([^)\s]+)\)`)
	linkLine  = regexp.MustCompile(`(?m)^\[[^\]]+\]\(https?://[^)\s]+\)`)
)

// listStop are headings after which no incidents follow.
var listStop = map[string]bool{"other lists of postmortems": true, "analysis": true, "contributors": true}

func detectList(in Input) int {
	head := in.Data[:min(len(in.Data), 256<<10)]
	if bytes.Count(head, []byte("\n[")) < 3 {
		return 0
	}
	links := len(linkLine.FindAllIndex(head, 50))
	if links < 3 || !strings.Contains(string(head), "\n## ") {
		return 0
	}
	if strings.Contains(strings.ToLower(string(head[:min(len(head), 200)])), "post-mortem") {
		return 90
	}
	return 75
}

func parseList(in Input) (*Result, error) {
	lines := splitLines(string(stripBOM(in.Data)))
	v := taxonomy.Default()
	res := &Result{}
	section := ""
	seenURL := map[string]int{}
	dated := 0
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if h, ok := strings.CutPrefix(t, "## "); ok {
			section = strings.TrimSpace(h)
			if listStop[strings.ToLower(section)] {
				break
			}
			continue
		}
		if section == "" || !strings.HasPrefix(t, "[") {
			continue
		}
		// A paragraph runs until a blank line or heading.
		start := i
		para := t
		for i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" && !strings.HasPrefix(strings.TrimSpace(lines[i+1]), "#") {
			i++
			para += " " + strings.TrimSpace(lines[i])
		}
		m := listEntry.FindStringSubmatch(para)
		if m == nil || strings.EqualFold(section, "table of contents") {
			continue
		}
		links := listLink.FindAllStringSubmatch(m[1], -1)
		if len(links) == 0 {
			continue
		}
		c := listCase(v, links, strings.TrimSpace(m[2]), para, section, in.Name)
		seenURL[links[0][2]]++
		if n := seenURL[links[0][2]]; n > 1 {
			c.ID = fmt.Sprintf("%s-%d", c.ID, len(res.Incidents)+1)
		}
		if c.Date != "" {
			dated++
		}
		res.Incidents = append(res.Incidents, c)
		res.Lines = append(res.Lines, start+1)
	}
	if len(res.Incidents) == 0 {
		return nil, inputError(incident.ErrEmpty, in.Name, 0, "no list entries found").
			WithHint(`entries are paragraphs "[Org](https://…). What happened." under "## Section" headings`)
	}
	res.Notes = append(res.Notes, fmt.Sprintf("%s: %d incidents, %d dated from text or URL", in.Name, len(res.Incidents), dated))
	return res, nil
}

// listCase builds one case from an entry's links and text.
func listCase(v *taxonomy.Vocab, links [][]string, text, para, section, file string) *incident.Incident {
	url := links[0][2]
	sum := sha256.Sum256([]byte(url))
	c := &incident.Incident{
		ID: "dl-" + hex.EncodeToString(sum[:])[:10], Org: strings.TrimSpace(links[0][1]),
		Narrative: para, Categories: []string{section}, Format: "list", SourceFile: file,
	}
	for _, l := range links {
		c.Sources = append(c.Sources, incident.Source{URL: l[2], Kind: "list", Note: noteFor(l[1], c.Org)})
	}
	plain := strings.Join(strings.Fields(listLink.ReplaceAllString(text, "$1")), " ")
	s1 := firstSentence(plain)
	title := strings.TrimSuffix(s1, ".")
	if rest := strings.TrimSpace(plain[len(s1):]); len(title) < 25 && rest != "" {
		// "Human error. On February 28th…": one short sentence says too little.
		title += ": " + strings.TrimSuffix(firstSentence(rest), ".")
	}
	c.Title = shorten(title, maxTitle)
	if strings.TrimSpace(c.Title) == "" {
		c.Title = shorten(c.Org+" incident", maxTitle)
	}
	var best civil
	if d, ok := findCoarseDate(plain); ok {
		best = d
	}
	if u, ok := urlDate(url); ok && precision(u) > precision(best) {
		best = u
	}
	c.Date = best.String()
	// The section heading maps onto tags through taxonomy/categories.yaml
	// (source "danluu"), the one mapping of external categories.
	c.Tags = incident.MergeTags(c.Tags, v.ImportCategory("danluu", section)...)
	return c
}

// noteFor keeps the link text of secondary links ("see also").
func noteFor(text, org string) string {
	if text == org {
		return ""
	}
	return text
}

// precision is 3 for a day, 2 for a month, 1 for a year, 0 for nothing.
func precision(c civil) int {
	switch {
	case c.y == 0:
		return 0
	case c.m == 0:
		return 1
	case c.d == 0:
		return 2
	}
	return 3
}
