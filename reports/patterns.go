package reports

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sort"

	"incidents/data/incident"
)

// linkRow is one stored link from a quarter incident with its target.
type linkRow struct {
	from, to         string
	rank             int
	score            float64
	reason           string
	pinned           bool
	title, org, date string
	class            string
	known            bool // the target is in the database
}

// incidents fills the incident table and the recurring patterns from the
// quarter's cases and their links in the current generation.
func (r *QuarterReport) incidents(ctx context.Context, db *sql.DB, cases []*caseRow, org string, opts Options) error {
	var quarter []*caseRow
	for _, c := range cases {
		if c.quarter == r.Quarter {
			quarter = append(quarter, c)
		}
	}
	ids := make([]string, len(quarter))
	for i, c := range quarter {
		ids[i] = c.id
	}
	details, err := loadDetails(ctx, db, ids)
	if err != nil {
		return err
	}
	links, err := loadLinks(ctx, db, ids, opts.RelatedPerIncident)
	if err != nil {
		return err
	}
	byFrom := map[string][]linkRow{}
	for _, l := range links {
		byFrom[l.from] = append(byFrom[l.from], l)
	}
	t := IncidentTable{Total: len(quarter)}
	for i, c := range quarter {
		if len(byFrom[c.id]) == 0 {
			r.Coverage.NoLinks++
		}
		if i >= opts.MaxTableRows {
			t.Omitted++
			continue
		}
		t.Rows = append(t.Rows, incidentRow(c, details[c.id], byFrom[c.id]))
	}
	r.Incidents = t
	r.Patterns = patterns(quarter, links, opts.MaxGraphNodes)
	r.Patterns.LinksPerIncident = opts.RelatedPerIncident
	return nil
}

// detail is what the incident table shows beyond the window's columns.
type detail struct {
	tags    map[incident.Facet][]string // labels in tag order, unique
	sources []string
}

// loadDetails reads the tag labels of every facet and the source addresses
// of the cases ids.
func loadDetails(ctx context.Context, db *sql.DB, ids []string) (map[string]*detail, error) {
	out := map[string]*detail{}
	get := func(id string) *detail {
		d := out[id]
		if d == nil {
			d = &detail{tags: map[incident.Facet][]string{}}
			out[id] = d
		}
		return d
	}
	const in = `incident_id IN (SELECT unnest(?::VARCHAR[]))`
	rows, err := db.QueryContext(ctx, `SELECT incident_id, facet, coalesce(label, term, raw, '') FROM tags
WHERE `+in+` ORDER BY incident_id, seq`, ids)
	if err != nil {
		return nil, fmt.Errorf("report: reading tags: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, facet, label string
		if err := rows.Scan(&id, &facet, &label); err != nil {
			return nil, fmt.Errorf("report: reading tags: %w", err)
		}
		d, f := get(id), incident.Facet(facet)
		if label != "" && !slices.Contains(d.tags[f], label) {
			d.tags[f] = append(d.tags[f], label)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	srows, err := db.QueryContext(ctx, `SELECT incident_id, url FROM sources WHERE `+in+` ORDER BY incident_id, seq`, ids)
	if err != nil {
		return nil, fmt.Errorf("report: reading sources: %w", err)
	}
	defer srows.Close()
	for srows.Next() {
		var id, url string
		if err := srows.Scan(&id, &url); err != nil {
			return nil, fmt.Errorf("report: reading sources: %w", err)
		}
		d := get(id)
		d.sources = append(d.sources, url)
	}
	return out, srows.Err()
}

// loadLinks reads the top k links of the cases ids, with their targets.
func loadLinks(ctx context.Context, db *sql.DB, ids []string, k int) ([]linkRow, error) {
	rows, err := db.QueryContext(ctx, `SELECT incident_id, related_id, rank, score, coalesce(reason, ''), coalesce(pinned, false)
FROM related WHERE incident_id IN (SELECT unnest(?::VARCHAR[])) AND rank <= ?
ORDER BY incident_id, rank, related_id`, ids, k)
	if err != nil {
		return nil, fmt.Errorf("report: reading related links: %w", err)
	}
	defer rows.Close()
	var out []linkRow
	targets := map[string][]int{}
	var tids []string
	for rows.Next() {
		var l linkRow
		if err := rows.Scan(&l.from, &l.to, &l.rank, &l.score, &l.reason, &l.pinned); err != nil {
			return nil, fmt.Errorf("report: reading related links: %w", err)
		}
		l.score = roundAll([]float64{l.score})[0]
		if _, ok := targets[l.to]; !ok {
			tids = append(tids, l.to)
		}
		targets[l.to] = append(targets[l.to], len(out))
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(tids) == 0 {
		return out, nil
	}
	trows, err := db.QueryContext(ctx, `SELECT id, title, org, coalesce(date, ''), coalesce(root_cause_class, '')
FROM incidents WHERE id IN (SELECT unnest(?::VARCHAR[]))`, tids)
	if err != nil {
		return nil, fmt.Errorf("report: reading related cases: %w", err)
	}
	defer trows.Close()
	for trows.Next() {
		var id, title, org, date, class string
		if err := trows.Scan(&id, &title, &org, &date, &class); err != nil {
			return nil, fmt.Errorf("report: reading related cases: %w", err)
		}
		for _, i := range targets[id] {
			out[i].title, out[i].org, out[i].date, out[i].class, out[i].known = title, org, date, class, true
		}
	}
	return out, trows.Err()
}

func durText(m *float64) string {
	if m == nil {
		return "–"
	}
	return minutesText(*m)
}

func incidentRow(c *caseRow, d *detail, links []linkRow) IncidentRow {
	row := IncidentRow{ID: c.id, Date: c.date, Org: c.org, Title: c.title, TTD: c.ttd, TTR: c.ttr,
		TTDText: durText(c.ttd), TTRText: durText(c.ttr), RootCause: c.rootCause, Class: c.class}
	if d != nil {
		for _, f := range incident.Facets {
			if l := d.tags[f]; len(l) > 0 {
				row.Tags = append(row.Tags, TagGroup{Facet: string(f), Labels: l})
			}
		}
		row.SourceURLs = d.sources
	}
	for _, l := range links {
		row.Related = append(row.Related, Related{ID: l.to, Title: l.title, Org: l.org, Date: l.date, Rank: l.rank, Score: l.score, Reason: l.reason, Pinned: l.pinned})
	}
	return row
}

// patterns groups the quarter's incidents and their related cases into
// connected clusters and lays out the graph to draw.
func patterns(quarter []*caseRow, links []linkRow, maxNodes int) Patterns {
	type info struct {
		title, org, date, class string
		inQuarter               bool
	}
	nodes := map[string]*info{}
	var order []string
	add := func(id string, in info) {
		if _, ok := nodes[id]; !ok {
			nodes[id] = &in
			order = append(order, id)
		}
	}
	for _, c := range quarter {
		add(c.id, info{c.title, c.org, c.date, c.class, true})
	}
	type pair struct{ a, b string }
	edges := map[pair]linkRow{}
	for _, l := range links {
		if !l.known {
			continue
		}
		add(l.to, info{l.title, l.org, l.date, l.class, false})
		p := pair{l.from, l.to}
		if p.b < p.a {
			p = pair{l.to, l.from}
		}
		if old, ok := edges[p]; !ok || l.score > old.score {
			edges[p] = l
		}
	}
	parent := map[string]string{}
	var find func(string) string
	find = func(x string) string {
		p, ok := parent[x]
		if !ok || p == x {
			return x
		}
		root := find(p)
		parent[x] = root
		return root
	}
	pairs := make([]pair, 0, len(edges))
	for p := range edges {
		pairs = append(pairs, p)
	}
	// Strongest links first: single linkage that never grows a cluster
	// beyond MaxClusterSize, so that chains of weak links do not glue
	// unrelated patterns into one.
	sort.Slice(pairs, func(i, j int) bool {
		if si, sj := edges[pairs[i]].score, edges[pairs[j]].score; si != sj {
			return si > sj
		}
		if pairs[i].a != pairs[j].a {
			return pairs[i].a < pairs[j].a
		}
		return pairs[i].b < pairs[j].b
	})
	size := map[string]int{}
	sizeOf := func(root string) int { return max(size[root], 1) }
	for _, p := range pairs {
		ra, rb := find(p.a), find(p.b)
		if ra == rb || sizeOf(ra)+sizeOf(rb) > MaxClusterSize {
			continue
		}
		if rb < ra {
			ra, rb = rb, ra
		}
		size[ra] = sizeOf(ra) + sizeOf(rb)
		parent[rb] = ra
	}
	comps := map[string][]string{}
	for _, id := range order {
		root := find(id)
		comps[root] = append(comps[root], id)
	}
	var groups [][]string
	pat := Patterns{}
	for _, ids := range comps {
		if len(ids) >= 2 {
			sort.Strings(ids)
			groups = append(groups, ids)
		} else if nodes[ids[0]].inQuarter {
			pat.Isolated++
		}
	}
	inQ := func(ids []string) int {
		n := 0
		for _, id := range ids {
			if nodes[id].inQuarter {
				n++
			}
		}
		return n
	}
	sort.Slice(groups, func(i, j int) bool {
		a, b := groups[i], groups[j]
		if len(a) != len(b) {
			return len(a) > len(b)
		}
		if x, y := inQ(a), inQ(b); x != y {
			return x > y
		}
		return a[0] < b[0]
	})
	pat.TotalClusters = len(groups)
	clusterOf := map[string]int{}
	for gi, ids := range groups {
		for _, id := range ids {
			clusterOf[id] = gi
		}
	}
	// Edges by cluster, for the reasons.
	reasons := make([]map[string]int, len(groups))
	for _, p := range pairs {
		gi, ok := clusterOf[p.a]
		if gj, ok2 := clusterOf[p.b]; !ok || !ok2 || gi != gj {
			continue // a link between clusters
		}
		if reasons[gi] == nil {
			reasons[gi] = map[string]int{}
		}
		if rs := edges[p].reason; rs != "" {
			reasons[gi][rs]++
		}
	}
	for gi, ids := range groups {
		if gi >= MaxClusters {
			break
		}
		c := Cluster{Rank: gi + 1, Size: len(ids), InQuarter: inQ(ids)}
		classN := map[string]int{}
		orgs := map[string]bool{}
		minY, maxY := "", ""
		var members []Member
		for _, id := range ids {
			n := nodes[id]
			classN[n.class]++
			orgs[n.org] = true
			if len(n.date) >= 4 {
				y := n.date[:4]
				if minY == "" || y < minY {
					minY = y
				}
				if y > maxY {
					maxY = y
				}
			}
			members = append(members, Member{ID: id, Title: n.title, Org: n.org, Date: n.date, InQuarter: n.inQuarter})
		}
		best := -1
		for _, cl := range classes() {
			if classN[cl.ID] > best {
				best, c.Class, c.Label = classN[cl.ID], cl.ID, cl.Label
			}
		}
		for o := range orgs {
			c.Orgs = append(c.Orgs, o)
		}
		sort.Strings(c.Orgs)
		sort.SliceStable(members, func(i, j int) bool {
			if members[i].InQuarter != members[j].InQuarter {
				return members[i].InQuarter
			}
			if members[i].Date != members[j].Date {
				return members[i].Date > members[j].Date
			}
			return members[i].ID < members[j].ID
		})
		c.Members = members
		switch {
		case minY == "":
		case minY == maxY:
			c.Span = minY
		default:
			c.Span = minY + " – " + maxY
		}
		for rs, n := range reasons[gi] {
			c.Reasons = append(c.Reasons, ReasonCount{Reason: rs, Links: n})
		}
		sort.Slice(c.Reasons, func(i, j int) bool {
			if c.Reasons[i].Links != c.Reasons[j].Links {
				return c.Reasons[i].Links > c.Reasons[j].Links
			}
			return c.Reasons[i].Reason < c.Reasons[j].Reason
		})
		if len(c.Reasons) > 3 {
			c.Reasons = c.Reasons[:3]
		}
		pat.Clusters = append(pat.Clusters, c)
	}
	// The graph: whole clusters, largest first, while they fit; then the
	// isolated quarter incidents.
	index := map[string]int{}
	addNode := func(id string, cluster int) {
		n := nodes[id]
		index[id] = len(pat.Nodes)
		pat.Nodes = append(pat.Nodes, Node{ID: id, Title: n.title, Org: n.org, Date: n.date, Class: n.class, InQuarter: n.inQuarter, Cluster: cluster})
	}
	for gi, ids := range groups {
		if len(pat.Nodes)+len(ids) > maxNodes {
			continue
		}
		for _, id := range ids {
			addNode(id, gi)
		}
	}
	for _, id := range order {
		if _, ok := clusterOf[id]; !ok && nodes[id].inQuarter && len(pat.Nodes) < maxNodes {
			addNode(id, -1)
		}
	}
	pat.Omitted = len(nodes) - len(pat.Nodes)
	for _, p := range pairs {
		a, okA := index[p.a]
		b, okB := index[p.b]
		if okA && okB {
			e := edges[p]
			pat.Edges = append(pat.Edges, Edge{From: a, To: b, Score: e.score, Reason: e.reason})
		}
	}
	return pat
}
