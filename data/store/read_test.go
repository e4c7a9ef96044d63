package store

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"incidents/data/incident"
)

func TestListFilters(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	a := minimal("A", "Google", "2017-04-05")
	a.Tags = []incident.Tag{{Facet: incident.RootCause, Term: "capacity/cpu", Origin: incident.Imported}}
	b := minimal("B", "Amazon", "2018-06")
	b.Tags = []incident.Tag{{Facet: incident.RootCause, Term: "capacity", Origin: incident.Imported}}
	c := minimal("C", "google", "2019")
	d := minimal("D", "Acme", "")
	e := minimal("E", "Acme", "2017-01-01")
	mustUpsert(t, s, d, c, b, a, e)
	ids := func(f Filter) []string {
		t.Helper()
		l, err := s.List(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, in := range l {
			out = append(out, in.ID)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		f    Filter
		want []string
	}{
		{"all by date, undated last", Filter{}, []string{"E", "A", "B", "C", "D"}},
		{"since", Filter{Since: "2017-04-05"}, []string{"A", "B", "C"}},
		{"until inclusive", Filter{Until: "2017-04-05"}, []string{"E", "A"}},
		{"until month", Filter{Until: "2018-06"}, []string{"E", "A", "B"}},
		{"until year", Filter{Since: "2018", Until: "2018"}, []string{"B"}},
		{"org any case", Filter{Org: "GOOGLE"}, []string{"A", "C"}},
		{"ids", Filter{IDs: []string{"D", "B"}}, []string{"B", "D"}},
		{"term matches subclasses", Filter{Facet: incident.RootCause, Term: "capacity"}, []string{"A", "B"}},
		{"subclass only", Filter{Term: "capacity/cpu"}, []string{"A"}},
		{"limit offset", Filter{Limit: 2, Offset: 1}, []string{"A", "B"}},
	} {
		if got := ids(tc.f); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	if _, err := s.List(ctx, Filter{Since: "April"}); incident.KindOf(err) != incident.ErrInvalid {
		t.Fatalf("bad date: %v", err)
	}
	// Each stops at the callback's error.
	n := 0
	stop := incident.Errorf(incident.ErrInvalid, "stop")
	if err := s.Each(ctx, Filter{}, func(*incident.Incident) error { n++; return stop }); err != stop || n != 1 {
		t.Fatalf("Each: %v after %d", err, n)
	}
	if got, _ := s.Count(ctx); got != 5 {
		t.Fatalf("count %d", got)
	}
	// A case stored before organisations were stored trimmed, with single
	// spaces, is found by the spelling it has today, and counted as one
	// organisation with it (OrgKeySQL).
	if _, err := s.DB().ExecContext(ctx, `UPDATE core.incidents SET org = ' GOOGLE ' WHERE id = 'C'`); err != nil {
		t.Fatal(err)
	}
	if got := ids(Filter{Org: "google"}); !reflect.DeepEqual(got, []string{"A", "C"}) {
		t.Errorf("org filter over an old spelling: %v, want [A C]", got)
	}
	if sm, err := s.Summary(ctx); err != nil || sm.Orgs != 3 {
		t.Errorf("summary counts %v organisations (err %v), want 3", sm.Orgs, err)
	}
	// List returns tags and hashes like Get.
	l, _ := s.List(ctx, Filter{IDs: []string{"A"}})
	g, _ := s.Get(ctx, "A")
	if !reflect.DeepEqual(l[0], g) {
		t.Fatalf("List %+v != Get %+v", l[0], g)
	}
}

// TestEachManyBatches streams more cases than one decode batch holds and
// checks order, tags and early stop.
func TestEachManyBatches(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	var batch []*incident.Incident
	for i := 0; i < 1000; i++ {
		in := minimal(fmt.Sprintf("M-%04d", i), "Org", fmt.Sprintf("2020-%02d-%02d", 1+i%12, 1+i%28))
		if i%3 == 0 {
			in.Tags = []incident.Tag{{Facet: incident.Symptom, Term: "timeouts", Origin: incident.Imported}, {Facet: incident.Trigger, Raw: in.ID, Origin: incident.Imported}}
		}
		batch = append(batch, in)
	}
	mustUpsert(t, s, batch...)
	var prev *incident.Incident
	n := 0
	err := s.Each(ctx, Filter{}, func(in *incident.Incident) error {
		n++
		if prev != nil && (prev.Date > in.Date || prev.Date == in.Date && prev.ID >= in.ID) {
			t.Fatalf("out of order: %s %s then %s %s", prev.Date, prev.ID, in.Date, in.ID)
		}
		var i int
		fmt.Sscanf(in.ID, "M-%d", &i)
		if want := map[bool]int{true: 2, false: 0}[i%3 == 0]; len(in.Tags) != want || want > 0 && in.Tags[1].Raw != in.ID {
			t.Fatalf("%s has tags %+v", in.ID, in.Tags)
		}
		prev = in
		return nil
	})
	if err != nil || n != 1000 {
		t.Fatalf("%d cases, %v", n, err)
	}
	n = 0
	stop := fmt.Errorf("stop")
	if err := s.Each(ctx, Filter{}, func(*incident.Incident) error {
		if n++; n == 300 {
			return stop
		}
		return nil
	}); err != stop || n != 300 {
		t.Fatalf("early stop: %v after %d", err, n)
	}
	// A cancelled context stops the stream with its error.
	cctx, cancel := context.WithCancel(ctx)
	n = 0
	err = s.Each(cctx, Filter{}, func(*incident.Incident) error {
		if n++; n == 10 {
			cancel()
		}
		return nil
	})
	if err == nil || n >= 1000 {
		t.Fatalf("cancel: %v after %d", err, n)
	}
}
