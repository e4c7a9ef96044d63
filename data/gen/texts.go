package gen

import (
	"math"
	"strings"

	"incidents/data/incident"
)

// texts writes the title, summary, facet texts, lists and the narrative.
func (p *Plan) texts(c *caseCtx, cd *cause) {
	g, r, in := c.g, c.rng, c.inc
	// Title: no full stop.
	{
		from := len(c.buf)
		c.buf = c.pick(g.titles[c.cause]).render(c.buf, c)
		c.buf = tidy(c.buf, from)
		t := strings.TrimSuffix(string(c.buf[from:]), ".")
		in.Title = t
	}
	in.Summary = c.text(c.pick(g.summary))
	if r.IntN(2) == 0 {
		in.Summary += " " + c.text(c.pick(g.causes[c.cause]))
	}
	in.Symptoms = c.text(c.pick(g.symptoms[c.symptom]))
	if c.symptom2 != "" {
		in.Symptoms += " " + c.text(c.pick(g.symptoms[c.symptom2]))
	}
	rcT := c.pick(g.causes[c.cause])
	rootCause := c.say(rcT)
	in.RootCause = string(c.buf[rootCause.from:rootCause.to])
	trig := c.say(c.pick(g.triggers[c.trigger]))
	in.Trigger = string(c.buf[trig.from:trig.to])
	det := c.say(c.pick(g.detections[c.detection]))
	in.Detection = string(c.buf[det.from:det.to])
	for _, rem := range c.remedies {
		in.Remediation = append(in.Remediation, c.text(c.pick(g.remedies[rem])))
	}
	nAct := 2 + r.IntN(3)
	acts := g.actions[c.cause]
	seen := map[string]bool{}
	for k := 0; len(in.ActionItems) < nAct && k < 12; k++ {
		var a string
		if k < len(acts) && r.IntN(4) > 0 {
			a = c.text(acts[(k+r.IntN(len(acts)))%len(acts)])
		} else {
			a = c.text(c.pick(g.genericActions))
		}
		a = strings.TrimSuffix(a, ".")
		if !seen[a] {
			seen[a] = true
			in.ActionItems = append(in.ActionItems, a)
		}
	}
	if r.IntN(3) == 0 {
		in.Lessons = []string{c.text(c.pick(g.lessons))}
	}
	if r.IntN(2) == 0 {
		in.Categories = []string{classLabels[incident.ClassOf(cd.term)]}
	}
	p.narrative(c, cd, trig, det, rootCause, &rcT)
}

// narrative assembles the body: five sections of core sentences, padded with
// background sentences to a drawn length between MinWords and MaxWords.
func (p *Plan) narrative(c *caseCtx, cd *cause, trig, det, rootCause span, rcT *tmpl) {
	g, r := c.g, c.rng
	var secs [5][]span
	// Impact.
	secs[0] = append(secs[0], c.say(c.pick(g.opening)))
	secs[0] = append(secs[0], c.say(c.pick(g.symptoms[c.symptom])))
	if c.symptom2 != "" {
		secs[0] = append(secs[0], c.say(c.pick(g.symptoms[c.symptom2])))
	}
	for k := r.IntN(3); k > 0; k-- {
		secs[0] = append(secs[0], c.say(c.pick(g.impact)))
	}
	// Timeline.
	secs[1] = append(secs[1], trig, det)
	if c.detected != nil && r.IntN(2) == 0 {
		secs[1] = append(secs[1], c.say(c.pick(g.detected)))
	}
	for k := 1 + r.IntN(3); k > 0; k-- {
		secs[1] = append(secs[1], c.say(c.pick(g.investigate)))
	}
	if r.IntN(2) == 0 {
		secs[1] = append(secs[1], c.say(c.pick(g.comms)))
	}
	if c.decoy != "" {
		secs[1] = append(secs[1], c.say(c.pick(g.decoy)))
	}
	// Root cause.
	if r.IntN(3) > 0 {
		secs[2] = append(secs[2], c.say(c.pick(g.subsystem)))
	}
	secs[2] = append(secs[2], rootCause)
	if r.IntN(2) == 0 {
		secs[2] = append(secs[2], c.say(c.pickOther(g.causes[c.cause], rcT)))
	}
	secs[2] = append(secs[2], c.say(c.pick(g.signature)))
	// Resolution.
	for _, rem := range c.remedies {
		secs[3] = append(secs[3], c.say(c.pick(g.remedies[rem])))
	}
	if c.resolved != nil {
		secs[3] = append(secs[3], c.say(c.pick(g.resolved)))
	} else {
		secs[3] = append(secs[3], c.say(c.pick(g.unresolved)))
	}
	// Follow-up: the first action items as prose.
	for k, a := range c.inc.ActionItems {
		if k == 2 {
			break
		}
		from := len(c.buf)
		c.buf = append(c.buf, "We will "...)
		c.buf = append(c.buf, strings.ToLower(a[:1])...)
		c.buf = append(c.buf, a[1:]...)
		c.buf = append(c.buf, '.')
		secs[4] = append(secs[4], span{int32(from), int32(len(c.buf)), int32(countWords(c.buf[from:]))})
	}

	headed := r.IntN(10) < 7
	var heads [5]string
	total := 0
	for s := range secs {
		if headed {
			h := headings[s]
			heads[s] = h[r.IntN(len(h))]
			total += countWords([]byte(heads[s]))
		}
		for _, sp := range secs[s] {
			total += int(sp.words)
		}
	}
	target := int(245 * math.Exp(0.3*r.NormFloat64()))
	target = max(MinWords+10, min(target, MaxWords-40))
	for tries := 0; total < target && tries < 200; tries++ {
		sp := c.say(c.pick(g.filler))
		if total+int(sp.words) > MaxWords {
			continue
		}
		s := r.IntN(4) // never pad the follow-up list
		at := r.IntN(len(secs[s]) + 1)
		if at == 0 && s == 0 {
			at = 1
		}
		secs[s] = append(secs[s], span{})
		copy(secs[s][at+1:], secs[s][at:])
		secs[s][at] = sp
		total += int(sp.words)
	}
	out := make([]byte, 0, total*8)
	for s := range secs {
		if len(secs[s]) == 0 {
			continue
		}
		if len(out) > 0 {
			out = append(out, "\n\n"...)
		}
		if headed {
			out = append(out, heads[s]...)
			out = append(out, "\n\n"...)
		}
		words := 0
		for k, sp := range secs[s] {
			if k > 0 {
				// Paragraph breaks every few sentences.
				if words > 60 && r.IntN(3) == 0 {
					out = append(out, "\n\n"...)
					words = 0
				} else {
					out = append(out, ' ')
				}
			}
			out = append(out, c.buf[sp.from:sp.to]...)
			words += int(sp.words)
		}
	}
	c.inc.Narrative = string(out)
}
