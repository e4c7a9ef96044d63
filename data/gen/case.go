package gen

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"incidents/data/incident"
)

// caseCtx is everything the templates of one case draw from.
type caseCtx struct {
	rng       *rand.Rand
	v         *vocab
	g         *grammar
	inc       *incident.Incident
	org       string
	service   string
	component string
	subsystem string
	sig       string
	terms     []string
	region    string
	region2   string
	version   string
	team      string
	symptom   string
	symptom2  string
	trigger   string
	detection string
	remedies  []string
	cause     int
	start     time.Time
	detected  *time.Time
	resolved  *time.Time
	buf       []byte
	known     uint8   // needTTD|needTTR for the figures this case knows
	decoy     string  // another cluster's subsystem named in passing, or ""
	used      []*node // first nodes of the templates used so far
}

// Distribution parameters.
const (
	shareSubsystem = 0.5  // chance a cluster member names the cluster's subsystem
	shareSig       = 0.5  // chance it uses the cluster's distinctive phrase
	shareTerm      = 0.4  // chance it uses each of the cluster's distinctive words
	decoyRate      = 0.15 // chance a case names another cluster's subsystem in passing
	ttrSigma       = 1.4
	ttdSigma       = 1.3
	unknownTTD     = 0.35
	unknownTTR     = 0.20
	ttrScale       = 1.15 // scales per-cause medians to an overall median near 3.5 h
	maxTTRMinutes  = 60 * 24 * 60
	yearTrendSlope = 1.0 // the last year has (1+slope) times the density of the first
)

// bufPool recycles the per-case scratch buffers.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

var detectionTerms = []string{"automated-alert", "customer-report", "internal-user", "third-party"}
var detectionCum = []float64{0.55, 0.80, 0.92, 1}
var detectionMedianMin = map[string]float64{"automated-alert": 5, "customer-report": 25, "internal-user": 15, "third-party": 35}

func (p *Plan) build(i int) *incident.Incident {
	r := rand.New(rand.NewPCG(uint64(p.opt.Seed), uint64(i)))
	v := getVocab()
	bp := bufPool.Get().(*[]byte)
	c := &caseCtx{rng: r, v: v, g: getGrammar(), buf: (*bp)[:0]}
	defer func() { *bp = c.buf[:0]; bufPool.Put(bp) }()
	var pr profile
	inCluster := p.clusterOf[i] >= 0
	if inCluster {
		pr = p.profiles[p.clusterOf[i]]
	} else {
		pr = newProfile(r, v, false, p.words(wordsPerProfile*(len(p.members)+i)))
	}
	cd := &causeDefs[pr.cause]
	c.cause, c.component, c.subsystem, c.sig = pr.cause, pr.component, pr.subsystem, pr.sig
	c.trigger, c.symptom, c.symptom2, c.remedies = pr.trigger, pr.symptom, pr.symptom2, pr.remedies
	// Members vary a little around their cluster's failure mode.
	if r.IntN(100) < 15 {
		c.trigger = cd.triggers[r.IntN(len(cd.triggers))]
	}
	if r.IntN(100) < 15 {
		c.symptom = cd.symptoms[r.IntN(len(cd.symptoms))]
		if c.symptom == c.symptom2 {
			c.symptom2 = ""
		}
	}
	if r.IntN(100) < 15 {
		c.remedies = []string{cd.remedies[r.IntN(len(cd.remedies))]}
	}
	c.terms = pr.terms[:]
	if inCluster {
		// Members do not all repeat the cluster's names: each names the
		// shared subsystem and the shared distinctive phrase with some
		// probability (at least one of the two), and two of the three
		// distinctive words. The names a member does not share come from
		// its own word slot, unused otherwise.
		own := p.words(wordsPerProfile * (len(p.members) + i))
		useSub, useSig := r.Float64() < shareSubsystem, r.Float64() < shareSig
		if !useSub && !useSig {
			if r.IntN(2) == 0 {
				useSub = true
			} else {
				useSig = true
			}
		}
		if !useSub {
			c.subsystem = capitalize(own(0))
		}
		if !useSig {
			c.sig = own(1) + " " + sigNouns[r.IntN(len(sigNouns))]
		}
		// Each distinctive word is used with probability shareTerm; the
		// member's own words make up the rest.
		c.terms = make([]string, 0, 3)
		for _, w := range pr.terms {
			if r.Float64() < shareTerm {
				c.terms = append(c.terms, w)
			}
		}
		for j := 2; len(c.terms) < 2; j++ {
			c.terms = append(c.terms, own(j))
		}
	}
	if k := len(p.profiles); k > 1 && r.Float64() < decoyRate {
		d := r.IntN(k)
		if int32(d) == p.clusterOf[i] {
			d = (d + 1) % k
		}
		c.decoy = p.profiles[d].subsystem
	}
	orgIdx := pr.org
	if orgIdx < 0 {
		orgIdx = zipfPick(r, v.orgCum)
	}
	c.org = v.orgs[orgIdx]
	c.service = pr.service
	if pr.org < 0 && r.IntN(2) == 0 {
		c.service = serviceNouns[r.IntN(len(serviceNouns))]
	}
	c.region = pr.region
	if r.IntN(4) == 0 {
		c.region = regions[r.IntN(len(regions))]
	}
	c.region2 = regions[r.IntN(len(regions))]
	if c.region2 == c.region {
		c.region2 = regions[(r.IntN(len(regions)-1)+1+indexOf(regions, c.region))%len(regions)]
	}
	c.version = "v" + strconv.Itoa(1+r.IntN(12)) + "." + strconv.Itoa(r.IntN(40)) + "." + strconv.Itoa(r.IntN(20))
	c.team = teams[r.IntN(len(teams))]
	c.detection = detectionTerms[zipfPick(r, detectionCum)]

	in := &incident.Incident{
		Schema:  incident.SchemaVersion,
		ID:      CaseID(i),
		Org:     c.org,
		Product: c.service,
		Format:  "synthetic",
	}
	c.inc = in
	c.service = c.org + " " + c.service
	p.times(c, cd)
	in.Severity = [...]string{"SEV1", "SEV2", "SEV2", "SEV3", "SEV3", "SEV2", "SEV1", "SEV3"}[r.IntN(8)]
	in.Scope = [...]string{"global", "regional", "single region", "zonal", "subset of customers"}[r.IntN(5)]
	if in.Scope == "regional" || in.Scope == "single region" || in.Scope == "zonal" {
		in.Region = c.region
	}
	in.UsersAffected = "about " + strconv.Itoa(1+r.IntN(99)) + "%"
	in.Sources = []incident.Source{{URL: "https://status." + slug(c.org) + ".example/incidents/" + strings.ToLower(in.ID), Kind: "official-status"}}
	p.texts(c, cd)
	in.Tags = p.tags(c, cd)
	return in
}

func indexOf(l []string, s string) int {
	for i, x := range l {
		if x == s {
			return i
		}
	}
	return 0
}

func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// times draws the start time (with a mild upward trend over the years),
// TTD and TTR (lognormal, some unknown) and the consistent timestamps.
func (p *Plan) times(c *caseCtx, cd *cause) {
	r := c.rng
	from := time.Date(p.opt.StartYear, 1, 1, 0, 0, 0, 0, time.UTC)
	to := time.Date(p.opt.EndYear+1, 1, 1, 0, 0, 0, 0, time.UTC)
	a := yearTrendSlope
	u := r.Float64()
	x := (-1 + math.Sqrt(1+2*a*u*(1+a/2))) / a
	span := to.Sub(from)
	start := from.Add(time.Duration(x * float64(span))).Truncate(time.Minute)
	if !start.Before(to) {
		start = to.Add(-time.Hour)
	}
	c.start = start
	in := c.inc
	st := start
	in.Start = &st
	in.Date = start.Format("2006-01-02")
	in.TimeZone = "UTC"

	ttr := math.Round(cd.ttrMedianH * ttrScale * 60 * math.Exp(ttrSigma*r.NormFloat64()))
	ttr = math.Min(math.Max(ttr, 3), maxTTRMinutes)
	ttd := math.Floor(detectionMedianMin[c.detection] * math.Exp(ttdSigma*r.NormFloat64()))
	if ttd >= ttr {
		ttd = math.Floor(ttr * (0.1 + 0.5*r.Float64()))
	}
	knowTTD := r.Float64() >= unknownTTD
	knowTTR := r.Float64() >= unknownTTR
	if knowTTD {
		in.TTD = incident.Minutes(ttd)
		t := start.Add(time.Duration(ttd) * time.Minute)
		c.detected = &t
		in.Detected = c.detected
		c.known |= needTTD
	}
	if knowTTR {
		in.TTR = incident.Minutes(ttr)
		t := start.Add(time.Duration(ttr) * time.Minute)
		c.resolved = &t
		in.Resolved = c.resolved
		c.known |= needTTR
		if knowTTD && r.IntN(2) == 0 {
			m := math.Floor(ttd + (ttr-ttd)*(0.3+0.5*r.Float64()))
			t := start.Add(time.Duration(m) * time.Minute)
			in.Mitigated = &t
		}
	}
}
