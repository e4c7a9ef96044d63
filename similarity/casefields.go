package similarity

import (
	"slices"
	"strings"

	"incidents/data/incident"
	"incidents/similarity/textproc"
)

// What the builder reads of a case, and the per-worker analysis of it.

// field is one weighted text field of a case.
type field struct {
	text    string
	weight  float64
	derived bool // taken from another field's text (see CauseText)
}

// fields lists the text of a case with the field weights.
func fields(in *incident.Incident) []field {
	kw := strings.Join(in.Keywords, " ")
	if len(in.Categories) > 0 {
		kw += " " + strings.Join(in.Categories, " ")
	}
	rc := field{in.RootCause, WeightRootCause, false}
	if rc.text == "" {
		// A narrative-only postmortem has no root-cause field: its
		// sentences that state the cause stand in for it. They are in the
		// narrative too, so together they weigh WeightRootCause.
		rc = field{CauseText(in.Narrative), WeightRootCause - WeightNarrative, true}
	}
	return []field{
		{in.Title, WeightTitle, false}, {in.Summary, WeightSummary, false}, {in.Symptoms, WeightSymptoms, false},
		rc, {in.Trigger, WeightTrigger, false}, {in.Detection, WeightDetection, false},
		{in.Product, WeightProduct, false}, {kw, WeightKeywords, false}, {in.Narrative, WeightNarrative, false},
	}
}

// buildChunk is how many cases a worker takes at a time.
const buildChunk = 128

// rawDoc locates one case's term frequencies in its worker's arrays.
type rawDoc struct {
	worker     int
	start, end int
}

// termWorker analyses a share of the cases; its analyzer's dictionary
// numbers the terms it meets.
type termWorker struct {
	an  *textproc.Analyzer
	ids []uint32
	tf  []float32
	// scratch for one case
	acc     []float64
	touched []uint32
	org     []int32
	// decoding stored analyses (terms.go): surface counts by term id,
	// and scratch
	surf [][]surfaceCount
	dec  []int32
	term []byte
	key  []byte
	enc  encScratch
}

// doc analyses one case into the worker's arrays. The words of the case's
// own organisation are left out: who wrote a postmortem says nothing about
// what failed, and they would make every pair of one organisation's cases
// look alike ("Google" in each Google postmortem). Another case naming
// that organisation (a provider it depends on) keeps them.
func (w *termWorker) doc(in *incident.Incident) (start, end int) {
	start = len(w.ids)
	w.org = w.org[:0]
	if in.Org != "" {
		w.an.EachID(in.Org, func(id int32) { w.org = append(w.org, id) })
	}
	for _, f := range fields(in) {
		if f.text == "" {
			continue
		}
		wt := f.weight
		w.an.EachID(f.text, func(id int32) {
			if len(w.org) > 0 && slices.Contains(w.org, id) {
				return
			}
			for int(id) >= len(w.acc) {
				w.acc = append(w.acc, 0)
			}
			if w.acc[id] == 0 {
				w.touched = append(w.touched, uint32(id))
			}
			w.acc[id] += wt
		})
	}
	for _, id := range w.touched {
		w.ids = append(w.ids, id)
		w.tf = append(w.tf, float32(w.acc[id]))
		w.acc[id] = 0
	}
	w.touched = w.touched[:0]
	return start, len(w.ids)
}

// CaseText is the text of a case as written, field after field, one per
// line: what the index reads, before its own derivations (for comparison
// with other rankers on the same text).
func CaseText(in *incident.Incident) string {
	var b strings.Builder
	for _, f := range fields(in) {
		if f.derived {
			continue
		}
		if f.text != "" {
			b.WriteString(f.text)
			b.WriteByte('\n')
		}
	}
	return b.String()
}
