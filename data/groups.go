package data

import (
	"fmt"
	"io/fs"
	"sort"

	"incidents/data/safeyaml"
)

// Group is a hand-made set of cases an analyst would call related, with the
// one-line criterion that admits a case to it.
type Group struct {
	ID        string   `yaml:"id" json:"id"`
	Criterion string   `yaml:"criterion" json:"criterion"`
	Members   []string `yaml:"members" json:"members"`
}

type groupsFile struct {
	Groups []Group `yaml:"groups"`
}

// GroupsFile is the name of the related-case labels under labels/.
const GroupsFile = "groups.yaml"

// Groups returns the bundled related-case groups, sorted by id.
func Groups() ([]Group, error) {
	b, err := fs.ReadFile(Labels(), GroupsFile)
	if err != nil {
		return nil, fmt.Errorf("bundled labels: %w", err)
	}
	return ParseGroups(b)
}

// ParseGroups reads a groups document; ids must be unique and each group
// needs a criterion and at least two members.
func ParseGroups(b []byte) ([]Group, error) {
	var f groupsFile
	doc := safeyaml.Doc{Name: GroupsFile, What: "related-case labels", Strict: true,
		Hint: "groups: a list of {id, criterion, members: [case ids]}"}
	if err := safeyaml.Unmarshal(doc, b, &f); err != nil {
		return nil, fmt.Errorf("groups: %w", err)
	}
	seen := map[string]bool{}
	for _, g := range f.Groups {
		switch {
		case g.ID == "":
			return nil, fmt.Errorf("groups: a group has no id")
		case seen[g.ID]:
			return nil, fmt.Errorf("groups: duplicate group id %q", g.ID)
		case g.Criterion == "":
			return nil, fmt.Errorf("groups: group %q has no criterion", g.ID)
		case len(g.Members) < 2:
			return nil, fmt.Errorf("groups: group %q needs at least two members", g.ID)
		}
		seen[g.ID] = true
	}
	sort.Slice(f.Groups, func(i, j int) bool { return f.Groups[i].ID < f.Groups[j].ID })
	return f.Groups, nil
}

// GroupMap returns group id -> member ids.
func GroupMap(groups []Group) map[string][]string {
	m := make(map[string][]string, len(groups))
	for _, g := range groups {
		m[g.ID] = g.Members
	}
	return m
}
