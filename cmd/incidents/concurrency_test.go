package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

const lockMessage = "in use by another process"

// relatedView is what 'related ID -o json' prints, reduced to what the
// test compares.
type relatedView struct {
	Source  string `json:"source"`
	Related []struct {
		ID   string `json:"id"`
		Rank int    `json:"rank"`
	} `json:"related"`
}

func (v relatedView) ids() string {
	var b strings.Builder
	for _, r := range v.Related {
		fmt.Fprintf(&b, "%d:%s ", r.Rank, r.ID)
	}
	return b.String()
}

var sourceGen = regexp.MustCompile(`^generation (\d+),`)

// TestReadersDuringRecompute runs 'related --recompute' repeatedly,
// alternating k=5 and k=10, while readers ('related ID -o json' and 'sql')
// run in other processes. DuckDB lets one process write a file, or several
// read it, never both: so every reader either reads one whole generation
// (the links of one k, the link count of the generation it names) or is
// refused with a message naming the lock; a recompute that finds a reader
// holding the file is refused the same way and changes nothing.
func TestReadersDuringRecompute(t *testing.T) {
	const caseID = "IL-0395"
	dir := t.TempDir()
	db := filepath.Join(dir, "c.duckdb")
	copyDB(t, bundledDB, db)
	mustRun(t, db, "ingest", icco)

	// Reference views of the case for k=5 and k=10.
	want := map[int]string{}
	for _, k := range []int{5, 10} {
		mustRun(t, db, "related", "--recompute", "-k", strconv.Itoa(k))
		v := readRelated(t, mustRun(t, db, "related", caseID, "-o", "json").stdout)
		if len(v.Related) != k {
			t.Fatalf("k=%d: %s has %d links", k, caseID, len(v.Related))
		}
		want[k] = v.ids()
	}

	writes := 6
	if testing.Short() {
		writes = 2
	}
	var (
		mu       sync.Mutex
		genLinks = map[int]int{} // generation -> total links, from the writer
		genK     = map[int]int{}
		stats    = map[string]int{}
		problems []string
	)
	fail := func(format string, args ...any) {
		mu.Lock()
		problems = append(problems, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	count := func(what string) { mu.Lock(); stats[what]++; mu.Unlock() }
	// The generations already stored: read them before the readers start.
	for _, line := range strings.Split(strings.TrimSpace(mustRun(t, db, "sql", "-o", "csv",
		`SELECT g.generation, count(l.from_id), json_extract(g.params, '$.k') FROM generations g LEFT JOIN core.links l ON l.generation = g.generation GROUP BY ALL`).stdout), "\n")[1:] {
		f := strings.Split(line, ",")
		g, _ := strconv.Atoi(f[0])
		genLinks[g], _ = strconv.Atoi(f[1])
		genK[g], _ = strconv.Atoi(f[2])
	}

	done := make(chan struct{})
	var wg sync.WaitGroup
	reader := func(name string, seed uint64, read func() error) {
		defer wg.Done()
		rng := rand.New(rand.NewPCG(seed, 1))
		for {
			select {
			case <-done:
				return
			default:
			}
			if err := read(); err != nil {
				fail("%s: %v", name, err)
			}
			time.Sleep(time.Duration(rng.Int64N(int64(150 * time.Millisecond))))
		}
	}
	var seen []struct{ gen, links int }
	wg.Add(2)
	go reader("related", 1, func() error {
		r := runBin(db, "related", caseID, "-o", "json")
		if r.code != 0 {
			return refusal("related", r, &mu, stats)
		}
		v := readRelated(t, r.stdout)
		m := sourceGen.FindStringSubmatch(v.Source)
		if m == nil {
			return fmt.Errorf("no generation in %q", v.Source)
		}
		g, _ := strconv.Atoi(m[1])
		mu.Lock()
		k := genK[g]
		mu.Unlock()
		if got := v.ids(); got != want[len(v.Related)] || (k != 0 && len(v.Related) != k) {
			return fmt.Errorf("generation %d (k=%d) shows %d links: %s", g, k, len(v.Related), got)
		}
		count("related ok")
		return nil
	})
	go reader("sql", 2, func() error {
		r := runBin(db, "sql", "-o", "csv", `SELECT (SELECT generation FROM generations WHERE current), (SELECT count(*) FROM related), (SELECT count(*) FROM generations WHERE current)`)
		if r.code != 0 {
			return refusal("sql", r, &mu, stats)
		}
		f := strings.Split(strings.Split(strings.TrimSpace(r.stdout), "\n")[1], ",")
		g, _ := strconv.Atoi(f[0])
		n, _ := strconv.Atoi(f[1])
		if f[2] != "1" {
			return fmt.Errorf("%s generations are current", f[2])
		}
		mu.Lock()
		seen = append(seen, struct{ gen, links int }{g, n})
		mu.Unlock()
		count("sql ok")
		return nil
	})

	// The writer: each recompute retries until the readers let it in.
	for i := 0; i < writes; i++ {
		k := []int{5, 10}[i%2]
		for attempt := 0; ; attempt++ {
			r := runBin(db, "related", "--recompute", "-k", strconv.Itoa(k))
			if r.code == 0 {
				var g, n, cases, kk int
				if _, err := fmt.Sscanf(r.stdout, "generation %d: %d links for %d cases (k=%d)", &g, &n, &cases, &kk); err != nil {
					t.Fatalf("recompute output %q: %v", r.stdout, err)
				}
				mu.Lock()
				genLinks[g], genK[g] = n, k
				mu.Unlock()
				count("recompute ok")
				break
			}
			if err := refusal("recompute", r, &mu, stats); err != nil {
				t.Fatal(err)
			}
			if attempt > 200 {
				t.Fatal("the recompute never got the database")
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	close(done)
	wg.Wait()
	for _, p := range problems {
		t.Error(p)
	}
	for _, s := range seen {
		if n, ok := genLinks[s.gen]; !ok || n != s.links {
			t.Errorf("sql saw generation %d with %d links; it was written with %d", s.gen, s.links, n)
		}
	}
	if stats["related ok"] == 0 || stats["sql ok"] == 0 {
		t.Errorf("the readers never read: %v", stats)
	}
	checkDB(t, db)
	t.Logf("outcomes: %v", stats)
}

// refusal accepts a run refused because another process holds the file
// (exit 4, a message naming the lock) and counts it; anything else is an
// error.
func refusal(what string, r result, mu *sync.Mutex, stats map[string]int) error {
	if r.code == 4 && strings.Contains(r.stderr, lockMessage) {
		mu.Lock()
		stats[what+" refused: locked"]++
		mu.Unlock()
		return nil
	}
	return fmt.Errorf("%s: exit %d: %s", what, r.code, r.stderr)
}

func readRelated(t *testing.T, out string) relatedView {
	var v relatedView
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Errorf("related -o json: %v: %q", err, out)
	}
	return v
}
