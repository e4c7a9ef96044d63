package web

import (
	"bytes"
	"fmt"

	"incidents/cmd/incidents/internal/engine"
)

// A case page is the layout template around caseBody. Executing the layout
// for each page cost as much as writing the case itself, so the layout is
// executed once per snapshot with marker strings for the title and the
// content, and cut at the markers into the constant parts every case page
// of that snapshot shares. The layout stays the one source of the markup;
// TestCasePageMatchesTemplate compares whole pages with the template's.

// Markers put in place of the title and the content; they contain nothing
// a template escapes.
const (
	titleMark   = "zq7TITLEzq7"
	contentMark = "zq7CONTENTzq7"
)

// frame is the layout of the case pages of one snapshot: head, the escaped
// title, mid, the content, tail.
type frame struct {
	gen             int64
	head, mid, tail []byte
}

// caseFrame returns the case page layout of snap, building it when the
// last one built was for another snapshot.
func (s *Server) caseFrame(snap *engine.Snapshot) (*frame, error) {
	if f := s.frame.Load(); f != nil && f.gen == snap.Gen {
		return f, nil
	}
	var b bytes.Buffer
	err := s.pages.t["case"].Execute(&b, page{Title: titleMark, Nav: "case", Snap: snap, Data: &caseData{Body: contentMark}})
	if err != nil {
		return nil, err
	}
	head, rest, ok1 := bytes.Cut(b.Bytes(), []byte(titleMark))
	mid, tail, ok2 := bytes.Cut(rest, []byte(contentMark))
	if !ok1 || !ok2 || bytes.Contains(tail, []byte(titleMark)) || bytes.Contains(tail, []byte(contentMark)) || bytes.Contains(mid, []byte(titleMark)) {
		return nil, fmt.Errorf("web: the case page layout must show the title and the content once each")
	}
	f := &frame{gen: snap.Gen, head: head, mid: mid, tail: tail}
	if cur := s.frame.Load(); cur == nil || cur.gen < f.gen {
		s.frame.Store(f)
	}
	return f, nil
}

// writeCasePage writes the whole page of a case into b.
func (f *frame) writeCasePage(b *bytes.Buffer, title string, d *caseData, hasLinks bool) {
	b.Write(f.head)
	escText(b, title)
	b.Write(f.mid)
	caseBody(b, d, hasLinks)
	b.Write(f.tail)
}
