package data_test

import (
	"encoding/json"
	"io/fs"
	"strings"
	"testing"

	"incidents/data"
)

// Goals for the bundled related-case labels (labels/groups.yaml).
const (
	minGroups       = 40
	minGroupMembers = 2
	maxGroupMembers = 12
)

// bundledCaseIDs returns the id field of every bundled case file.
func bundledCaseIDs(t *testing.T) map[string]bool {
	t.Helper()
	fsys := data.Cases()
	names, err := fs.Glob(fsys, "*.json")
	if err != nil {
		t.Fatalf("glob cases: %v", err)
	}
	ids := make(map[string]bool, len(names))
	for _, name := range names {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			t.Fatalf("%s: read: %v", name, err)
		}
		var head struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(b, &head); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if head.ID == "" {
			t.Fatalf("%s: case has no id", name)
		}
		ids[head.ID] = true
	}
	return ids
}

// TestBundledGroups checks the bundled related-case groups against the
// bundled cases: they parse, there are enough of them, and every member is
// a real case listed once.
func TestBundledGroups(t *testing.T) {
	groups, err := data.Groups()
	if err != nil {
		t.Fatalf("Groups: %v", err)
	}
	if len(groups) < minGroups {
		t.Errorf("%d groups, want at least %d", len(groups), minGroups)
	}
	ids := bundledCaseIDs(t)
	for _, g := range groups {
		t.Run(g.ID, func(t *testing.T) {
			if strings.TrimSpace(g.Criterion) == "" {
				t.Errorf("empty criterion")
			}
			if n := len(g.Members); n < minGroupMembers || n > maxGroupMembers {
				t.Errorf("%d members, want %d to %d", n, minGroupMembers, maxGroupMembers)
			}
			seen := map[string]bool{}
			for _, m := range g.Members {
				if seen[m] {
					t.Errorf("member %q listed twice", m)
				}
				seen[m] = true
				if !ids[m] {
					t.Errorf("member %q is not a bundled case id", m)
				}
			}
		})
	}
	m := data.GroupMap(groups)
	if len(m) != len(groups) {
		t.Errorf("GroupMap has %d entries for %d groups", len(m), len(groups))
	}
}

// TestGroupsSorted checks that Groups returns the groups sorted by id.
func TestGroupsSorted(t *testing.T) {
	groups, err := data.Groups()
	if err != nil {
		t.Fatalf("Groups: %v", err)
	}
	for i := 1; i < len(groups); i++ {
		if groups[i-1].ID >= groups[i].ID {
			t.Errorf("groups out of order: %q before %q", groups[i-1].ID, groups[i].ID)
		}
	}
}

func TestParseGroups(t *testing.T) {
	tests := []struct {
		name    string
		doc     string
		wantErr string
		wantIDs []string
	}{
		{
			name: "valid, sorted by id",
			doc: `groups:
  - id: b
    criterion: "second"
    members: [x, y]
  - id: a
    criterion: "first"
    members: [y, z]
`,
			wantIDs: []string{"a", "b"},
		},
		{
			name:    "missing id",
			doc:     "groups:\n  - criterion: \"c\"\n    members: [x, y]\n",
			wantErr: "no id",
		},
		{
			name:    "duplicate id",
			doc:     "groups:\n  - id: a\n    criterion: \"c\"\n    members: [x, y]\n  - id: a\n    criterion: \"d\"\n    members: [x, y]\n",
			wantErr: "duplicate group id",
		},
		{
			name:    "missing criterion",
			doc:     "groups:\n  - id: a\n    members: [x, y]\n",
			wantErr: "no criterion",
		},
		{
			name:    "one member",
			doc:     "groups:\n  - id: a\n    criterion: \"c\"\n    members: [x]\n",
			wantErr: "at least two members",
		},
		{
			name:    "unknown field",
			doc:     "groups:\n  - id: a\n    criterion: \"c\"\n    members: [x, y]\n    colour: red\n",
			wantErr: "groups:",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := data.ParseGroups([]byte(tt.doc))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ParseGroups error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseGroups: %v", err)
			}
			if len(got) != len(tt.wantIDs) {
				t.Fatalf("got %d groups, want %d", len(got), len(tt.wantIDs))
			}
			for i, id := range tt.wantIDs {
				if got[i].ID != id {
					t.Errorf("group %d id = %q, want %q", i, got[i].ID, id)
				}
			}
		})
	}
}
