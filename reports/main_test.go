package reports

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"incidents/data"
	"incidents/data/incident"
	"incidents/data/store"
	"incidents/similarity"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// asOf fixes "now" for the tests, so the default quarter does not move.
var asOf = time.Date(2026, 1, 15, 0, 0, 0, 0, time.UTC)

var (
	bundledOnce  sync.Once
	bundledPath  string
	bundledErr   error
	bundledSt    *store.Store
	bundledCases int
	tempRoot     string
)

func TestMain(m *testing.M) {
	flag.Parse()
	var err error
	tempRoot, err = os.MkdirTemp("", "reports-test-")
	if err != nil {
		panic(err)
	}
	code := m.Run()
	if bundledSt != nil {
		bundledSt.Close()
	}
	os.RemoveAll(tempRoot)
	os.Exit(code)
}

// bundledCorpus parses every bundled case file.
func bundledCorpus() ([]*incident.Incident, error) { return data.BundledCases() }

// loadStore ingests cases into a new database at p and computes the
// related links of every case with the similarity package.
func loadStore(ctx context.Context, p string, cases []*incident.Incident) error {
	st, err := store.Open(ctx, p, store.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := st.Upsert(ctx, cases, store.RunInfo{Source: "test", Started: asOf}); err != nil {
		return err
	}
	stored, err := st.List(ctx, store.Filter{})
	if err != nil {
		return err
	}
	idx := similarity.Build(stored, similarity.DefaultParams())
	links := idx.AllTopK(ctx, similarity.DefaultK, nil, nil)
	_, err = st.WriteGeneration(ctx, store.Generation{CreatedAt: asOf, Cases: len(stored)}, links)
	return err
}

// bundledStore returns the database holding the bundled corpus with related
// links recomputed; it is built once per test run and shared.
func bundledStore(t testing.TB) *store.Store {
	t.Helper()
	bundledOnce.Do(func() {
		cases, err := bundledCorpus()
		if err != nil {
			bundledErr = err
			return
		}
		bundledCases = len(cases)
		bundledPath = filepath.Join(tempRoot, "bundled.duckdb")
		if bundledErr = loadStore(context.Background(), bundledPath, cases); bundledErr != nil {
			return
		}
		bundledSt, bundledErr = store.Open(context.Background(), bundledPath, store.Options{ReadOnly: true})
	})
	if bundledErr != nil {
		t.Fatalf("loading the bundled corpus: %v", bundledErr)
	}
	return bundledSt
}
