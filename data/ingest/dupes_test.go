package ingest

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"incidents/data/incident"
)

// storedIDs is an IdentityReader over a map (identities and full cases).
type storedIDs map[string]*incident.Incident

func (s storedIDs) Cases(ctx context.Context, ids []string) (map[string]*incident.Incident, error) {
	return storedCases(s).Cases(ctx, ids)
}

func (s storedIDs) Identities(context.Context) ([]*incident.Incident, error) {
	var out []*incident.Incident
	for _, c := range s {
		out = append(out, &incident.Incident{ID: c.ID, Org: c.Org, Date: c.Date, Start: c.Start, Aliases: c.Aliases, Sources: c.Sources,
			Format: c.Format, SourceFile: c.SourceFile})
	}
	return out, nil
}

func dupCase(id, org, date, url, text string) *incident.Incident {
	c := &incident.Incident{ID: id, Org: org, Date: date, Title: "T " + id, Narrative: text, Format: "markdown"}
	if url != "" {
		c.Sources = []incident.Source{{URL: url}}
	}
	return c
}

const dupText = "The health checking service shared a resource pool with the frontends; rerouted traffic overloaded it, " +
	"health checks failed, the network control plane slowed and administrative operations in us-central1 were delayed for hours."

func TestURLKey(t *testing.T) {
	for _, tt := range []struct{ a, b string }{
		{"https://www.example.com/post/1/", "http://example.com/post/1"},
		{"https://web.archive.org/web/20200101000000/https://example.com/post/1", "https://example.com/post/1#top"},
	} {
		if urlKey(tt.a) != urlKey(tt.b) || urlKey(tt.a) == "" {
			t.Errorf("%q and %q: %q vs %q", tt.a, tt.b, urlKey(tt.a), urlKey(tt.b))
		}
	}
	for _, u := range []string{"https://status.example.com/", "not a url", ""} {
		if k := urlKey(u); k != "" {
			t.Errorf("%q is no evidence, got key %q", u, k)
		}
	}
}

// TestDedupe: duplicates by source URL and by organisation, day and text
// merge into the case they repeat (stored or earlier in the batch); what
// contradicts (another day, another product, starts hours apart, two
// hand-written cases) stays separate; --keep-separate only reports.
func TestDedupe(t *testing.T) {
	ctx := context.Background()
	stored := storedIDs{"X-1": dupCase("X-1", "Google Cloud", "2022-06-14", "https://status.example.com/incident/17", dupText)}
	stored["X-1"].Product = "Networking"
	batch := []*incident.Incident{
		dupCase("D-url", "GCP", "2022-06", "http://status.example.com/incident/17/", "other words entirely"),
		dupCase("D-text", "Google", "2022-06-14", "", "Pasted again: "+dupText),
		dupCase("N-day", "Google Cloud", "2022-06-15", "", dupText),
		dupCase("N-urlday", "Google Cloud", "2022-06-16", "https://status.example.com/incident/17", dupText),
		func() *incident.Incident {
			c := dupCase("N-product", "Google Cloud", "2022-06-14", "", dupText)
			c.Product = "Billing"
			return c
		}(),
	}
	keep, dups, err := Dedupe(ctx, batch, stored, Policy{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range dups {
		got = append(got, fmt.Sprintf("%s>%s:%v", d.ID, d.Of, d.Merged))
	}
	// The same URL two days later is only possibly the same incident: said, stored on its own.
	if strings.Join(got, " ") != "D-url>X-1:true D-text>X-1:true N-urlday>X-1:false" || !dups[2].Possible {
		t.Fatalf("duplicates %v", got)
	}
	ids := map[string]*incident.Incident{}
	for _, c := range keep {
		ids[c.ID] = c
	}
	x := ids["X-1"]
	if x == nil || len(keep) != 4 || strings.Join(x.Aliases, ",") != "D-text,D-url" || len(x.Sources) != 2 {
		t.Fatalf("kept %d cases; X-1 %+v", len(keep), x)
	}
	if ids["N-day"] == nil || ids["N-urlday"] == nil || ids["N-product"] == nil {
		t.Errorf("contradicting cases were merged: %v", keep)
	}
	if !strings.Contains(dups[1].Evidence, "same organisation and day (Google Cloud, 2022-06-14)") || dups[1].Score < DupTextOverlap {
		t.Errorf("evidence %+v", dups[1])
	}
	// Importing the duplicate again finds it by its alias.
	stored["X-1"] = x
	_, dups, _ = Dedupe(ctx, []*incident.Incident{dupCase("D-url", "GCP", "2022-06", "", "x")}, stored, Policy{})
	if len(dups) != 1 || dups[0].Of != "X-1" {
		t.Errorf("re-import of a merged duplicate: %+v", dups)
	}
	// --keep-separate reports and stores.
	keep, dups, _ = Dedupe(ctx, []*incident.Incident{dupCase("D-2", "Google Cloud", "2022-06-14", "https://status.example.com/incident/17", "")}, stored, Policy{KeepSeparate: true})
	if len(keep) != 1 || len(dups) != 1 || dups[0].Merged {
		t.Errorf("--keep-separate: %v %+v", keep, dups)
	}
	// Starts over an hour apart are two incidents; two case JSON files stay two cases.
	a, b := dupCase("S-1", "Acme", "2024-01-01", "", dupText), dupCase("S-2", "Acme", "2024-01-01", "", dupText)
	s1, s2 := time.Date(2024, 1, 1, 1, 0, 0, 0, time.UTC), time.Date(2024, 1, 1, 9, 0, 0, 0, time.UTC)
	a.Start, b.Start = &s1, &s2
	h1, h2 := dupCase("H-1", "Acme", "2024-02-01", "https://acme.test/post", ""), dupCase("H-2", "Acme", "2024-02-01", "https://acme.test/post", "")
	h1.Format, h2.Format = "json", "json"
	if keep, dups, _ := Dedupe(ctx, []*incident.Incident{a, b, h1, h2}, nil, Policy{}); len(keep) != 4 || len(dups) != 0 {
		t.Errorf("separate cases merged: %+v", dups)
	}
	if got := FindDuplicates([]*incident.Incident{h1, h2}); len(got) != 1 {
		t.Errorf("dupes lists hand-written pairs: %+v", got)
	}
	// Of two new reports the richer is kept.
	poor := dupCase("P-1", "Acme", "2024-03-01", "https://acme.test/pm", "")
	rich := dupCase("R-1", "Acme", "2024-03-01", "https://acme.test/pm", strings.Repeat(dupText+" ", 10))
	rich.Product, rich.RootCause = "API", "a cause"
	keep, dups, _ = Dedupe(ctx, []*incident.Incident{poor, rich}, nil, Policy{})
	if len(keep) != 1 || keep[0].ID != "R-1" || dups[0].ID != "P-1" || strings.Join(keep[0].Aliases, ",") != "P-1" {
		t.Errorf("richer report: %+v %+v", keep, dups)
	}
}

// TestDedupeRevisedFile: a note whose id is derived from its content gets
// a new id when it is edited; imported again from the same file, it
// updates the case it was imported as (the new id an alias) instead of
// merging into it as a duplicate, which would keep the old fields. A file
// of many cases (a CSV export), another file, or --keep-separate do not.
func TestDedupeRevisedFile(t *testing.T) {
	ctx := context.Background()
	old := dupCase("raw-2024-03-12-aaaaaa", "Acme", "2024-03-12", "", dupText+" Resolved at 10:02 UTC.")
	old.Format, old.SourceFile = "rawtext", "pm/pay.md"
	stored := storedIDs{old.ID: old}
	edited := func(id, file, format string) *incident.Incident {
		c := dupCase(id, "Acme", "2024-03-12", "", dupText+" Resolved at 10:32 UTC.")
		c.Format, c.SourceFile = format, file
		return c
	}
	// The ids of these notes are derived from their content (Batch.Derived).
	derived := Policy{Derived: map[string]bool{"raw-2024-03-12-bbbbbb": true, "acme-2024-03-12-aaaaaa": true, "raw-2024-03-12-cccccc": true}}
	keep, dups, err := Dedupe(ctx, []*incident.Incident{edited("raw-2024-03-12-bbbbbb", "pm/pay.md", "rawtext")}, stored, derived)
	if err != nil {
		t.Fatal(err)
	}
	if len(keep) != 1 || keep[0].ID != old.ID || !strings.Contains(keep[0].Narrative, "10:32") ||
		strings.Join(keep[0].Aliases, ",") != "raw-2024-03-12-bbbbbb" {
		t.Fatalf("the edited file is not an update of %s: %+v", old.ID, keep)
	}
	if len(dups) != 1 || !dups[0].Revised || dups[0].Merged || dups[0].Of != old.ID {
		t.Errorf("reported as %+v", dups)
	}
	// A later edit of that file: its id is now an alias of the case, and
	// the file's content is still the case's (not a duplicate merged in).
	revised := keep[0]
	revised.Format, revised.SourceFile = "rawtext", "pm/pay.md"
	again := edited("raw-2024-03-12-bbbbbb", "pm/pay.md", "rawtext")
	again.Narrative = strings.Replace(again.Narrative, "10:32", "10:42", 1)
	keep, dups, err = Dedupe(ctx, []*incident.Incident{again}, storedIDs{old.ID: revised}, derived)
	if err != nil || len(keep) != 1 || keep[0].ID != old.ID || !strings.Contains(keep[0].Narrative, "10:42") || len(dups) != 1 || !dups[0].Revised {
		t.Errorf("the file edited again, its id an alias: %v %+v %+v", err, keep, dups)
	}
	// The same file imported again with --org: the same text under
	// another organisation (another day key, another id) is that case too.
	withOrg := edited("acme-2024-03-12-aaaaaa", "pm/pay.md", "rawtext")
	withOrg.Org, withOrg.Narrative = "Wayne", old.Narrative
	keep, dups, err = Dedupe(ctx, []*incident.Incident{withOrg}, stored, derived)
	if err != nil || len(keep) != 1 || keep[0].ID != old.ID || keep[0].Org != "Wayne" || len(dups) != 1 || !dups[0].Revised {
		t.Errorf("the file imported again with --org: %v %+v %+v", err, keep, dups)
	}
	// The file reused for the next week's incident in like words: another
	// day, so another case, and the first one stays.
	nextWeek := dupCase("raw-2024-03-19-dddddd", "Acme", "2024-03-19", "", old.Narrative)
	nextWeek.Format, nextWeek.SourceFile = "rawtext", "pm/pay.md"
	keep, dups, err = Dedupe(ctx, []*incident.Incident{nextWeek}, stored, Policy{Derived: map[string]bool{nextWeek.ID: true}})
	if err != nil || len(keep) != 1 || keep[0].ID != nextWeek.ID || len(dups) != 0 {
		t.Errorf("the file reused on another day: %v %+v %+v", err, keep, dups)
	}
	// A wiki page with one address ("Current incident") reused for
	// another incident: the same source URL, another day and other words.
	page := dupCase("acme-2024-03-12-eeeeee", "Acme", "2024-03-12", "https://wiki.acme.test/current", dupText)
	page.Format, page.SourceFile = "html", "current.html"
	nextPage := dupCase("acme-2024-03-19-ffffff", "Acme", "2024-03-19", "https://wiki.acme.test/current", "The search index stopped refreshing after a schema change and results went stale for six hours.")
	nextPage.Format, nextPage.SourceFile = "html", "current.html"
	keep, dups, err = Dedupe(ctx, []*incident.Incident{nextPage}, storedIDs{page.ID: page}, Policy{Derived: map[string]bool{nextPage.ID: true}})
	if err != nil || len(keep) != 1 || keep[0].ID != nextPage.ID || len(dups) == 1 && dups[0].Revised {
		t.Errorf("a page of one address reused: %v %+v %+v", err, keep, dups)
	}
	for name, tc := range map[string]struct {
		batch []*incident.Incident
		p     Policy
	}{
		"another file":   {[]*incident.Incident{edited("raw-2024-03-12-cccccc", "other/pay.md", "rawtext")}, derived},
		"another format": {[]*incident.Incident{edited("raw-2024-03-12-cccccc", "pm/pay.md", "html")}, derived},
		"keep separate":  {[]*incident.Incident{edited("raw-2024-03-12-cccccc", "pm/pay.md", "rawtext")}, Policy{KeepSeparate: true, Derived: derived.Derived}},
		"a file of many cases": {[]*incident.Incident{edited("raw-2024-03-12-cccccc", "pm/pay.md", "rawtext"),
			dupCase("csv-2", "Acme", "2024-04-01", "", "another row")}, derived},
		// A file that states its ids (case JSON, an export with ids)
		// reused for the next incident is another case.
		"an id the file states": {[]*incident.Incident{edited("raw-2024-03-12-cccccc", "pm/pay.md", "rawtext")}, Policy{}},
	} {
		if name == "a file of many cases" {
			tc.batch[1].Format, tc.batch[1].SourceFile = "rawtext", "pm/pay.md"
		}
		_, dups, err := Dedupe(ctx, tc.batch, stored, tc.p)
		if err != nil || len(dups) != 1 || dups[0].Revised {
			t.Errorf("%s: %v %+v", name, err, dups)
		}
	}
}

// TestDedupeFileNameClash: a postmortem whose id comes from its file name
// is refused, naming both files, when that id is the stored case of
// another file with other text (two folders' outage.md): the import would
// overwrite it. The same postmortem imported from another folder, or with
// --replace, is an update.
func TestDedupeFileNameClash(t *testing.T) {
	ctx := context.Background()
	a := dupCase("outage", "Acme", "2024-05-02", "", dupText)
	a.SourceFile = "a/outage.md"
	stored := storedIDs{"outage": a}
	other := dupCase("outage", "Acme", "2024-06-11", "", "A bad zone file pushed to the internal resolvers made every service lookup fail with SERVFAIL until the previous zone was restored.")
	other.SourceFile = "b/outage.md"
	named := map[string]bool{"outage": true} // the id is the file's name (Batch.FileNamed)
	_, _, err := Dedupe(ctx, []*incident.Incident{other}, stored, Policy{FileNamed: named})
	if incident.KindOf(err) != incident.ErrDuplicate || !strings.Contains(err.Error(), "b/outage.md") || !strings.Contains(err.Error(), "a/outage.md") ||
		!strings.Contains(err.Error(), "--id-prefix") {
		t.Fatalf("another postmortem under the same file name: %v", err)
	}
	if keep, _, err := Dedupe(ctx, []*incident.Incident{other}, stored, Policy{Replace: true, FileNamed: named}); err != nil || len(keep) != 1 {
		t.Errorf("--replace: %v", err)
	}
	moved := dupCase("outage", "Acme", "2024-05-02", "", dupText)
	moved.SourceFile = "moved/outage.md"
	if keep, _, err := Dedupe(ctx, []*incident.Incident{moved}, stored, Policy{FileNamed: named}); err != nil || len(keep) != 1 {
		t.Errorf("the same postmortem from another folder: %v", err)
	}
	// An id the file states (a front-matter uuid, case JSON) is the user's:
	// a new version from another file is an update.
	if keep, _, err := Dedupe(ctx, []*incident.Incident{other}, stored, Policy{}); err != nil || len(keep) != 1 {
		t.Errorf("a stated id: %v", err)
	}
	// --keep-going: the clash is refused, the rest of the batch stored.
	fine := dupCase("fine", "Acme", "2024-07-01", "", "A certificate expired on the edge proxies and every TLS handshake failed until it was renewed by hand.")
	prep, err := Prepare(ctx, []*incident.Incident{other, fine}, stored, Policy{KeepGoing: true, FileNamed: named})
	if err != nil || len(prep.Refused) != 1 || len(prep.Cases) != 1 || prep.Cases[0].ID != "fine" {
		t.Errorf("--keep-going: %v, refused %v, stored %d", err, prep.Refused, len(prep.Cases))
	}
	// Texts too short to compare are taken to agree.
	stub := dupCase("outage", "Acme", "2024-05-02", "", "Queue down.")
	stub.SourceFile = "./a/outage.md"
	if _, _, err := Dedupe(ctx, []*incident.Incident{stub}, storedIDs{"outage": func() *incident.Incident { c := *a; c.Narrative = "Queue down."; return &c }()}, Policy{FileNamed: named}); err != nil {
		t.Errorf("a short stub under another spelling of its path: %v", err)
	}
	// Too short to compare and of another day: another postmortem.
	shortOther := dupCase("outage", "Acme", "2024-05-20", "", "CDN cert expired.")
	shortOther.SourceFile = "b/outage.md"
	if _, _, err := Dedupe(ctx, []*incident.Incident{shortOther}, storedIDs{"outage": func() *incident.Incident { c := *a; c.Narrative = "Login failed. Restarted auth."; return &c }()}, Policy{FileNamed: named}); incident.KindOf(err) != incident.ErrDuplicate {
		t.Errorf("a short postmortem of another day under the same name: %v", err)
	}
	// The same path reused for another day's incident (or two folders'
	// outage.md each imported from its own folder): refused too; the same
	// path rewritten on the same day is an update.
	reused := *other
	reused.SourceFile = a.SourceFile
	if _, _, err := Dedupe(ctx, []*incident.Incident{&reused}, stored, Policy{FileNamed: named}); incident.KindOf(err) != incident.ErrDuplicate {
		t.Errorf("the same path, another day's postmortem: %v", err)
	}
	rewritten := reused
	rewritten.Date, rewritten.Narrative = a.Date, "Rewritten: "+a.Narrative
	if _, _, err := Dedupe(ctx, []*incident.Incident{&rewritten}, stored, Policy{FileNamed: named}); err != nil {
		t.Errorf("the same path rewritten on its day: %v", err)
	}
	// A recurrence in like words on another day, from another file, is
	// another postmortem too; so is a short one under another title.
	recurrence := *a
	recurrence.SourceFile, recurrence.Date = "b/outage.md", "2024-06-11"
	if _, _, err := Dedupe(ctx, []*incident.Incident{&recurrence}, stored, Policy{FileNamed: named}); incident.KindOf(err) != incident.ErrDuplicate {
		t.Errorf("a recurrence on another day: %v", err)
	}
	shortTitle := dupCase("outage", "Acme", "2024-05-02", "", "Payments down.")
	shortTitle.SourceFile, shortTitle.Title = "c/outage.md", "Payment outage"
	if _, _, err := Dedupe(ctx, []*incident.Incident{shortTitle}, storedIDs{"outage": func() *incident.Incident { c := *a; c.Narrative, c.Title = "Login failed.", "Login outage"; return &c }()}, Policy{FileNamed: named}); incident.KindOf(err) != incident.ErrDuplicate {
		t.Errorf("a short postmortem of the same day under another title: %v", err)
	}
	// A relative and an absolute name of one file are one file.
	if abs, err := filepath.Abs(a.SourceFile); err == nil {
		spelled := rewritten
		spelled.SourceFile = abs
		spelled.Date = "2024-05-20"
		if _, _, err := Dedupe(ctx, []*incident.Incident{&spelled}, stored, Policy{FileNamed: named}); incident.KindOf(err) != incident.ErrDuplicate ||
			strings.Contains(err.Error(), "another postmortem") && !strings.Contains(err.Error(), abs) {
			t.Errorf("an absolute name of the same file, another day: %v", err)
		}
	}
	// Another organisation's report of one outage, in like words, on the
	// same day; and a recurrence that states no day: other postmortems,
	// and the refusal says what differs and how to correct the case.
	globex := *a
	globex.SourceFile, globex.Org = "globex/outage.md", "Globex"
	_, _, err = Dedupe(ctx, []*incident.Incident{&globex}, stored, Policy{FileNamed: named})
	if incident.KindOf(err) != incident.ErrDuplicate || !strings.Contains(err.Error(), "has another organisation (Globex; that case: Acme)") ||
		!strings.Contains(err.Error(), "incidents edit outage org=") {
		t.Errorf("another organisation's report: %v", err)
	}
	undated := *a
	undated.SourceFile, undated.Date = "b/outage.md", ""
	_, _, err = Dedupe(ctx, []*incident.Incident{&undated}, stored, Policy{FileNamed: named})
	if incident.KindOf(err) != incident.ErrDuplicate || !strings.Contains(err.Error(), "has another date (none given; that case: 2024-05-02)") {
		t.Errorf("an undated recurrence: %v", err)
	}
	// An id that is another case's alias is refused too, not merged into
	// that case as a duplicate imported again.
	listed := dupCase("dl-1", "Acme", "2024-05-02", "", dupText)
	listed.Aliases, listed.SourceFile, listed.Format = []string{"outage"}, "README.md", "list"
	_, _, err = Dedupe(ctx, []*incident.Incident{other}, storedIDs{"dl-1": listed}, Policy{FileNamed: named})
	if incident.KindOf(err) != incident.ErrDuplicate || !strings.Contains(err.Error(), "an alias of case dl-1") {
		t.Errorf("a file-name id that is another case's alias: %v", err)
	}
}

func TestIDFromName(t *testing.T) {
	for _, tt := range []struct{ name, want string }{
		{"pm/2024-03-payments-db.md", "2024-03-payments-db"},
		{"dns failure (eu-west).md", "dns-failure-eu-west"},
		{"content/posts/2024-05-cache/index.md", "2024-05-cache"},
		{`posts\2024-06-dns\_index.md`, "2024-06-dns"},
		{"2024-07-queue/README.md", "2024-07-queue"},
		{"content/posts/2024-05-cache/index.en.md", "2024-05-cache-en"},
		{"index.md", "index"},
		{"./index.md", "index"},
	} {
		if got := idFromName(tt.name); got != tt.want {
			t.Errorf("idFromName(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestLinkReferences: a reference naming no known case becomes the alias
// of the one case of its organisation and year its title describes.
func TestLinkReferences(t *testing.T) {
	ctx := context.Background()
	aws := dupCase("A-1", "Amazon", "2025-10-19", "", "")
	aws.Title = "Amazon DynamoDB US-EAST-1 outage of October 2025"
	aws.Summary = "A latent race condition in DynamoDB's DNS management left the regional endpoint with an empty record."
	other := dupCase("A-2", "AWS", "2025-06-01", "", "")
	other.Title = "S3 request errors after a deploy"
	st := storedIDs{"A-1": aws, "A-2": other}
	page := &incident.Incident{ID: "IL-0395", Org: "Google Cloud", Title: "p", References: []incident.Reference{
		{ID: "IL-0150", Org: "Amazon Web Services", Year: 2025, Title: "A latent race condition in DynamoDB's DNS automation left an empty DNS record for dynamodb.us-east-1.amazonaws.com"},
		{ID: "IL-0999", Org: "Amazon Web Services", Year: 2025, Title: "Kinesis shards stalled after a capacity add"},
		{ID: "A-2", Org: "AWS", Year: 2025, Title: "known already"},
	}}
	cases, links, err := LinkReferences(ctx, []*incident.Incident{page}, st)
	if err != nil {
		t.Fatal(err)
	}
	if len(links) != 1 || links[0].ID != "IL-0150" || links[0].To != "A-1" || len(cases) != 2 || strings.Join(cases[1].Aliases, ",") != "IL-0150" {
		t.Fatalf("links %+v, cases %d", links, len(cases))
	}
}

// TestFileNamedIDs: a Markdown file without an id in its front matter is
// named after its file, and the batch says so (Batch.FileNamed); one that
// states its id is not.
func TestFileNamedIDs(t *testing.T) {
	var results []FileResult
	for name, head := range map[string]string{"posts/outage.md": "title: Queue stalled\ncompany: Acme\n", "posts/pm-17.md": "uuid: pm-17\ntitle: Queue stalled\ncompany: Acme\n"} {
		res, err := ParseChecked(Input{Name: name, Data: mdDoc(head)}, "")
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, FileResult{Path: name, Result: res})
	}
	b := NewBatch(results, false)
	if !b.FileNamed["outage"] || b.FileNamed["pm-17"] || len(b.FileNamed) != 1 {
		t.Errorf("ids named after their files: %v", b.FileNamed)
	}
}
