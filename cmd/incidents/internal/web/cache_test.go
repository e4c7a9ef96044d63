package web

import (
	"bytes"
	"fmt"
	"testing"
)

func TestPageCache(t *testing.T) {
	page := func(i int) []byte { return bytes.Repeat([]byte{byte('a' + i%26)}, 1000) }
	entry := 1000 + len("id-0") + cacheOverhead
	c := newPageCache(4 * entry * 2) // room for 8 pages of this size
	// put = a page rendered once (remembered) and again (admitted).
	put := func(gen int64, id string, b []byte) {
		c.put(gen, id, b)
		c.put(gen, id, b)
	}
	c.put(1, "once", page(0))
	if _, ok := c.get(1, "once"); ok || c.size != 0 {
		t.Fatal("a page rendered once was admitted")
	}
	for i := range 8 {
		put(1, fmt.Sprint("id-", i), page(i))
	}
	if c.size != 8*entry {
		t.Fatalf("size %d, want %d", c.size, 8*entry)
	}
	// Using id-0 makes id-1 the least recently used.
	if b, ok := c.get(1, "id-0"); !ok || !bytes.Equal(b, page(0)) {
		t.Fatalf("id-0: %v %q", ok, b)
	}
	put(1, "id-8", page(8))
	if _, ok := c.get(1, "id-1"); ok {
		t.Fatal("id-1 should have been evicted")
	}
	for _, id := range []string{"id-0", "id-2", "id-8"} {
		if _, ok := c.get(1, id); !ok {
			t.Fatalf("%s evicted", id)
		}
	}
	if c.size > c.max {
		t.Fatalf("size %d over the cap %d", c.size, c.max)
	}
	// The cache keeps its own copy.
	p := page(9)
	put(1, "id-9", p)
	p[0] = 'X'
	if b, _ := c.get(1, "id-9"); b[0] == 'X' {
		t.Fatal("the cache shares the caller's buffer")
	}
	// An older snapshot is neither served nor stored; a newer one empties
	// the cache.
	if _, ok := c.get(0, "id-0"); ok {
		t.Fatal("served a page to an older snapshot")
	}
	put(0, "old", page(0))
	if _, ok := c.get(1, "old"); ok {
		t.Fatal("stored a page of an older snapshot")
	}
	if _, ok := c.get(2, "id-0"); ok || c.size != 0 || len(c.byID) != 0 {
		t.Fatalf("a newer snapshot kept %d bytes, %d pages", c.size, len(c.byID))
	}
	// Pages over an eighth of the budget are not kept; a zero cache keeps
	// nothing.
	put(2, "big", bytes.Repeat([]byte("x"), c.max/8+1))
	if _, ok := c.get(2, "big"); ok {
		t.Fatal("kept an oversized page")
	}
	var off *pageCache = newPageCache(0)
	off.put(1, "a", page(0))
	if _, ok := off.get(1, "a"); ok {
		t.Fatal("a cache of 0 bytes kept a page")
	}
}
