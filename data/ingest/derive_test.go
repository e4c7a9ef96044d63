package ingest

import (
	"strings"
	"testing"
)

// TestDerivationNotes: every format derives a missing TTD or TTR from its
// timestamps by the one rule (Incident.DeriveMissing, after parsing), and
// says so in one note naming the case and what was derived; an importer
// adds no note of its own about it. A span over a year is named as not
// derived. A CSV file gets one note for all its rows.
func TestDerivationNotes(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string // each in exactly one note
	}{
		{"case.json", `{"id": "d-1", "org": "Acme", "title": "Queue stalled", "start": "2024-05-01T10:00:00Z", "detected": "2024-05-01T10:20:00Z", "resolved": "2024-05-01T12:00:00Z"}`,
			[]string{"d-1: ttd and ttr derived from its timestamps"}},
		{"postmortem.md", "---\ntitle: Queue stalled\ncompany: Acme\nstart_time: 2024-05-01T10:00:00Z\nend_time: 2024-05-01T12:00:00Z\n---\nThe queue stalled.\n",
			[]string{": ttr derived from its timestamps"}},
		{"long.md", "---\ntitle: Queue stalled\ncompany: Acme\nstart_time: 2023-01-01T10:00:00Z\nend_time: 2024-05-01T12:00:00Z\n---\nThe queue stalled for months.\n",
			[]string{": ttr not derived from its timestamps: start to resolved is longer than a year"}},
		{"gcp.txt", "Summary:\n\nOn 5 April 2017 from 01:13 to 01:35 PDT, 25% of requests to the Google Cloud HTTP(S) Load Balancer failed with 502 errors. " +
			"Engineers were paged at 01:22 PDT and switched the master.\n",
			[]string{": ttd and ttr derived from its timestamps"}},
		{"export.csv", "id,org,title,start,detected,resolved,ttr_minutes\n" +
			"c-1,Acme,Queue stalled,2024-05-01T10:00:00Z,2024-05-01T10:20:00Z,2024-05-01T12:00:00Z,\n" +
			"c-2,Acme,Queue stalled again,2024-05-02T10:00:00Z,,2024-05-02T12:00:00Z,90\n",
			[]string{"export.csv: derived from the timestamps: ttd of 1 row, ttr of 1 row"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := ParseChecked(Input{Name: tc.name, Data: []byte(tc.body)}, "")
			if err != nil {
				t.Fatal(err)
			}
			all := strings.Join(res.Notes, "\n")
			for _, w := range tc.want {
				if n := strings.Count(all, w); n != 1 {
					t.Errorf("%q in %d notes, want 1:\n%s", w, n, all)
				}
			}
			if strings.Contains(all, "(derived)") || strings.Count(all, "derived") != 1 {
				t.Errorf("more than one note on derivation:\n%s", all)
			}
		})
	}
}

// TestTTDAboveTTRNoted: a TTD above the TTR is kept, with a note naming
// the case and the two figures (one note for a CSV file).
func TestTTDAboveTTRNoted(t *testing.T) {
	for name, want := range map[string]string{
		"late.json": "late-1: ttd 45m is above ttr 30m",
		"late.csv":  "late.csv: ttd above ttr (detected after resolved) in 1 row: late-1",
	} {
		body := `{"id": "late-1", "org": "Acme", "title": "Queue stalled", "ttd": {"minutes": 45, "source": "given"}, "ttr": {"minutes": 30, "source": "given"}}`
		if strings.HasSuffix(name, ".csv") {
			body = "id,org,title,ttd_minutes,ttr_minutes\nlate-1,Acme,Queue stalled,45,30\nok-1,Acme,Queue stalled again,5,30\n"
		}
		res, err := ParseChecked(Input{Name: name, Data: []byte(body)}, "")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if all := strings.Join(res.Notes, "\n"); strings.Count(all, want) != 1 || strings.Contains(all, "ok-1") {
			t.Errorf("%s: notes lack %q once:\n%s", name, want, all)
		}
	}
}

// TestStatedDurationDisagreeNoted: a stated TTR that the case's own start
// and end contradict is kept, with a note (one for a CSV file, naming its
// rows); a stated TTR the times agree with gets none.
func TestStatedDurationDisagreeNoted(t *testing.T) {
	for name, want := range map[string]string{
		"pm.json":    "pm-1: ttr 5m stated, start to resolved 1h; the stated one is kept",
		"export.csv": "export.csv: a stated ttd or ttr differs from the row's own times in 1 row: pm-1; the stated figures are kept",
		"note.txt":   ": ttr 2h stated, start to resolved 1h; the stated one is kept",
	} {
		body := `{"id": "pm-1", "org": "Acme", "title": "Queue stalled", "start": "2024-05-01T10:00:00Z", "resolved": "2024-05-01T11:00:00Z", "ttr": {"minutes": 5, "source": "given"}}`
		switch {
		case strings.HasSuffix(name, ".csv"):
			body = "id,org,title,start,resolved,ttr_minutes\npm-1,Acme,Queue stalled,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,5\n" +
				"ok-1,Acme,Queue stalled again,2024-05-02T10:00:00Z,2024-05-02T11:00:00Z,60\n"
		case strings.HasSuffix(name, ".txt"):
			body = "Incident Report\n\nSummary:\n\nThe Acme API gateway returned errors to customers.\n\nIncident Start: 2 Mar 2021 10:00 UTC\nIncident End: 2 Mar 2021 11:00 UTC\nDuration: 2 hours\n"
		}
		res, err := ParseChecked(Input{Name: name, Data: []byte(body)}, "")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if all := strings.Join(res.Notes, "\n"); strings.Count(all, want) != 1 || strings.Contains(all, "ok-1") {
			t.Errorf("%s: notes lack %q once:\n%s", name, want, all)
		}
		if c := res.Incidents[0]; c.TTR == nil || c.TTR.Minutes == 60 {
			t.Errorf("%s: the stated ttr was not kept: %v", name, c.TTR)
		}
	}
}
