package gen

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"incidents/data/incident"
	"incidents/taxonomy"
)

// corpusHash hashes the case documents of opt in order.
func corpusHash(t *testing.T, opt Options) string {
	t.Helper()
	h := sha256.New()
	err := Each(opt, func(in *incident.Incident) error {
		b, err := MarshalCase(in)
		h.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := MarshalClusters(Clusters(opt))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

func TestDeterministic(t *testing.T) {
	opt := Options{N: 700, Seed: 42}
	a := corpusHash(t, opt)
	if b := corpusHash(t, opt); a != b {
		t.Fatalf("same options gave different corpora: %s vs %s", a, b)
	}
	// The parallel and the serial path must agree.
	prev := runtime.GOMAXPROCS(1)
	serial := corpusHash(t, opt)
	runtime.GOMAXPROCS(prev)
	if serial != a {
		t.Fatalf("serial generation differs from parallel: %s vs %s", serial, a)
	}
	if c := corpusHash(t, Options{N: 700, Seed: 43}); c == a {
		t.Fatal("a different seed gave the same corpus")
	}
	// Case i is the same whether generated alone or in a stream.
	p := NewPlan(opt)
	var nth *incident.Incident
	_ = p.Each(func(in *incident.Incident) error {
		if in.ID == CaseID(500) {
			nth = in
		}
		return nil
	})
	x, _ := MarshalCase(nth)
	y, _ := MarshalCase(p.Case(500))
	if string(x) != string(y) {
		t.Fatal("Plan.Case differs from the streamed case")
	}
}

func TestGenerateMatchesEach(t *testing.T) {
	opt := Options{N: 300, Seed: 5, ClusterSize: 4}
	c := Generate(opt)
	if len(c.Cases) != 300 {
		t.Fatalf("got %d cases, want 300", len(c.Cases))
	}
	i := 0
	_ = Each(opt, func(in *incident.Incident) error {
		a, _ := MarshalCase(in)
		b, _ := MarshalCase(c.Cases[i])
		if string(a) != string(b) {
			t.Fatalf("case %d differs between Generate and Each", i)
		}
		i++
		return nil
	})
	if len(c.Clusters) != int(300*ClusteredShare)/4 {
		t.Fatalf("got %d clusters, want %d", len(c.Clusters), int(300*ClusteredShare)/4)
	}
}

func TestCasesValidAndTagged(t *testing.T) {
	vocab := taxonomy.Default()
	ids := map[string]bool{}
	err := Each(Options{N: 3000, Seed: 9}, func(in *incident.Incident) error {
		if err := incident.Validate(in); err != nil {
			t.Fatalf("%s: %v", in.ID, err)
		}
		if ids[in.ID] {
			t.Fatalf("duplicate id %s", in.ID)
		}
		ids[in.ID] = true
		facets := map[incident.Facet]bool{}
		for _, tg := range in.Tags {
			if tg.Origin != incident.Human {
				t.Fatalf("%s: tag %v is not human", in.ID, tg)
			}
			if vocab.Term(tg.Facet, tg.Term) == nil {
				t.Fatalf("%s: tag term %s:%s is not in the vocabulary", in.ID, tg.Facet, tg.Term)
			}
			facets[tg.Facet] = true
		}
		if !facets[incident.RootCause] {
			t.Fatalf("%s has no root cause tag", in.ID)
		}
		for name, s := range map[string]string{"title": in.Title, "summary": in.Summary, "symptoms": in.Symptoms,
			"root_cause": in.RootCause, "trigger": in.Trigger, "detection": in.Detection} {
			if strings.TrimSpace(s) == "" || strings.Contains(s, "$") || strings.ContainsAny(s, "{}[]|") {
				t.Fatalf("%s: field %s is empty or has template residue: %q", in.ID, name, s)
			}
		}
		if strings.HasSuffix(in.Title, ".") {
			t.Fatalf("%s: title ends with a full stop: %q", in.ID, in.Title)
		}
		if len(in.Remediation) == 0 || len(in.ActionItems) < 2 {
			t.Fatalf("%s: remediation %d, action items %d", in.ID, len(in.Remediation), len(in.ActionItems))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestNarrativeLength(t *testing.T) {
	var counts []int
	_ = Each(Options{N: 2000, Seed: 11}, func(in *incident.Incident) error {
		n := len(strings.Fields(in.Narrative))
		if n < MinWords || n > MaxWords {
			t.Errorf("%s: narrative has %d words, want %d..%d", in.ID, n, MinWords, MaxWords)
		}
		if strings.Contains(in.Narrative, "$") || strings.Contains(in.Narrative, "  ") {
			t.Errorf("%s: narrative has template residue or double spaces", in.ID)
		}
		counts = append(counts, n)
		return nil
	})
	sort.Ints(counts)
	if med := counts[len(counts)/2]; med < 200 || med > 400 {
		t.Errorf("median narrative length %d words, want 200..400", med)
	}
	if spread := counts[len(counts)*9/10] - counts[len(counts)/10]; spread < 60 {
		t.Errorf("narrative lengths barely vary (p90-p10 = %d words)", spread)
	}
}

func TestDurationsAndTimes(t *testing.T) {
	const n = 20000
	var ttr []float64
	var ttdUnknown, ttrUnknown int
	var sum float64
	quarters := map[string]int{}
	early, late := 0, 0
	err := Each(Options{N: n, Seed: 3}, func(in *incident.Incident) error {
		if in.Start == nil {
			t.Fatalf("%s has no start", in.ID)
		}
		if in.Start.Year() < DefaultStartYear || in.Start.Year() > DefaultEndYear {
			t.Fatalf("%s starts in %d", in.ID, in.Start.Year())
		}
		quarters[in.Quarter()]++
		if in.Start.Year() <= 2017 {
			early++
		} else if in.Start.Year() >= 2023 {
			late++
		}
		if in.TTD == nil {
			ttdUnknown++
			if in.Detected != nil {
				t.Fatalf("%s: detected set with unknown TTD", in.ID)
			}
		} else if !in.Detected.Equal(in.Start.Add(in.TTD.Std())) {
			t.Fatalf("%s: detected %v is not start + TTD %v", in.ID, in.Detected, in.TTD.Minutes)
		}
		if in.TTR == nil {
			ttrUnknown++
			if in.Resolved != nil {
				t.Fatalf("%s: resolved set with unknown TTR", in.ID)
			}
			return nil
		}
		if !in.Resolved.Equal(in.Start.Add(in.TTR.Std())) {
			t.Fatalf("%s: resolved %v is not start + TTR %v", in.ID, in.Resolved, in.TTR.Minutes)
		}
		if in.TTD != nil && in.TTD.Minutes > in.TTR.Minutes {
			t.Fatalf("%s: TTD %v exceeds TTR %v", in.ID, in.TTD.Minutes, in.TTR.Minutes)
		}
		if in.Mitigated != nil && (in.Mitigated.Before(*in.Detected) || in.Mitigated.After(*in.Resolved)) {
			t.Fatalf("%s: mitigated outside detected..resolved", in.ID)
		}
		ttr = append(ttr, in.TTR.Minutes)
		sum += in.TTR.Minutes
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Float64s(ttr)
	median := ttr[len(ttr)/2]
	mean := sum / float64(len(ttr))
	t.Logf("TTR median %.0f min (%.2f h), mean %.0f min (%.2f h), ratio %.2f", median, median/60, mean, mean/60, mean/median)
	if median < 2.8*60 || median > 4.3*60 {
		t.Errorf("median TTR %.2f h, want about 3.5 h", median/60)
	}
	if r := mean / median; r < 2.5 || r > 3.6 {
		t.Errorf("mean/median TTR %.2f, want about 3", r)
	}
	if f := float64(ttdUnknown) / n; math.Abs(f-unknownTTD) > 0.015 {
		t.Errorf("TTD unknown share %.3f, want %.2f", f, unknownTTD)
	}
	if f := float64(ttrUnknown) / n; math.Abs(f-unknownTTR) > 0.015 {
		t.Errorf("TTR unknown share %.3f, want %.2f", f, unknownTTR)
	}
	if len(quarters) != 44 {
		t.Errorf("cases span %d quarters, want all 44 of 2015-2025", len(quarters))
	}
	if late <= early {
		t.Errorf("no upward trend: %d cases in 2015-2017, %d in 2023-2025", early, late)
	}
}

func TestStartYearRange(t *testing.T) {
	for _, tc := range []struct{ from, to int }{{2020, 2020}, {2018, 2024}} {
		_ = Each(Options{N: 200, Seed: 1, StartYear: tc.from, EndYear: tc.to}, func(in *incident.Incident) error {
			if y := in.Start.Year(); y < tc.from || y > tc.to {
				t.Errorf("%d-%d: %s starts in %d", tc.from, tc.to, in.ID, y)
			}
			if in.Date != in.Start.Format(time.DateOnly) {
				t.Errorf("%s: date %s does not match start %s", in.ID, in.Date, in.Start)
			}
			return nil
		})
	}
}

func TestTidyCountsWords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"  hello   world ", "Hello world."},
		{"a , b .", "A, b."},
		{"done.", "Done."},
		{"x [] , y", "X [], y."},
		{"", ""},
	} {
		b, n := tidyCount([]byte(tc.in), 0)
		if string(b) != tc.want || n != countWords(b) {
			t.Errorf("tidyCount(%q) = %q, %d words; want %q, %d", tc.in, b, n, tc.want, countWords([]byte(tc.want)))
		}
	}
}
