package web_test

import (
	"context"
	"net/http/httptest"
	"os"
	"sync"
	"testing"

	"incidents/cmd/incidents/internal/engine"
	"incidents/cmd/incidents/internal/engine/enginetest"
	"incidents/cmd/incidents/internal/web"
)

var (
	benchOnce sync.Once
	benchSrv  *web.Server
	benchIDs  []string
)

// benchHandler serves the database named by INCIDENTS_LOADTEST_DB, or the
// bundled corpus; it is loaded once for all benchmarks of a run.
func benchHandler(b *testing.B) (*web.Server, []string) {
	benchOnce.Do(func() { benchSrv, benchIDs = loadBenchHandler(b) })
	if benchSrv == nil {
		b.Fatal("no handler")
	}
	return benchSrv, benchIDs
}

func loadBenchHandler(b *testing.B) (*web.Server, []string) {
	path := os.Getenv("INCIDENTS_LOADTEST_DB")
	if path == "" {
		dir, err := mkTemp()
		if err != nil {
			b.Fatal(err)
		}
		path = dir + "/b.duckdb"
		enginetest.Write(b, path, enginetest.Bundled(b))
	}
	e, err := engine.Open(context.Background(), engine.Options{Path: path, PollInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	h, err := web.New(web.Options{Engine: e})
	if err != nil {
		b.Fatal(err)
	}
	var ids []string
	for _, c := range e.Snapshot().Cases {
		ids = append(ids, c.ID)
	}
	return h, ids
}

// BenchmarkCasePage is the server-side cost of one case page.
func BenchmarkCasePage(b *testing.B) {
	h, ids := benchHandler(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", "/cases/"+ids[(i*7919)%len(ids)], nil))
		if w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
}

// BenchmarkSimilar is the server-side cost of one /similar query (k=10).
func BenchmarkSimilar(b *testing.B) {
	h, ids := benchHandler(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", "/api/cases/"+ids[(i*7919)%len(ids)]+"/similar?k=10", nil))
		if w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
}
