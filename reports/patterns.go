package reports

import (
	"sort"
)

// patterns groups the period's incidents and their related cases into
// connected clusters and lays out the graph to draw: the link graph, its
// clusters, the summary of each cluster and the drawn part are each one
// step below.
func patterns(period []*caseRow, links []linkRow, maxNodes int) Patterns {
	g := newLinkGraph(period, links)
	groups, isolated := g.clusters()
	pat := Patterns{TotalClusters: len(groups), Isolated: isolated}
	reasons := g.reasons(groups)
	for gi, ids := range groups {
		if gi >= MaxClusters {
			break
		}
		pat.Clusters = append(pat.Clusters, g.cluster(gi, ids, reasons[gi]))
	}
	pat.Nodes, pat.Edges = g.draw(groups, maxNodes)
	pat.Omitted = len(g.nodes) - len(pat.Nodes)
	return pat
}

// nodeInfo is what the graph knows of one case.
type nodeInfo struct {
	title, org, date, class string
	inPeriod                bool
}

// pair is an undirected link, a < b.
type pair struct{ a, b string }

// linkGraph is the period's incidents and their related cases joined by
// the strongest link of each pair, in a fixed order.
type linkGraph struct {
	nodes map[string]*nodeInfo
	order []string // first seen first: the period's incidents, then targets
	edges map[pair]linkRow
	pairs []pair // strongest first, then by ids
}

// newLinkGraph builds the graph; links to cases no longer stored are left
// out.
func newLinkGraph(period []*caseRow, links []linkRow) *linkGraph {
	g := &linkGraph{nodes: map[string]*nodeInfo{}, edges: map[pair]linkRow{}}
	add := func(id string, in nodeInfo) {
		if _, ok := g.nodes[id]; !ok {
			g.nodes[id] = &in
			g.order = append(g.order, id)
		}
	}
	for _, c := range period {
		add(c.id, nodeInfo{c.title, c.org, c.date, c.class, true})
	}
	for _, l := range links {
		if !l.known {
			continue
		}
		add(l.to, nodeInfo{l.title, l.org, l.date, l.class, false})
		p := pair{l.from, l.to}
		if p.b < p.a {
			p = pair{l.to, l.from}
		}
		if old, ok := g.edges[p]; !ok || l.score > old.score {
			g.edges[p] = l
		}
	}
	for p := range g.edges {
		g.pairs = append(g.pairs, p)
	}
	sort.Slice(g.pairs, func(i, j int) bool {
		if si, sj := g.edges[g.pairs[i]].score, g.edges[g.pairs[j]].score; si != sj {
			return si > sj
		}
		if g.pairs[i].a != g.pairs[j].a {
			return g.pairs[i].a < g.pairs[j].a
		}
		return g.pairs[i].b < g.pairs[j].b
	})
	return g
}

// inPeriod counts the period's incidents among ids.
func (g *linkGraph) inPeriod(ids []string) int {
	n := 0
	for _, id := range ids {
		if g.nodes[id].inPeriod {
			n++
		}
	}
	return n
}

// clusters joins cases along the strongest links first (single linkage
// that never grows a cluster beyond MaxClusterSize, so that chains of weak
// links do not glue unrelated patterns into one). It returns the clusters
// of two or more cases, largest first, each sorted by id, and how many of
// the period's incidents are in none.
func (g *linkGraph) clusters() (groups [][]string, isolated int) {
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
	size := map[string]int{}
	sizeOf := func(root string) int { return max(size[root], 1) }
	for _, p := range g.pairs {
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
	for _, id := range g.order {
		root := find(id)
		comps[root] = append(comps[root], id)
	}
	for _, ids := range comps {
		if len(ids) >= 2 {
			sort.Strings(ids)
			groups = append(groups, ids)
		} else if g.nodes[ids[0]].inPeriod {
			isolated++
		}
	}
	sort.Slice(groups, func(i, j int) bool {
		a, b := groups[i], groups[j]
		if len(a) != len(b) {
			return len(a) > len(b)
		}
		if x, y := g.inPeriod(a), g.inPeriod(b); x != y {
			return x > y
		}
		return a[0] < b[0]
	})
	return groups, isolated
}

// reasons counts the link reasons inside each cluster (links between
// clusters are not counted).
func (g *linkGraph) reasons(groups [][]string) []map[string]int {
	clusterOf := clusterIndex(groups)
	out := make([]map[string]int, len(groups))
	for _, p := range g.pairs {
		gi, ok := clusterOf[p.a]
		if gj, ok2 := clusterOf[p.b]; !ok || !ok2 || gi != gj {
			continue
		}
		if out[gi] == nil {
			out[gi] = map[string]int{}
		}
		if rs := g.edges[p].reason; rs != "" {
			out[gi][rs]++
		}
	}
	return out
}

func clusterIndex(groups [][]string) map[string]int {
	m := map[string]int{}
	for gi, ids := range groups {
		for _, id := range ids {
			m[id] = gi
		}
	}
	return m
}

// cluster summarises cluster gi: its main root-cause class, organisations,
// members (the period's incidents first, then newest first), span of years
// and its three most frequent link reasons.
func (g *linkGraph) cluster(gi int, ids []string, reasons map[string]int) Cluster {
	c := Cluster{Rank: gi + 1, Size: len(ids), InPeriod: g.inPeriod(ids)}
	classN := map[string]int{}
	orgs := map[string]bool{}
	minY, maxY := "", ""
	for _, id := range ids {
		n := g.nodes[id]
		classN[n.class]++
		orgs[n.org] = true
		if len(n.date) >= 4 {
			y := n.date[:4]
			if minY == "" || y < minY {
				minY = y
			}
			maxY = max(maxY, y)
		}
		c.Members = append(c.Members, Member{ID: id, Title: n.title, Org: n.org, Date: n.date, InPeriod: n.inPeriod})
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
	sort.SliceStable(c.Members, func(i, j int) bool {
		a, b := c.Members[i], c.Members[j]
		if a.InPeriod != b.InPeriod {
			return a.InPeriod
		}
		if a.Date != b.Date {
			return a.Date > b.Date
		}
		return a.ID < b.ID
	})
	switch {
	case minY == "":
	case minY == maxY:
		c.Span = minY
	default:
		c.Span = minY + " – " + maxY
	}
	c.Reasons = topReasons(reasons, 3)
	return c
}

// topReasons returns the n most frequent reasons, ties by text.
func topReasons(reasons map[string]int, n int) []ReasonCount {
	var out []ReasonCount
	for rs, k := range reasons {
		out = append(out, ReasonCount{Reason: rs, Links: k})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Links != out[j].Links {
			return out[i].Links > out[j].Links
		}
		return out[i].Reason < out[j].Reason
	})
	return out[:min(len(out), n)]
}

// draw lays out the graph to draw: whole clusters, largest first, while
// they fit in maxNodes; then the period's incidents in no cluster; and the
// links between drawn nodes, strongest first.
func (g *linkGraph) draw(groups [][]string, maxNodes int) ([]Node, []Edge) {
	var nodes []Node
	index := map[string]int{}
	add := func(id string, cluster int) {
		n := g.nodes[id]
		index[id] = len(nodes)
		nodes = append(nodes, Node{ID: id, Title: n.title, Org: n.org, Date: n.date, Class: n.class, InPeriod: n.inPeriod, Cluster: cluster})
	}
	for gi, ids := range groups {
		if len(nodes)+len(ids) > maxNodes {
			continue
		}
		for _, id := range ids {
			add(id, gi)
		}
	}
	clusterOf := clusterIndex(groups)
	for _, id := range g.order {
		if _, ok := clusterOf[id]; !ok && g.nodes[id].inPeriod && len(nodes) < maxNodes {
			add(id, -1)
		}
	}
	var edges []Edge
	for _, p := range g.pairs {
		a, okA := index[p.a]
		b, okB := index[p.b]
		if okA && okB {
			e := g.edges[p]
			edges = append(edges, Edge{From: a, To: b, Score: e.score, Reason: e.reason})
		}
	}
	return nodes, edges
}
