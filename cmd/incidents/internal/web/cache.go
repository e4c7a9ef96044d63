package web

import (
	"bytes"
	"container/list"
	"sync"
)

// DefaultPageCacheBytes bounds the rendered case pages kept in memory.
const DefaultPageCacheBytes = 64 << 20

// pageCache keeps rendered case pages of one snapshot, least recently used
// evicted first, within a byte budget. A page is admitted the second time it
// is rendered, so that pages asked for once do not churn the cache (the
// ids seen once are remembered up to maxSeen, then forgotten at once). A
// newer snapshot empties it; pages of an older one are neither served nor
// stored.
type pageCache struct {
	mu    sync.Mutex
	max   int
	size  int
	gen   int64
	ll    *list.List // of *cachedPage, most recent first
	byID  map[string]*list.Element
	seen  map[string]struct{} // rendered once, not admitted yet
	hits  int64
	miss  int64
	evict int64
}

type cachedPage struct {
	id   string
	body []byte
}

// cacheOverhead is the bookkeeping counted per entry besides the page.
const cacheOverhead = 128

// maxSeen bounds the ids remembered as rendered once.
const maxSeen = 1 << 16

func newPageCache(maxBytes int) *pageCache {
	return &pageCache{max: maxBytes, ll: list.New(), byID: map[string]*list.Element{}, seen: map[string]struct{}{}}
}

// sync moves the cache to generation gen; it reports false for an older
// one. Called with mu held.
func (c *pageCache) sync(gen int64) bool {
	switch {
	case gen < c.gen:
		return false
	case gen > c.gen:
		c.gen, c.size = gen, 0
		c.ll.Init()
		clear(c.byID)
		clear(c.seen)
	}
	return true
}

// get returns the page of id rendered from snapshot gen.
func (c *pageCache) get(gen int64, id string) ([]byte, bool) {
	if c == nil || c.max <= 0 {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.sync(gen) {
		return nil, false
	}
	el, ok := c.byID[id]
	if !ok {
		c.miss++
		return nil, false
	}
	c.hits++
	c.ll.MoveToFront(el)
	return el.Value.(*cachedPage).body, true
}

// put stores a copy of the page of id rendered from snapshot gen.
func (c *pageCache) put(gen int64, id string, body []byte) {
	if c == nil || c.max <= 0 {
		return
	}
	n := len(body) + len(id) + cacheOverhead
	if n > c.max/8 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.sync(gen) {
		return
	}
	if el, ok := c.byID[id]; ok {
		c.ll.MoveToFront(el)
		return
	}
	if _, ok := c.seen[id]; !ok {
		if len(c.seen) >= maxSeen {
			clear(c.seen)
		}
		c.seen[id] = struct{}{}
		return
	}
	delete(c.seen, id)
	c.byID[id] = c.ll.PushFront(&cachedPage{id: id, body: bytes.Clone(body)})
	c.size += n
	for c.size > c.max {
		el := c.ll.Back()
		p := el.Value.(*cachedPage)
		c.ll.Remove(el)
		delete(c.byID, p.id)
		c.size -= len(p.body) + len(p.id) + cacheOverhead
		c.evict++
	}
}

// bufPool recycles render buffers; very large ones are dropped.
var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxPooledBuf = 1 << 20

func getBuf() *bytes.Buffer { return bufPool.Get().(*bytes.Buffer) }

func putBuf(b *bytes.Buffer) {
	if b.Cap() > maxPooledBuf {
		return
	}
	b.Reset()
	bufPool.Put(b)
}
