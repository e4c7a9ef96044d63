package similarity

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"incidents/data/gen"
	"incidents/data/incident"
	"incidents/similarity/textproc"
)

var benchCorpora sync.Map // n -> []*incident.Incident

func benchCases(n int) []*incident.Incident {
	if c, ok := benchCorpora.Load(n); ok {
		return c.([]*incident.Incident)
	}
	cases := gen.Generate(gen.Options{N: n, Seed: 42}).Cases
	benchCorpora.Store(n, cases)
	return cases
}

// BenchmarkAnalyzeCases is the tokenizer and filters over real-sized
// generated cases (bytes/s of case text).
func BenchmarkAnalyzeCases(b *testing.B) {
	cases := benchCases(2000)
	size := 0
	for _, c := range cases {
		for _, f := range fields(c) {
			size += len(f.text)
		}
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		a := textproc.NewAnalyzer(nil, false)
		for _, c := range cases {
			for _, f := range fields(c) {
				a.EachID(f.text, func(int32) {})
			}
		}
	}
}

// BenchmarkBuild is the vectoriser: analysis, vocabulary, TF-IDF vectors
// and both inverted indexes.
func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{10_000} {
		cases := benchCases(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				Build(cases, DefaultParams())
			}
		})
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func peakRSSMB() float64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Maxrss) / 1024 // Linux: KiB
}

// benchAllTopK reports wall and CPU time per case (the machine is shared,
// so CPU/2 is the figure for two idle cores).
func benchAllTopK(b *testing.B, n int) {
	ix := Build(benchCases(n), DefaultParams())
	b.ResetTimer()
	c0 := cpuTime()
	for b.Loop() {
		ix.AllTopK(context.Background(), 10, nil, nil)
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(n), "µs/case")
	b.ReportMetric(float64((cpuTime()-c0).Microseconds())/float64(b.N)/float64(n), "cpu-µs/case")
}

// BenchmarkScale is the recompute without the store: stream generated
// cases into a Builder (the corpus is never held whole, as with
// store.Each) and compute the top 10 of every case, at growing sizes.
// peak-MB is the process's peak RSS so far (run one size per process for
// a clean figure: -bench 'Scale/100000$').
func BenchmarkScale(b *testing.B) {
	for _, n := range []int{10_000, 30_000, 100_000, 300_000} {
		if testing.Short() && n > 10_000 {
			continue
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			c0 := cpuTime()
			for b.Loop() {
				bl := NewBuilder(DefaultParams())
				if err := gen.Each(gen.Options{N: n, Seed: 42}, func(in *incident.Incident) error {
					bl.Add(in)
					return nil
				}); err != nil {
					b.Fatal(err)
				}
				ix := bl.Index()
				ix.AllTopK(context.Background(), 10, nil, nil)
			}
			b.ReportMetric(float64((cpuTime()-c0).Milliseconds())/1000/float64(b.N), "cpu-s/op")
			b.ReportMetric(peakRSSMB(), "peak-MB")
		})
	}
}

func BenchmarkAllTopK10k(b *testing.B) { benchAllTopK(b, 10_000) }

func BenchmarkAllTopK100k(b *testing.B) {
	if testing.Short() {
		b.Skip("100k corpus in -short mode")
	}
	benchAllTopK(b, 100_000)
}

func BenchmarkRelated100k(b *testing.B) {
	if testing.Short() {
		b.Skip("100k corpus in -short mode")
	}
	cases := benchCases(100_000)
	ix := Build(cases, DefaultParams())
	i := 0
	for b.Loop() {
		ix.Related(cases[i%len(cases)].ID, 10)
		i += 7919
	}
}

// BenchmarkRecall100k reports the recall@10 of the default search against
// brute force on a 100k generated corpus (seed 7, 300 sampled queries), a
// measurement too slow for the test suite (TestApproximateRecall holds
// 10k and 30k to 0.99).
//
//	go test -run '^$' -bench Recall100k -benchtime 1x -timeout 30m ./similarity
func BenchmarkRecall100k(b *testing.B) {
	if testing.Short() {
		b.Skip("100k corpus in -short mode")
	}
	n := 100_000
	ix := Build(gen.Generate(gen.Options{N: n, Seed: 7}).Cases, DefaultParams())
	var r float64
	for b.Loop() {
		r = recallVsBrute(ix, 10, n/300)
	}
	b.ReportMetric(r, "recall@10")
}

// BenchmarkBuildPhases splits building an index over n generated cases
// held in memory into its phases, wall and CPU time each: analysing the
// text (tokenise, stem, concepts, field weights) or decoding the stored
// analyses instead, then the index (dictionary, df, vectors, events,
// inverted indexes); encode is what ingest adds to store the analyses.
//
//	go test -run '^$' -bench BuildPhases/100000 -benchtime 1x -timeout 30m ./similarity
func BenchmarkBuildPhases(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		if testing.Short() && n > 10_000 {
			continue
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			cases := gen.Generate(gen.Options{N: n, Seed: 7}).Cases
			p := DefaultParams()
			vecs := make([][]byte, n)
			w0, c0 := time.Now(), cpuTime()
			parallelRange(runtime.GOMAXPROCS(0), n, func(lo, hi int) {
				enc := NewTermEncoder(p)
				for i := lo; i < hi; i++ {
					vecs[i] = enc.Encode(cases[i])
				}
			})
			encWall, encCPU := time.Since(w0), cpuTime()-c0
			size := 0
			for _, v := range vecs {
				size += len(v)
			}
			lean := make([]*incident.Incident, n)
			for i, c := range cases {
				lean[i] = leanCopy(c)
			}
			var tok, dec, idx [2]time.Duration
			phase := func(acc *[2]time.Duration, fn func()) {
				w, c := time.Now(), cpuTime()
				fn()
				acc[0] += time.Since(w)
				acc[1] += cpuTime() - c
			}
			for b.Loop() {
				bl := NewBuilder(p)
				phase(&tok, func() {
					for _, c := range cases {
						bl.Add(c)
					}
					bl.wait()
				})
				phase(&idx, func() { bl.index() })
				bl = NewBuilder(p)
				phase(&dec, func() {
					for i, c := range lean {
						bl.AddAnalysed(c, vecs[i])
					}
					bl.wait()
				})
				bl.index()
			}
			per := func(d time.Duration) float64 { return d.Seconds() / float64(b.N) }
			b.ReportMetric(per(tok[0]), "tokenise-s")
			b.ReportMetric(per(tok[1]), "tokenise-cpu-s")
			b.ReportMetric(per(dec[0]), "decode-s")
			b.ReportMetric(per(dec[1]), "decode-cpu-s")
			b.ReportMetric(per(idx[0]), "index-s")
			b.ReportMetric(per(idx[1]), "index-cpu-s")
			b.ReportMetric(encWall.Seconds(), "encode-s")
			b.ReportMetric(encCPU.Seconds(), "encode-cpu-s")
			b.ReportMetric(float64(size)/float64(n), "stored-B/case")
		})
	}
}

// BenchmarkExact10k is the exact all-pairs top 10 (related --recompute
// --exact) over 10k generated cases, without the store.
//
//	go test -run '^$' -bench Exact10k -benchtime 1x ./similarity
func BenchmarkExact10k(b *testing.B) {
	p := DefaultParams()
	p.Exact = true
	ix := Build(benchCases(10_000), p)
	c0 := cpuTime()
	for b.Loop() {
		ix.AllTopK(context.Background(), 10, nil, nil)
	}
	b.ReportMetric((cpuTime()-c0).Seconds()/float64(b.N), "cpu-s/op")
}

// BenchmarkUpdateLinks is UpdateLinks after 1% new cases (the index of the
// whole corpus built, the older lists computed before them), the search
// alone: what `related --update` adds to reading the index.
//
//	go test -run '^$' -bench UpdateLinks/30000 -benchtime 3x ./similarity
func BenchmarkUpdateLinks(b *testing.B) {
	for _, n := range []int{30_000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			if testing.Short() && n > 30_000 {
				b.Skip("100k corpus in -short mode")
			}
			all := gen.Generate(gen.Options{N: n + n/100, Seed: 42}).Cases
			p := DefaultParams()
			stored := map[string][]string{}
			for id, ls := range Build(all[:n], p).AllTopK(context.Background(), 10, nil, nil) {
				for _, l := range ls {
					stored[id] = append(stored[id], l.To)
				}
			}
			ix := Build(all, p)
			var newIDs []string
			for _, c := range all[n:] {
				newIDs = append(newIDs, c.ID)
			}
			runtime.GC()
			c0 := cpuTime()
			changed := 0
			for b.Loop() {
				_, changed = UpdateLinks(ix, newIDs, stored, 10)
			}
			b.ReportMetric(float64((cpuTime()-c0).Milliseconds())/1000/float64(b.N), "cpu-s/op")
			b.ReportMetric(float64(changed), "lists-entered")
		})
	}
}
