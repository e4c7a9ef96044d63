package gen

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"

	"incidents/data/incident"
)

// Options choose the size and shape of a corpus. Zero fields take defaults.
type Options struct {
	N           int   // number of cases (default 1000)
	Seed        int64 // same seed, same corpus
	ClusterSize int   // members of each planted cluster (default 8, minimum 2)
	StartYear   int   // first year of incident start times (default 2015)
	EndYear     int   // last year, inclusive (default 2025)
}

// Defaults.
const (
	DefaultN           = 1000
	DefaultClusterSize = 8
	DefaultStartYear   = 2015
	DefaultEndYear     = 2025
	// ClusteredShare is the share of cases placed in clusters; the rest are
	// singletons with a failure mode of their own.
	ClusteredShare = 0.75
)

// Normalize returns opt with defaults filled in and values made sane.
func (opt Options) Normalize() Options {
	if opt.N <= 0 {
		opt.N = DefaultN
	}
	if opt.ClusterSize == 0 {
		opt.ClusterSize = DefaultClusterSize
	}
	if opt.ClusterSize < 2 {
		opt.ClusterSize = 2
	}
	if opt.StartYear == 0 {
		opt.StartYear = DefaultStartYear
	}
	if opt.EndYear == 0 {
		opt.EndYear = DefaultEndYear
	}
	if opt.EndYear < opt.StartYear {
		opt.EndYear = opt.StartYear
	}
	return opt
}

// Corpus is a whole generated corpus with its ground truth.
type Corpus struct {
	Cases []*incident.Incident
	// Clusters maps a cluster id ("C00001") to its member case ids in id
	// order. Singletons are in no cluster.
	Clusters map[string][]string
}

// Generate builds the whole corpus in memory. Use Each for large corpora.
func Generate(opt Options) *Corpus {
	p := NewPlan(opt)
	c := &Corpus{Cases: make([]*incident.Incident, 0, p.opt.N), Clusters: p.Clusters()}
	_ = p.Each(func(in *incident.Incident) error {
		c.Cases = append(c.Cases, in)
		return nil
	})
	return c
}

// Each generates the cases of opt in id order and calls fn for each; it
// stops at fn's first error and returns it. The cluster membership of the
// same options is Clusters(opt) (or NewPlan(opt).Clusters()).
func Each(opt Options, fn func(*incident.Incident) error) error {
	return NewPlan(opt).Each(fn)
}

// Clusters returns the planted clusters of opt without generating any text.
func Clusters(opt Options) map[string][]string { return NewPlan(opt).Clusters() }

// CaseID is the id of the i-th case (0-based): "GEN-0000001".
func CaseID(i int) string { return fmt.Sprintf("GEN-%07d", i+1) }

// ClusterID is the id of the k-th cluster (0-based): "C00001".
func ClusterID(k int) string { return fmt.Sprintf("C%05d", k+1) }

// Plan is the layout of a corpus: which case belongs to which cluster and
// what each cluster's failure mode is. Making one is cheap (no text).
type Plan struct {
	opt       Options
	clusterOf []int32   // case index -> cluster index, -1 for singletons
	members   [][]int32 // cluster index -> case indexes, ascending
	profiles  []profile // cluster index -> failure mode
	syll      int       // syllables of distinctive words
	wordOff   int       // seed-dependent offset into the distinctive words
}

// words returns the distinctive-word source of a profile starting at index base.
func (p *Plan) words(base int) func(j int) string {
	m := distinctSpace(p.syll)
	return func(j int) string { return distinctWord((p.wordOff+base+j)%m, p.syll) }
}

// NewPlan lays out the corpus of opt.
func NewPlan(opt Options) *Plan {
	opt = opt.Normalize()
	p := &Plan{opt: opt}
	n, size := opt.N, opt.ClusterSize
	k := int(float64(n)*ClusteredShare) / size
	r := rand.New(rand.NewPCG(uint64(opt.Seed), 0x9e3779b97f4a7c15))
	perm := r.Perm(n)
	p.clusterOf = make([]int32, n)
	for i := range p.clusterOf {
		p.clusterOf[i] = -1
	}
	p.members = make([][]int32, k)
	for c := 0; c < k; c++ {
		m := make([]int32, size)
		for j := 0; j < size; j++ {
			m[j] = int32(perm[c*size+j])
		}
		sortInt32(m)
		p.members[c] = m
		for _, i := range m {
			p.clusterOf[i] = int32(c)
		}
	}
	v := getVocab()
	// Distinctive words: clusters take indexes [0, 5k), singleton case i
	// takes 5k+5i onwards, so no two profiles share one.
	p.syll = 2
	if wordsPerProfile*(k+n) > distinctSpace(2) {
		p.syll = 3
	}
	p.wordOff = int(uint64(opt.Seed) % uint64(distinctSpace(p.syll)))
	p.profiles = make([]profile, k)
	for c := 0; c < k; c++ {
		cr := rand.New(rand.NewPCG(uint64(opt.Seed), uint64(c)|1<<62))
		p.profiles[c] = newProfile(cr, v, true, p.words(c*wordsPerProfile))
	}
	return p
}

// Options returns the normalised options of the plan.
func (p *Plan) Options() Options { return p.opt }

// Clusters returns cluster id -> member case ids.
func (p *Plan) Clusters() map[string][]string {
	out := make(map[string][]string, len(p.members))
	for c, m := range p.members {
		ids := make([]string, len(m))
		for j, i := range m {
			ids[j] = CaseID(int(i))
		}
		out[ClusterID(c)] = ids
	}
	return out
}

// ClusterOf returns the cluster id of case i, or "" for a singleton.
func (p *Plan) ClusterOf(i int) string {
	if c := p.clusterOf[i]; c >= 0 {
		return ClusterID(int(c))
	}
	return ""
}

// Case generates case i alone.
func (p *Plan) Case(i int) *incident.Incident {
	return p.build(i)
}

// Each generates every case in id order, in parallel across the available
// processors, and calls fn for each from one goroutine.
func (p *Plan) Each(fn func(*incident.Incident) error) error {
	n := p.opt.N
	workers := runtime.GOMAXPROCS(0)
	if workers > 8 {
		workers = 8
	}
	if workers <= 1 || n < 64 {
		for i := 0; i < n; i++ {
			if err := fn(p.build(i)); err != nil {
				return err
			}
		}
		return nil
	}
	const chunk = 256
	type batch struct {
		out  []*incident.Incident
		done chan struct{}
	}
	nb := (n + chunk - 1) / chunk
	batches := make(chan *batch, workers*2)
	jobs := make(chan struct {
		b    *batch
		from int
	}, workers*2)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				to := min(j.from+chunk, n)
				for i := j.from; i < to; i++ {
					j.b.out = append(j.b.out, p.build(i))
				}
				close(j.b.done)
			}
		}()
	}
	go func() {
		defer close(batches)
		defer close(jobs)
		for k := 0; k < nb; k++ {
			b := &batch{out: make([]*incident.Incident, 0, chunk), done: make(chan struct{})}
			select {
			case batches <- b:
			case <-stop:
				return
			}
			jobs <- struct {
				b    *batch
				from int
			}{b, k * chunk}
		}
	}()
	var err error
	for b := range batches {
		<-b.done
		if err != nil {
			continue
		}
		for _, in := range b.out {
			if err = fn(in); err != nil {
				close(stop)
				break
			}
		}
	}
	wg.Wait()
	return err
}

func sortInt32(a []int32) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}
