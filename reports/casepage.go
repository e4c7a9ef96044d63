package reports

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"io"

	"incidents/data/incident"
	"incidents/data/store"
	"incidents/taxonomy"
)

// CaseReport is the data of one case page.
type CaseReport struct {
	Case *incident.Incident `json:"case"`
	// Fields are the one-line fields in page order, "–" when unknown.
	Fields []Field `json:"fields"`
	// Tags are the case's tags by facet, with labels.
	Tags []CaseTag `json:"tags"`
	// Related are the computed related cases of the current generation.
	Related []Related `json:"related"`
	// Events are the real-world events other organisations' reports among
	// Related share with this case, each with those reports by rank.
	Events     []CaseEvent    `json:"events,omitempty"`
	Generation *LinkGenerator `json:"generation,omitempty"`
}

// CaseEvent is one event a case reports, with the other organisations'
// reports of it.
type CaseEvent struct {
	Name    string    `json:"name"`
	Reports []Related `json:"reports"`
}

// Field is one labelled value of a case page.
type Field struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// CaseTag is one tag with its label.
type CaseTag struct {
	Facet      string  `json:"facet"`
	Term       string  `json:"term,omitempty"`
	Label      string  `json:"label"`
	Origin     string  `json:"origin"`
	Confidence float64 `json:"confidence,omitempty"`
	Evidence   string  `json:"evidence,omitempty"`
}

// BuildCase gathers one case page: the case as stored with all its tags,
// and its related cases from the current link generation.
func BuildCase(ctx context.Context, st *store.Store, id string) (*CaseReport, error) {
	in, err := st.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	c := &CaseReport{Case: in, Fields: caseFields(in)}
	v := taxonomy.Default()
	for _, f := range incident.Facets {
		for _, t := range in.TagsOf(f) {
			label := t.Raw
			if t.Term != "" {
				label = v.Label(f, t.Term)
			}
			c.Tags = append(c.Tags, CaseTag{Facet: string(f), Term: t.Term, Label: label, Origin: string(t.Origin), Confidence: t.Confidence, Evidence: t.Evidence})
		}
	}
	links, err := st.Links(ctx, in.ID)
	if err != nil {
		return nil, err
	}
	if len(links) > 0 {
		ids := make([]string, len(links))
		for i, l := range links {
			ids[i] = l.To
		}
		cases, err := st.List(ctx, store.Filter{IDs: ids})
		if err != nil {
			return nil, err
		}
		byID := make(map[string]*incident.Incident, len(cases))
		for _, x := range cases {
			byID[x.ID] = x
		}
		for _, l := range links {
			rel := Related{ID: l.To, Rank: l.Rank, Score: roundAll([]float64{l.Score})[0], Reason: l.Reason, Pinned: l.Pinned, Event: l.Event}
			if x := byID[l.To]; x != nil {
				rel.Title, rel.Org, rel.Date = x.Title, x.Org, x.Date
			}
			c.Related = append(c.Related, rel)
		}
		c.Events = caseEvents(c.Related)
	}
	gen, err := st.CurrentGeneration(ctx)
	if err != nil {
		return nil, err
	}
	if gen != nil {
		c.Generation = &LinkGenerator{Generation: gen.Gen, Cases: gen.Cases, NewestID: gen.NewestID}
	}
	return c, nil
}

// caseEvents groups the same-event links of a case by event
// (incident.GroupEvents), in the order of their first report.
func caseEvents(related []Related) []CaseEvent {
	var out []CaseEvent
	for _, g := range incident.GroupEvents(related, func(r Related) string { return r.Event }, func(r Related) string { return r.ID }) {
		out = append(out, CaseEvent{Name: g.Event, Reports: g.Items})
	}
	return out
}

// caseFields is the case's field list (incident.Fields) as the page prints it.
func caseFields(in *incident.Incident) []Field {
	fs := in.Fields()
	out := make([]Field, len(fs))
	for i, f := range fs {
		out[i] = Field{f.Name, f.String()}
	}
	return out
}

// casePage is what the case template sees.
type casePage struct {
	C   *CaseReport
	CSS template.CSS
}

// RenderCase writes one case page as a self-contained HTML file (it needs
// no script at all). Nothing is written when rendering fails.
func RenderCase(w io.Writer, c *CaseReport) error {
	var buf bytes.Buffer
	if err := caseTmpl.Execute(&buf, casePage{C: c, CSS: styleCSS}); err != nil {
		return fmt.Errorf("reports: rendering case %s: %w", c.Case.ID, err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}
