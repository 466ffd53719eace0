package scan

import (
	"bytes"
	"hash/maphash"
	"math/bits"
)

// Table is an open-addressing hash set over the IDs of one query, reused from query to query
// without allocating: Reset it with the query's IDs, Add each in turn (finding duplicates),
// then Find the judged docs.
type Table struct {
	ids   [][]byte
	slots []slot
	mask  uint64
}

type slot struct {
	hash uint64
	id   int32 // index in ids + 1; 0 = empty
}

var seed = maphash.MakeSeed()

// Reset empties the table and sizes it for ids, which Add and Find index into (not copied).
func (t *Table) Reset(ids [][]byte) {
	size := 1 << bits.Len(uint(2*len(ids)))
	if cap(t.slots) < size {
		t.slots = make([]slot, size)
	}
	t.slots = t.slots[:size]
	clear(t.slots)
	t.mask = uint64(size - 1)
	t.ids = ids
}

// Add inserts ids[i]. When an equal ID is already in the table it returns that ID's index and
// dup = true, and the table is unchanged.
func (t *Table) Add(i int) (prev int, dup bool) {
	id := t.ids[i]
	h := maphash.Bytes(seed, id)
	for p := h & t.mask; ; p = (p + 1) & t.mask {
		s := t.slots[p]
		if s.id == 0 {
			t.slots[p] = slot{hash: h, id: int32(i + 1)}
			return 0, false
		}
		if s.hash == h && bytes.Equal(t.ids[s.id-1], id) {
			return int(s.id - 1), true
		}
	}
}

// Find returns the index of id among the added IDs.
func (t *Table) Find(id string) (int, bool) {
	h := maphash.String(seed, id)
	for p := h & t.mask; ; p = (p + 1) & t.mask {
		s := t.slots[p]
		if s.id == 0 {
			return 0, false
		}
		if s.hash == h && string(t.ids[s.id-1]) == id {
			return int(s.id - 1), true
		}
	}
}
