package store

import (
	"crypto/sha256"
	"database/sql/driver"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"sync/atomic"
	"time"

	"incidents/data/incident"
)

func caseSchema(v int) driver.Value {
	if v == 0 {
		return nil
	}
	return int32(v)
}

// encode returns the content hash of a case and the document stored for
// it. The document is exactly the JSON incident.ContentHash hashes (the
// case without hash, format, source file, schema and non-imported tags),
// so each case is marshalled once; those fields live in columns and the
// tags in core.tags. TestEncodeMatchesContentHash keeps the two in step.
func encode(in *incident.Incident) (string, []byte, error) {
	c := *in
	c.Hash, c.Format, c.SourceFile, c.Schema = "", "", "", 0
	c.Tags = nil
	for _, t := range in.Tags {
		if t.Origin == incident.Imported {
			c.Tags = append(c.Tags, t)
		}
	}
	b, err := json.Marshal(&c)
	if err != nil {
		return "", nil, err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), b, nil
}

// encChunk is the number of cases one encoder task handles.
const encChunk = 256

// encoder validates and encodes cases in parallel, in chunks that can be
// consumed in order as soon as each is ready.
type encoder struct {
	incs   []*incident.Incident
	hashes []string
	docs   [][]byte
	tags   [][]incident.Tag // each case's tags merged (incident.MergeTags)
	errs   []error
	done   []chan struct{}
}

func startEncoder(incs []*incident.Incident) *encoder {
	n := (len(incs) + encChunk - 1) / encChunk
	e := &encoder{incs: incs, hashes: make([]string, len(incs)), docs: make([][]byte, len(incs)), tags: make([][]incident.Tag, len(incs)), errs: make([]error, n), done: make([]chan struct{}, n)}
	for k := range e.done {
		e.done[k] = make(chan struct{})
	}
	var next atomic.Int64
	for w := min(runtime.GOMAXPROCS(0), n); w > 0; w-- {
		go func() {
			for {
				k := int(next.Add(1) - 1)
				if k >= n {
					return
				}
				e.errs[k] = e.chunk(k)
				close(e.done[k])
			}
		}()
	}
	return e
}

func (e *encoder) chunk(k int) error {
	for i := k * encChunk; i < min((k+1)*encChunk, len(e.incs)); i++ {
		in := e.incs[i]
		if err := incident.Validate(in); err != nil {
			if ie, ok := err.(*incident.Error); ok && ie.File == "" {
				return ie.At(in.SourceFile, 0)
			}
			return err
		}
		h, d, err := encode(in)
		if err != nil {
			return fmt.Errorf("case %s: %w", in.ID, err)
		}
		e.hashes[i], e.docs[i], e.tags[i] = h, d, incident.MergeTags(nil, in.Tags...)
	}
	return nil
}

// get waits for case i and returns its hash, document and merged tags.
func (e *encoder) get(i int) (string, []byte, []incident.Tag, error) {
	k := i / encChunk
	<-e.done[k]
	if e.errs[k] != nil {
		return "", nil, nil, e.errs[k]
	}
	return e.hashes[i], e.docs[i], e.tags[i], nil
}

// wait waits for every case and returns the first error in case order.
func (e *encoder) wait() error {
	for k := range e.done {
		<-e.done[k]
		if e.errs[k] != nil {
			return e.errs[k]
		}
	}
	return nil
}

func trace(what string) func(string) {
	if os.Getenv("STORE_TRACE") == "" {
		return func(string) {}
	}
	t, c := time.Now(), processCPU()
	return func(step string) {
		fmt.Fprintf(os.Stderr, "%s %s: %v (cpu %v)\n", what, step, time.Since(t), processCPU()-c)
		t, c = time.Now(), processCPU()
	}
}

// analysis runs a text analysis over the cases an upsert writes, in
// parallel, in chunks consumed in order as each is ready.
type analysis struct {
	key  string // the analysis's key (Analysis.Key)
	vecs [][]byte
	done []chan struct{}
}

// startAnalysis analyses incs[changed[k]] for every k with a's analysers
// on every CPU; nil when a is nil or there is nothing to analyse.
func startAnalysis(incs []*incident.Incident, changed []int, a *Analysis) *analysis {
	if a == nil || len(changed) == 0 {
		return nil
	}
	n := (len(changed) + encChunk - 1) / encChunk
	an := &analysis{key: a.Key, vecs: make([][]byte, len(changed)), done: make([]chan struct{}, n)}
	for k := range an.done {
		an.done[k] = make(chan struct{})
	}
	var next atomic.Int64
	for w := min(runtime.GOMAXPROCS(0), n); w > 0; w-- {
		analyse, done := a.New()
		go func() {
			if done != nil {
				defer done()
			}
			for {
				k := int(next.Add(1) - 1)
				if k >= n {
					return
				}
				for j := k * encChunk; j < min((k+1)*encChunk, len(changed)); j++ {
					an.vecs[j] = analyse(incs[changed[j]])
				}
				close(an.done[k])
			}
		}()
	}
	return an
}

// get waits for the analysis of the k-th changed case and hands it over.
func (an *analysis) get(k int) []byte {
	<-an.done[k/encChunk]
	v := an.vecs[k]
	an.vecs[k] = nil
	return v
}
