package incident

import (
	"fmt"
	"testing"
)

func TestGroupEvents(t *testing.T) {
	ls := []Link{
		{To: "aws", Event: "AWS us-east-1, 2025-10-19"},
		{To: "x"},
		{To: "fastly", Event: "Fastly, 2021-06-08"},
		{To: "ld", Event: "AWS us-east-1, 2025-10-19"},
		{To: "aws", Event: "AWS us-east-1, 2025-10-19"}, // seen both ways: once
	}
	got := GroupEvents(ls, func(l Link) string { return l.Event }, func(l Link) string { return l.To })
	if s := fmt.Sprintf("%d %s %d %s %s %d", len(got), got[0].Event, len(got[0].Items), got[0].Items[1].To, got[1].Event, len(got[1].Items)); s != "2 AWS us-east-1, 2025-10-19 2 ld Fastly, 2021-06-08 1" {
		t.Errorf("groups: %s", s)
	}
	if g := GroupEvents([]Link{{To: "x"}}, func(l Link) string { return l.Event }, func(l Link) string { return l.To }); g != nil {
		t.Errorf("no events: %+v", g)
	}
}
