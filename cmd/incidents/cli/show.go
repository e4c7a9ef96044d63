package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"incidents/data/incident"
	"incidents/data/store"
	"incidents/taxonomy"
)

func init() { register(newShowCmd) }

func newShowCmd(app *App) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Show one case",
		Long: `show prints one case: as a field table (-o table, or -o csv with the
columns field and value), as JSON in the case format (which 'incidents
ingest' reads back unchanged), or as a Markdown case page with its
sections, tags (with origin, confidence and evidence), sources, the related
cases its source names, and the current computed related links with their
reasons. The id is matched ignoring case; an unknown id names the nearest.`,
		Example: `  incidents show IL-0395
  incidents show IL-0395 -o markdown > IL-0395.md
  incidents show IL-0395 -o json > IL-0395.json && incidents ingest IL-0395.json`,
		Args: cobra.ExactArgs(1),
	}
	cmd.ValidArgsFunction = app.completeFirstID
	validate := outputFlag(cmd, &format, RecordFormats...)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := validate(); err != nil {
			return err
		}
		ctx := cmd.Context()
		s, err := openStore(ctx, app, true)
		if err != nil {
			return err
		}
		defer s.Close()
		in, err := getCase(ctx, s, args[0])
		if err != nil {
			return err
		}
		switch format {
		case FormatJSON:
			return writeJSON(app.Stdout, in)
		case FormatMarkdown:
			links, related, err := linksOf(ctx, s, in.ID)
			if err != nil {
				return err
			}
			gen, err := s.CurrentGeneration(ctx)
			if err != nil {
				return err
			}
			return writeCasePage(app.Stdout, in, links, related, gen)
		default:
			return showTable(ctx, app.Stdout, s, in, format)
		}
	}
	return cmd
}

// linksOf returns the current links of id and the cases they point to.
func linksOf(ctx context.Context, s *store.Store, id string) ([]incident.Link, map[string]*incident.Incident, error) {
	links, err := s.Links(ctx, id)
	if err != nil || len(links) == 0 {
		return links, nil, err
	}
	ids := make([]string, len(links))
	for i, l := range links {
		ids[i] = l.To
	}
	cases, err := s.List(ctx, store.Filter{IDs: ids})
	if err != nil {
		return nil, nil, err
	}
	byID := make(map[string]*incident.Incident, len(cases))
	for _, c := range cases {
		byID[c.ID] = c
	}
	return links, byID, nil
}

func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "–"
	}
	return s
}

func tagLabel(t incident.Tag) string {
	if t.Term == "" {
		return t.Raw
	}
	return taxonomy.Default().Label(t.Facet, t.Term)
}

// getCase reads the case a person's id names (ignoring case; an unknown
// id suggests the nearest).
func getCase(ctx context.Context, s *store.Store, id string) (*incident.Incident, error) {
	id, err := s.ResolveID(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.Get(ctx, id)
}

// fieldColumns are the columns of 'show' as a table or CSV.
var fieldColumns = []Column[[]string]{
	{Head: "FIELD", Key: "field", Text: func(r []string) string { return r[0] }},
	{Head: "VALUE", Key: "value", Text: func(r []string) string { return r[1] }},
}

// showTable writes a case as field-value rows (table or csv).
func showTable(ctx context.Context, w io.Writer, s *store.Store, in *incident.Incident, format string) error {
	t := &Table{}
	t.Rows = append(t.Rows, []string{"ID", in.ID}, []string{"Title", in.Title})
	for _, f := range in.Fields() {
		t.Rows = append(t.Rows, []string{f.Name, f.String()})
	}
	if in.Summary != "" {
		t.Rows = append(t.Rows, []string{"Summary", in.Summary})
	}
	for _, f := range incident.Facets {
		var labels []string
		for _, tg := range in.TagsOf(f) {
			labels = append(labels, tagLabel(tg)+" ("+string(tg.Origin)+")")
		}
		if len(labels) > 0 {
			t.Rows = append(t.Rows, []string{"Tags: " + strings.ReplaceAll(string(f), "_", " "), strings.Join(labels, ", ")})
		}
	}
	for _, src := range in.Sources {
		t.Rows = append(t.Rows, []string{"Source", src.URL})
	}
	links, err := s.Links(ctx, in.ID)
	if err != nil {
		return err
	}
	for _, g := range linkEvents(links) {
		t.Rows = append(t.Rows, []string{"Same event", g.Event + ": " + strings.Join(linkTargets(g.Items), ", ")})
	}
	for _, l := range links {
		t.Rows = append(t.Rows, []string{fmt.Sprintf("Related #%d", l.Rank), fmt.Sprintf("%s %.2f %s", l.To, l.Score, l.Reason)})
	}
	t.Rows = append(t.Rows, []string{"Hash", in.Hash})
	return writeRecords(w, format, fieldColumns, t.Rows, nil)
}

// writeCasePage renders a case as a Markdown page: heading and fields,
// the narrative sections, tags, sources, the cases the source names, the
// computed links and where the case came from.
func writeCasePage(w io.Writer, in *incident.Incident, links []incident.Link, related map[string]*incident.Incident, gen *store.Generation) error {
	var b strings.Builder
	mdHead(&b, in)
	mdSections(&b, in)
	mdTags(&b, in)
	mdSources(&b, in.Sources)
	mdReferences(&b, in.References)
	mdEvents(&b, links, related)
	mdLinks(&b, links, related, gen)
	if in.SourceFile != "" || in.Format != "" {
		fmt.Fprintf(&b, "_Imported from %s (%s); content hash %s._\n", orDash(in.SourceFile), orDash(in.Format), shortHash(in.Hash))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdHead writes the title, the organisation line, the summary and the
// field table.
func mdHead(b *strings.Builder, in *incident.Incident) {
	fmt.Fprintf(b, "# %s · %s\n\n", in.ID, mdText(in.Title))
	head := []string{"**" + mdText(in.Org) + "**"}
	if in.Product != "" {
		head = append(head, mdText(in.Product))
	}
	if in.Date != "" {
		head = append(head, in.Date)
	}
	b.WriteString(strings.Join(head, " · ") + "\n\n")
	if in.Summary != "" {
		b.WriteString(in.Summary + "\n\n")
	}
	b.WriteString("| Field | Value |\n| --- | --- |\n")
	for _, f := range in.Fields() {
		fmt.Fprintf(b, "| %s | %s |\n", f.Name, mdText(f.String()))
	}
	b.WriteString("\n")
}

// mdSections writes the case's texts and lists, each under its heading
// when not empty.
func mdSections(b *strings.Builder, in *incident.Incident) {
	for _, sec := range []struct{ title, text string }{
		{"Narrative", in.Narrative}, {"Symptoms", in.Symptoms}, {"Root cause", in.RootCause},
		{"Trigger", in.Trigger}, {"Detection", in.Detection},
	} {
		if strings.TrimSpace(sec.text) != "" {
			fmt.Fprintf(b, "## %s\n\n%s\n\n", sec.title, strings.TrimSpace(sec.text))
		}
	}
	for _, sec := range []struct {
		title string
		items []string
	}{{"Remediation", in.Remediation}, {"Action items", in.ActionItems}, {"Lessons", in.Lessons}} {
		if len(sec.items) == 0 {
			continue
		}
		fmt.Fprintf(b, "## %s\n\n", sec.title)
		for _, it := range sec.items {
			fmt.Fprintf(b, "- %s\n", it)
		}
		b.WriteString("\n")
	}
}

// mdTags writes the tag table, by facet.
func mdTags(b *strings.Builder, in *incident.Incident) {
	if len(in.Tags) == 0 {
		return
	}
	b.WriteString("## Tags\n\n| Facet | Tag | Term | Origin | Confidence | Evidence |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, f := range incident.Facets {
		for _, t := range in.TagsOf(f) {
			conf := "–"
			if t.Confidence > 0 {
				conf = fmt.Sprintf("%.2f", t.Confidence)
			}
			term := "`" + t.Term + "`"
			if t.Term == "" {
				term = "(unmatched)"
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", strings.ReplaceAll(string(f), "_", " "),
				mdText(tagLabel(t)), term, t.Origin, conf, mdText(orDash(t.Evidence)))
		}
	}
	b.WriteString("\n")
}

// mdSources lists the sources with their kind and note.
func mdSources(b *strings.Builder, sources []incident.Source) {
	if len(sources) == 0 {
		return
	}
	b.WriteString("## Sources\n\n")
	for _, s := range sources {
		parts := []string{s.URL}
		if s.Kind != "" {
			parts = append(parts, s.Kind)
		}
		if s.Note != "" {
			parts = append(parts, s.Note)
		}
		fmt.Fprintf(b, "- %s\n", strings.Join(parts, " · "))
	}
	b.WriteString("\n")
}

// mdReferences lists the related cases the source itself names.
func mdReferences(b *strings.Builder, refs []incident.Reference) {
	if len(refs) == 0 {
		return
	}
	b.WriteString("## Related cases named by the source\n\n")
	for _, r := range refs {
		line := "- **" + r.ID + "**"
		if r.Title != "" {
			line += " " + mdText(r.Title)
		}
		var meta []string
		if r.Org != "" {
			meta = append(meta, r.Org)
		}
		if r.Year != 0 {
			meta = append(meta, fmt.Sprint(r.Year))
		}
		if len(meta) > 0 {
			line += " (" + strings.Join(meta, " · ") + ")"
		}
		if r.Reason != "" {
			line += " — " + r.Reason
		}
		b.WriteString(line + "\n")
	}
	b.WriteString("\n")
}

// linkEvents groups a case's same-event links by event.
func linkEvents(links []incident.Link) []incident.EventGroup[incident.Link] {
	return incident.GroupEvents(links, func(l incident.Link) string { return l.Event }, func(l incident.Link) string { return l.To })
}

func linkTargets(links []incident.Link) []string {
	out := make([]string, len(links))
	for i, l := range links {
		out[i] = l.To
	}
	return out
}

// mdEvents lists the events the case reports with other organisations'
// reports of them.
func mdEvents(b *strings.Builder, links []incident.Link, related map[string]*incident.Incident) {
	for _, g := range linkEvents(links) {
		b.WriteString("## Same event: " + mdText(g.Event) + "\n\nOther organisations' reports of this event:\n\n")
		for _, l := range g.Items {
			line := "- **" + l.To + "**"
			if r := related[l.To]; r != nil {
				line += " " + mdText(r.Title) + " (" + mdText(r.Org)
				if r.Date != "" {
					line += " · " + r.Date
				}
				line += ")"
			}
			b.WriteString(line + "\n")
		}
		b.WriteString("\n")
	}
}

// mdLinks lists the computed related cases of generation gen (nil: computed
// now), with the titles of the cases in related.
func mdLinks(b *strings.Builder, links []incident.Link, related map[string]*incident.Incident, gen *store.Generation) {
	if len(links) == 0 {
		return
	}
	if gen != nil {
		fmt.Fprintf(b, "## Related cases (computed, generation %d)\n\n", gen.Gen)
	} else {
		b.WriteString("## Related cases (computed)\n\n")
	}
	for _, l := range links {
		line := fmt.Sprintf("%d. **%s**", l.Rank, l.To)
		if r := related[l.To]; r != nil {
			line += " " + mdText(r.Title) + " (" + r.Org
			if r.Date != "" {
				line += " · " + r.Date
			}
			line += ")"
		}
		line += fmt.Sprintf(" — score %.3f (text %.3f, tags %.3f)", l.Score, l.TextScore, l.TagScore)
		if l.Reason != "" {
			line += " — " + l.Reason
		}
		if l.Pinned {
			line += " — pinned"
		}
		b.WriteString(line + "\n")
	}
	b.WriteString("\n")
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return orDash(h)
}

// mdText makes plain text safe inline and in a Markdown table cell: on one
// line, with markup characters escaped.
func mdText(s string) string { return mdEscaper.Replace(strings.Join(strings.Fields(s), " ")) }

// mdEscaper backslash-escapes the characters that would turn plain text
// (a title, an organisation) into Markdown or HTML markup.
var mdEscaper = strings.NewReplacer(`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`,
	"<", `\<`, ">", `\>`, "#", `\#`, "|", `\|`)
