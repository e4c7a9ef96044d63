package gen

import (
	"strconv"
	"time"
)

// slot names a value a template may insert.
type slot uint8

const (
	sOrg slot = iota
	sService
	sComponent
	sSubsystem
	sSig
	sTerm
	sRegion
	sRegion2
	sMetric
	sN
	sN0
	sBig
	sPct
	sVersion
	sTeam
	sBg
	sBgs
	sT0
	sTdet
	sTres
	sTTD
	sTTR
	sDate
	sSymptom
	sTrigger
	sDetection
	sSev
	sDecoy
)

var slotByName = map[string]slot{
	"org": sOrg, "service": sService, "component": sComponent, "subsystem": sSubsystem,
	"sig": sSig, "term": sTerm, "region": sRegion, "region2": sRegion2, "metric": sMetric,
	"n": sN, "n0": sN0, "big": sBig, "pct": sPct, "version": sVersion, "team": sTeam,
	"bg": sBg, "bgs": sBgs, "t0": sT0, "tdet": sTdet, "tres": sTres, "ttd": sTTD, "ttr": sTTR,
	"date": sDate, "symptom": sSymptom, "trigger": sTrigger, "detection": sDetection, "sev": sSev, "decoy": sDecoy,
}

var (
	regions = []string{"us-east-1", "us-east-2", "us-west-1", "us-west-2", "eu-west-1", "eu-west-2", "eu-central-1", "eu-north-1",
		"ap-southeast-1", "ap-southeast-2", "ap-northeast-1", "ap-south-1", "sa-east-1", "ca-central-1",
		"us-central1", "us-east4", "europe-west1", "europe-west4", "asia-east1", "asia-northeast1", "australia-southeast1"}
	metrics = []string{"error rate", "p99 latency", "5xx ratio", "queue depth", "CPU utilisation", "connection count",
		"replication lag", "disk usage", "request rate", "saturation", "availability SLO burn rate", "heap usage", "consumer lag"}
	teams = []string{"platform", "SRE", "networking", "storage", "database", "identity", "traffic", "infrastructure",
		"payments", "edge", "core services", "reliability", "data platform", "compute"}
	serviceNouns = []string{"Checkout", "Payments API", "Search", "Login", "Storage", "Messaging", "Dashboard", "Sync",
		"Billing", "Notifications", "Compute", "Maps", "Video", "Ads", "Git hosting", "CI", "DNS", "Email", "Chat",
		"Analytics", "Marketplace", "Feeds", "Uploads", "Webhooks", "Calendar", "Streaming", "Accounts", "Orders"}
	sigNouns = []string{"handoff", "lease table", "shard map", "retry budget", "epoch counter", "quorum journal",
		"warmup path", "sidecar", "reaper job", "drain hook", "fanout queue", "token cache", "compaction pass",
		"heartbeat loop", "rebalancer", "manifest", "watchdog", "bootstrap script", "route table", "ring",
		"admission filter", "snapshot cursor", "session registry", "placement map", "write buffer", "batch scheduler",
		"allowlist", "index merger", "replay log", "health gate"}
)

// fill appends the value of slot s for this case.
func (c *caseCtx) fill(b []byte, s slot) []byte {
	r := c.rng
	switch s {
	case sOrg:
		return append(b, c.org...)
	case sService:
		return append(b, c.service...)
	case sComponent:
		l := componentNouns[c.component]
		return append(b, l[r.IntN(len(l))]...)
	case sSubsystem:
		return append(b, c.subsystem...)
	case sSig:
		return append(b, c.sig...)
	case sTerm:
		return append(b, c.terms[r.IntN(len(c.terms))]...)
	case sRegion:
		return append(b, c.region...)
	case sRegion2:
		return append(b, c.region2...)
	case sMetric:
		return append(b, metrics[r.IntN(len(metrics))]...)
	case sN, sN0, sBig, sPct:
		return c.fillNumber(b, s)
	case sVersion:
		return append(b, c.version...)
	case sTeam:
		return append(b, c.team...)
	case sBg:
		return append(b, c.v.content[c.v.cAlias.draw(c.rng)]...)
	case sBgs:
		k := 2 + r.IntN(4)
		for i := 0; i < k; i++ {
			if i > 0 {
				b = append(b, ' ')
			}
			b = c.bgWord(b)
		}
		return b
	case sT0, sTdet, sTres, sTTD, sTTR, sDate:
		return c.fillTime(b, s)
	case sSymptom:
		l := symptomNouns[c.symptom]
		return append(b, l[r.IntN(len(l))]...)
	case sTrigger:
		l := triggerNouns[c.trigger]
		return append(b, l[r.IntN(len(l))]...)
	case sDetection:
		l := detectionNouns[c.detection]
		return append(b, l[r.IntN(len(l))]...)
	case sSev:
		return append(b, c.inc.Severity...)
	case sDecoy:
		return append(b, c.decoy...)
	}
	return b
}

// fillNumber appends a random number of the kind slot s asks for.
func (c *caseCtx) fillNumber(b []byte, s slot) []byte {
	r := c.rng
	switch s {
	case sN:
		return strconv.AppendInt(b, int64(2+r.IntN(39)), 10)
	case sN0:
		return strconv.AppendInt(b, int64(20+10*r.IntN(30)), 10)
	case sBig:
		return strconv.AppendInt(b, int64(100+r.IntN(90000)), 10)
	case sPct:
		return strconv.AppendInt(b, int64(2+r.IntN(94)), 10)
	}
	return b
}

// fillTime appends the case's time or duration that slot s names, or
// words for one it does not have.
func (c *caseCtx) fillTime(b []byte, s slot) []byte {
	switch s {
	case sT0:
		return appendClock(b, c.start)
	case sTdet:
		if c.detected == nil {
			return append(b, "some time later"...)
		}
		return appendClock(b, *c.detected)
	case sTres:
		if c.resolved == nil {
			return append(b, "later that day"...)
		}
		return appendClock(b, *c.resolved)
	case sTTD:
		if c.inc.TTD == nil {
			return append(b, "a while"...)
		}
		return appendSpan(b, c.inc.TTD.Minutes)
	case sTTR:
		if c.inc.TTR == nil {
			return append(b, "several hours"...)
		}
		return appendSpan(b, c.inc.TTR.Minutes)
	case sDate:
		return c.start.AppendFormat(b, "January 2, 2006")
	}
	return b
}

func (c *caseCtx) bgWord(b []byte) []byte {
	v := c.v
	return append(b, v.bg[v.bgAlias.draw(c.rng)]...)
}

func appendClock(b []byte, t time.Time) []byte {
	return t.AppendFormat(b, "15:04 UTC")
}

// appendSpan writes minutes as prose: "12 minutes", "3 hours 59 minutes", "2 days 4 hours".
func appendSpan(b []byte, m float64) []byte {
	mins := int64(m + 0.5)
	unit := func(b []byte, n int64, one, many string) []byte {
		b = strconv.AppendInt(b, n, 10)
		b = append(b, ' ')
		if n == 1 {
			return append(b, one...)
		}
		return append(b, many...)
	}
	d, h, mm := mins/1440, (mins/60)%24, mins%60
	switch {
	case d > 0:
		b = unit(b, d, "day", "days")
		if h > 0 {
			b = append(b, ' ')
			b = unit(b, h, "hour", "hours")
		}
	case h > 0:
		b = unit(b, h, "hour", "hours")
		if mm > 0 {
			b = append(b, ' ')
			b = unit(b, mm, "minute", "minutes")
		}
	default:
		b = unit(b, mm, "minute", "minutes")
	}
	return b
}
