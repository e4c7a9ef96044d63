package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"

	"incidents/cmd/incidents/internal/engine"
	"incidents/cmd/incidents/internal/engine/enginetest"
	"incidents/cmd/incidents/internal/web"
)

var (
	benchOnce    sync.Once
	benchSrv     *web.Server
	benchNoCache *web.Server
	benchIDs     []string
)

// benchHandler serves the database named by INCIDENTS_LOADTEST_DB, or the
// bundled corpus; it is loaded once for all benchmarks of a run.
func benchHandler(b *testing.B) (cached, uncached *web.Server, ids []string) {
	benchOnce.Do(func() { benchSrv, benchNoCache, benchIDs = loadBenchHandler(b) })
	if benchSrv == nil {
		b.Fatal("no handler")
	}
	return benchSrv, benchNoCache, benchIDs
}

func loadBenchHandler(b *testing.B) (cached, uncached *web.Server, ids []string) {
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
	cached, err = web.New(web.Options{Engine: e})
	if err != nil {
		b.Fatal(err)
	}
	uncached, err = web.New(web.Options{Engine: e, PageCacheBytes: -1})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range e.Snapshot().Cases {
		ids = append(ids, c.ID)
	}
	return cached, uncached, ids
}

// serveN serves n GET requests of path(i) and reports the process CPU
// time per request, which a loaded machine disturbs less than wall time.
func serveN(b *testing.B, h http.Handler, path func(i int) string) {
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", path(i), nil))
		if w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkCasePage is the server-side cost of one case page, the cache of
// rendered pages on: every page is rendered once, then served from memory
// while the cache holds it.
func BenchmarkCasePage(b *testing.B) {
	h, _, ids := benchHandler(b)
	serveN(b, h, func(i int) string { return "/cases/" + ids[(i*7919)%len(ids)] })
}

// BenchmarkCasePageRender is the cost of rendering one case page (no
// cache).
func BenchmarkCasePageRender(b *testing.B) {
	_, h, ids := benchHandler(b)
	serveN(b, h, func(i int) string { return "/cases/" + ids[(i*7919)%len(ids)] })
}

// BenchmarkSimilar is the server-side cost of one /similar query (k=10,
// answered from the stored links of a current generation).
func BenchmarkSimilar(b *testing.B) {
	h, _, ids := benchHandler(b)
	serveN(b, h, func(i int) string { return "/api/cases/" + ids[(i*7919)%len(ids)] + "/similar?k=10" })
}

// BenchmarkSimilarComputed is /similar over the stored k, computed with the
// index.
func BenchmarkSimilarComputed(b *testing.B) {
	h, _, ids := benchHandler(b)
	serveN(b, h, func(i int) string { return "/api/cases/" + ids[(i*7919)%len(ids)] + "/similar?k=20" })
}
