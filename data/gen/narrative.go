package gen

import "sync"

// Generic sentence templates shared by every failure mode.
var (
	openingT = []string{
		"On $date, $service {experienced|suffered|had} $symptom[ in $region][ for $ttr]",
		"This {report|postmortem|review} describes {an incident|the incident|an outage} that affected $service on $date",
		"{Customers|Users} of $service saw $symptom on $date[, starting at $t0]",
		"{Between $t0 and $tres|From $t0 to $tres} on $date, $service {was affected by|had} $symptom",
	}
	subsystemT = []string{
		"$subsystem is the $component {layer|component|service} that {handles|owns|serves} $term {requests|records|traffic} for $service",
		"{For context|Background}: $service relies on $subsystem, {a|an internal} $component {system|layer} [built around the $sig]",
		"$subsystem {sits in front of|manages|coordinates} the $component used by $service",
	}
	signatureT = []string{
		"The {issue|problem|failure} was traced to the $sig in $subsystem",
		"{At the heart of|Central to} the incident was the $sig of $subsystem",
		"The $sig {misbehaved|failed|stopped working as intended} in $subsystem",
	}
	investigateT = []string{
		"Engineers {began investigating|looked into|started to investigate} {recent changes|the $metric graphs|logs from $subsystem}",
		"{Initial|Early} {attention|suspicion} fell on the $component[, but its metrics looked normal]",
		"{Logs|Traces} from $subsystem showed the $sig {failing|retrying|timing out} on {$n|many} {hosts|nodes}",
		"An incident was declared[ at $sev] and the $team team {joined|was paged}",
		"Status page updates were posted {every 30 minutes|regularly|as the investigation progressed}",
		"{Correlating|Comparing} the {start time|timeline} with {recent changes|the deploy log} pointed to $subsystem",
		"Responders saw $metric {climb|spike|rise} on the $subsystem dashboards",
	}
	impactT = []string{
		"{About|Roughly|Approximately} $pct% of {requests|customers|tenants|API calls}[ in $region] were affected",
		"{Customers|Users} {could not|were unable to} {sign in|complete purchases|load their dashboards|upload files|receive notifications|run jobs}[ during the incident]",
		"The incident {breached|consumed} {$pct% of the monthly error budget|the availability SLO} of $service",
		"{Support|The support team} received {about $big|hundreds of|a spike of} tickets[ about $service]",
		"{Dependent|Downstream} services that call $service {saw|reported} {elevated errors|retries|slow responses} as well",
	}
	commsT = []string{
		"The status page was updated at $tdet[ and every {30|60} minutes after]",
		"{An incident commander|A coordinator} from the $team team {ran|led} the response",
		"Responders {posted|published} updates in the incident channel {as the investigation progressed|throughout}",
		"{The|An} incident was escalated to {$sev|the $team team lead|senior on-call engineers}[ at $tdet]",
	}
	decoyT = []string{
		"The $decoy {service|cluster|pipeline} was {checked and found healthy|not affected|ruled out early}",
		"{Engineers|Responders} first suspected $decoy, but {it was healthy|its metrics were normal|that was ruled out}",
		"{Traffic|Calls} from $decoy {continued normally|were unaffected}",
	}
	detectedT   = []string{"The problem was detected $ttd after it started[ through $detection]", "Detection took $ttd[; $detection was the first signal]"}
	resolvedT   = []string{"{Service was fully restored|The incident was resolved|Error rates returned to normal} at $tres, $ttr after it began", "Full recovery took $ttr[ from the first impact]"}
	unresolvedT = []string{"{Service recovered|The incident was resolved} {later that day|after several hours}[ once $subsystem was healthy again]", "Recovery was gradual[, and the exact end time was not recorded]"}
	fillerT     = []string{
		"The $bg dashboard showed {no change|a small dip|a brief spike} in $metric",
		"{Engineers|Responders} {reviewed|checked} the $bg {logs|graphs|alerts}[ for the $bg cluster]",
		"The $team team confirmed that the $bg {service|pipeline|jobs} {was not affected|stayed healthy}",
		"A {separate|related|minor} $bg {alert|ticket|page} {fired|was opened} and was {acknowledged quickly|closed as unrelated}",
		"{Some|A few} $bg {jobs|requests|tenants} {were delayed|retried|queued}[ during the incident]",
		"The $bg and $bg {runbooks|playbooks} were {consulted|followed}",
		"{We|The team} {also|} {looked at|considered} the $bg $bg {as a possible cause|but ruled it out}",
		"{Notes|A note} in the incident channel {mention|mentions} the $bg $bg[ and $bg]",
		"{Further|Follow-up} {analysis|review} of the $bg $bg {is ongoing|continues}",
		"$metric on the $bg {hosts|nodes|shards} {stayed|remained} within {normal|expected} bounds",
		"{Context|Background}: $bgs",
		"{Responders|Engineers} noted $bgs[ in the $bg channel]",
		"The $bg {migration|rollout|experiment} {scheduled|planned} for that week was {paused|postponed}",
		"{Requests|Calls} from the $bg {clients|integration} {were retried|kept failing} until $bg {recovered|was restarted}",
	}
	summaryT = []string{
		"$service {had|experienced} $symptom {for $ttr|[in $region]} after $trigger[ involving $subsystem]",
		"$trigger {caused|led to} $symptom in $service[ for $ttr]",
	}
	lessonsT = []string{
		"{Canaries|Staged rollouts} need to exercise the $sig path",
		"Alerting on $metric would have {caught|detected} this {earlier|sooner}",
		"The $subsystem runbook {was|is} {out of date|missing a step} for $term {failures|recovery}",
		"Recovery depended on a few people who knew $subsystem well",
	}
	genericActionsT = []string{
		"Improve alerting on $metric for $service",
		"Update the incident runbook for $subsystem",
		"Add a dashboard for the $sig",
		"Review on-call escalation for the $team team",
		"Run a game day that exercises $subsystem failure",
	}
	headings = [][]string{
		{"## Impact", "## What happened", "## Summary"},
		{"## Timeline", "## Sequence of events", "## Detection and response"},
		{"## Root cause", "## Cause", "## Why it happened"},
		{"## Resolution", "## Mitigation", "## Recovery"},
		{"## Follow-up", "## Next steps", "## Action items"},
	}
)

// grammar is every template compiled once.
type grammar struct {
	opening, subsystem, signature, investigate, detected, resolved, unresolved, impact, comms, decoy,
	filler, summary, lessons, genericActions []tmpl
	symptoms, triggers, detections, remedies, remedyNouns map[string][]tmpl
	titles, causes, actions                               [][]tmpl // by cause index
}

var (
	grammarOnce sync.Once
	theGrammar  *grammar
)

func getGrammar() *grammar {
	grammarOnce.Do(func() {
		g := &grammar{
			opening: compileAll(openingT), subsystem: compileAll(subsystemT), signature: compileAll(signatureT),
			investigate: compileAll(investigateT), impact: compileAll(impactT), comms: compileAll(commsT), decoy: compileAll(decoyT), detected: compileAll(detectedT), resolved: compileAll(resolvedT),
			unresolved: compileAll(unresolvedT), filler: compileAll(fillerT), summary: compileAll(summaryT),
			lessons: compileAll(lessonsT), genericActions: compileAll(genericActionsT),
			symptoms: compileMap(symptomSentences), triggers: compileMap(triggerSentences),
			detections: compileMap(detectionSentences), remedies: compileMap(remedySentences), remedyNouns: compileMap(remedyNouns),
		}
		for _, c := range causeDefs {
			g.titles = append(g.titles, compileAll(c.titles))
			g.causes = append(g.causes, compileAll(c.causes))
			g.actions = append(g.actions, compileAll(c.actions))
		}
		theGrammar = g
	})
	return theGrammar
}

func compileMap(m map[string][]string) map[string][]tmpl {
	out := make(map[string][]tmpl, len(m))
	for k, v := range m {
		out[k] = compileAll(v)
	}
	return out
}

// Narrative length bounds in words (whitespace-separated tokens).
const (
	MinWords = 150
	MaxWords = 600
)

// span is one rendered sentence inside caseCtx.buf.
type span struct{ from, to, words int32 }

// pick returns a random template of l, avoiding templates that name a
// detection or resolution time the case does not know and, when it can,
// templates the case has already used.
func (c *caseCtx) pick(l []tmpl) tmpl {
	var t tmpl
	for k := 0; k < 8; k++ {
		t = l[c.rng.IntN(len(l))]
		if t.needs&^c.known == 0 && (k >= 5 || !c.usedBefore(&t)) {
			break
		}
	}
	if len(t.nodes) > 0 {
		c.used = append(c.used, &t.nodes[0])
	}
	return t
}

func (c *caseCtx) usedBefore(t *tmpl) bool {
	if len(t.nodes) == 0 {
		return false
	}
	p := &t.nodes[0]
	for _, u := range c.used {
		if u == p {
			return true
		}
	}
	return false
}

// pickOther is pick that avoids the template at index not, when l has more.
func (c *caseCtx) pickOther(l []tmpl, not *tmpl) tmpl {
	for k := 0; k < 6; k++ {
		t := c.pick(l)
		if len(l) == 1 || &t.nodes[0] != &not.nodes[0] {
			return t
		}
	}
	return c.pick(l)
}

// say renders one sentence into the scratch buffer and returns its span.
func (c *caseCtx) say(t tmpl) span {
	from := len(c.buf)
	var words int
	c.buf, words = c.sentence(c.buf, t)
	return span{int32(from), int32(len(c.buf)), int32(words)}
}

// text renders one sentence as a string.
func (c *caseCtx) text(t tmpl) string {
	s := c.say(t)
	return string(c.buf[s.from:s.to])
}

func countWords(b []byte) int {
	n, in := 0, false
	for _, ch := range b {
		if ch == ' ' || ch == '\n' {
			in = false
		} else if !in {
			in = true
			n++
		}
	}
	return n
}
