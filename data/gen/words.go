package gen

import (
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
)

// Sizes of the invented vocabularies.
const (
	backgroundWords = 20000 // Zipf-distributed filler vocabulary
	orgCount        = 1500
	zipfS           = 1.07 // Zipf–Mandelbrot exponent
	zipfQ           = 2.7  // Zipf–Mandelbrot offset
)

// vocabSeed fixes the invented words independently of Options.Seed, so a
// word like "torvane" means the same thing in every corpus.
const vocabSeed = 0x5eed1e55

var (
	onsets = []string{"b", "br", "c", "ch", "d", "dr", "f", "fl", "g", "gr", "h", "j", "k", "kr", "l", "m", "n", "p", "pl", "qu", "r", "s", "sh", "sk", "st", "t", "tr", "v", "w", "z", "th", "sp", "gl", "cr"}
	nuclei = []string{"a", "e", "i", "o", "u", "a", "e", "o", "ai", "ea", "io", "ou", "y", "ei"}
	codas  = []string{"", "", "", "n", "r", "l", "s", "x", "m", "nd", "rt", "sk", "th", "v", "k", "lt", "st"}
)

type vocab struct {
	bg      []string  // background words, most frequent first
	bgCum   []float64 // cumulative Zipf weights of bg
	bgAlias alias     // the same distribution for O(1) draws
	content []string  // bg without function words, for single noun-like slots
	cAlias  alias
	orgs    []string
	orgCum  []float64
}

var (
	vocabOnce sync.Once
	theVocab  *vocab
)

func getVocab() *vocab {
	vocabOnce.Do(func() { theVocab = buildVocab() })
	return theVocab
}

func buildVocab() *vocab {
	r := rand.New(rand.NewPCG(vocabSeed, 1))
	seen := map[string]bool{}
	for _, w := range common {
		seen[w] = true
	}
	for _, w := range englishReserved {
		seen[w] = true
	}
	v := &vocab{}
	v.bg = append(v.bg, common...)
	for len(v.bg) < backgroundWords {
		w := pseudoWord(r, 1+r.IntN(3))
		if len(w) < 3 || seen[w] {
			continue
		}
		seen[w] = true
		v.bg = append(v.bg, w)
	}
	v.bgCum = zipfCum(len(v.bg))
	v.bgAlias = newAlias(v.bgCum)
	for _, w := range v.bg {
		if !functionWords[w] {
			v.content = append(v.content, w)
		}
	}
	v.cAlias = newAlias(zipfCum(len(v.content)))
	orgSeen := map[string]bool{}
	for len(v.orgs) < orgCount {
		base := capitalize(pseudoWord(r, 2+r.IntN(2)))
		if len(base) < 4 || len(base) > 10 || orgSeen[base] || seen[strings.ToLower(base)] || realNames[strings.ToLower(base)] {
			continue
		}
		orgSeen[base] = true
		v.orgs = append(v.orgs, base+orgSuffixes[r.IntN(len(orgSuffixes))])
	}
	v.orgCum = zipfCum(len(v.orgs))
	return v
}

var orgSuffixes = []string{"", "", "", "", " Labs", " Cloud", " Systems", "ly", "io", " Pay", " Networks", " Data", " Health", " Games", " Logistics", " Media"}

// englishReserved are words the pseudo-word generator must not produce so
// that invented words never read as real ones in the templates.
var englishReserved = strings.Fields(`bad bat bin bit box bus but can cat cut den dig dot fan fat fig fin fit fix fog fun gas gel gun hat hit hot hut jam jet kit lab lid lit log lot man map mat men met mix mob mud nap net nod not nut pan pat pen pet pin pit pot put rat red rib rid rig rim rip rod rot rub rug run sad sat set sin sit sob sum sun tab tan tax ten tin tip top tub van vat vet war was wet win wit zip zoo sex kill shit fuck damn hell`)

func dedupe(ws []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range ws {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

func pseudoWord(r *rand.Rand, syll int) string {
	var b strings.Builder
	for i := 0; i < syll; i++ {
		if i == 0 || r.IntN(3) > 0 {
			b.WriteString(onsets[r.IntN(len(onsets))])
		}
		b.WriteString(nuclei[r.IntN(len(nuclei))])
		if i == syll-1 || r.IntN(4) == 0 {
			b.WriteString(codas[r.IntN(len(codas))])
		}
	}
	return b.String()
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// zipfCum returns cumulative Zipf–Mandelbrot weights normalised to 1.
func zipfCum(n int) []float64 {
	cum := make([]float64, n)
	var total float64
	for k := 0; k < n; k++ {
		total += 1 / math.Pow(float64(k+1)+zipfQ, zipfS)
		cum[k] = total
	}
	for k := range cum {
		cum[k] /= total
	}
	return cum
}

// zipfPick draws an index from cumulative weights.
func zipfPick(r *rand.Rand, cum []float64) int {
	u := r.Float64()
	i := sort.SearchFloat64s(cum, u)
	if i >= len(cum) {
		i = len(cum) - 1
	}
	return i
}

// alias is Walker's alias table: O(1) draws from a discrete distribution.
type alias struct {
	prob  []float64
	other []int32
}

// newAlias builds the table from cumulative weights normalised to 1.
func newAlias(cum []float64) alias {
	n := len(cum)
	a := alias{prob: make([]float64, n), other: make([]int32, n)}
	scaled := make([]float64, n)
	prev := 0.0
	var small, large []int32
	for i, c := range cum {
		scaled[i] = (c - prev) * float64(n)
		prev = c
		if scaled[i] < 1 {
			small = append(small, int32(i))
		} else {
			large = append(large, int32(i))
		}
	}
	for len(small) > 0 && len(large) > 0 {
		s, l := small[len(small)-1], large[len(large)-1]
		small = small[:len(small)-1]
		a.prob[s], a.other[s] = scaled[s], l
		scaled[l] -= 1 - scaled[s]
		if scaled[l] < 1 {
			large = large[:len(large)-1]
			small = append(small, l)
		}
	}
	for _, i := range large {
		a.prob[i] = 1
	}
	for _, i := range small {
		a.prob[i] = 1
	}
	return a
}

// draw picks an index.
func (a *alias) draw(r *rand.Rand) int {
	u := r.Float64() * float64(len(a.prob))
	i := int(u)
	if i >= len(a.prob) {
		i = len(a.prob) - 1
	}
	if u-float64(i) < a.prob[i] {
		return i
	}
	return int(a.other[i])
}

// Distinctive words name cluster subsystems and terms. Each is built from an
// index by a bijection, so different indexes never give the same word, and
// ends in a consonant pair that background words never end in, so a
// distinctive word is never a background word.
var (
	dOnsets = []string{"b", "br", "c", "ch", "d", "dr", "f", "fl", "g", "gr", "h", "j", "k", "kr", "l", "m", "n", "p", "pl", "r", "s", "sh", "sk", "st", "t", "tr", "v", "w", "z", "th", "sp", "gl", "cr"}
	dNuclei = []string{"a", "e", "i", "o", "u", "ai", "ea", "io", "ou", "y", "ei"}
	dCodas  = []string{"rn", "lk", "mb", "nt", "sp", "ft", "rk", "ld"}
)

// distinctSpace returns the number of distinctive words of the given
// number of syllables.
func distinctSpace(syll int) int {
	n := len(dCodas)
	for i := 0; i < syll; i++ {
		n *= len(dOnsets) * len(dNuclei)
	}
	return n
}

// distinctWord returns the k-th distinctive word of syll syllables after a
// fixed scrambling permutation, for 0 <= k < distinctSpace(syll).
func distinctWord(k, syll int) string {
	m := distinctSpace(syll)
	// 7919 is prime and divides no distinctSpace, so this permutes [0, m).
	x := int((uint64(k)*7919 + 104729) % uint64(m))
	var b strings.Builder
	b.WriteString(dCodas[x%len(dCodas)])
	x /= len(dCodas)
	parts := make([]string, 0, 2*syll)
	for i := 0; i < syll; i++ {
		parts = append(parts, dOnsets[x%len(dOnsets)])
		x /= len(dOnsets)
		parts = append(parts, dNuclei[x%len(dNuclei)])
		x /= len(dNuclei)
	}
	coda := b.String()
	b.Reset()
	for _, p := range parts {
		b.WriteString(p)
	}
	b.WriteString(coda)
	return b.String()
}

// realNames are company and product names an invented organisation must not
// accidentally take.
var realNames = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`canva stripe slack zoom heroku fastly akamai github gitlab docker twilio
shopify okta datadog sentry reddit roblox discord twitch tesla nokia sony fitbit lyft uber etsy yelp hulu
vimeo dropbox asana jira trello notion figma miro zendesk hubspot oracle cisco dell intel nvidia adobe
salesforce netflix spotify airbnb paypal venmo square coinbase binance kraken robinhood zillow linode
vultr hetzner scaleway rackspace cloudflare azure google amazon apple meta microsoft twitter tumblr
medium quora pinterest snap tiktok wechat baidu alibaba tencent yahoo bing opera mozilla brave vercel
netlify render supabase firebase mongo redis elastic kafka consul vault nomad terraform ansible puppet
chef jenkins travis circle buildkite pagerduty opsgenie splunk sumo loggly honeycomb lightstep newrelic
dynatrace grafana kibana nagios zabbix sensu rollbar bugsnag mailgun sendgrid postmark plaid adyen klarna
affirm braintree chime monzo revolut wise nubank rakuten samsung huawei xiaomi lenovo acer asus razer
valve steam epic blizzard riot ubisoft sega nintendo atari zynga niantic unity roku vizio garmin peloton
strava duolingo canvas moodle coursera udemy kahoot tinder bumble hinge grindr kayak expedia trivago
booking agoda deliveroo doordash instacart grubhub gojek grab bolt didi careem zalando asos ikea target
walmart costco kroger fedex dhl ups visa mastercard amex discover chase citi barclays hsbc santander
ocado tesco lidl aldi boeing airbus siemens philips bosch toyota honda mazda nissan volvo fiat`) {
		m[w] = true
	}
	return m
}()

// functionWords are the background words that cannot stand alone as a noun.
var functionWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`the of to and a in was that for on with as by at from it this were be an we
had our not which is are all after but been when during into also more than some then could its their these
other one out about would there they only first each new two over while both before because them those most
such several three later further same however between without through following quickly slowly gradually
immediately eventually partially fully briefly temporarily approximately roughly nearly almost already still
again instead around across within until since under above below behind ahead toward against among per via
because although unless whether either neither though first second third next last final earlier later
previous recent current high low long short slow fast full empty old new started began noticed observed
identified confirmed determined found saw reported escalated declared mitigated resolved restored recovered
completed continued attempted applied deployed reverted restarted drained added removed increased decreased
moved shifted upgraded migrated rebuilt replaced checked verified monitored investigated affected impacted
degraded elevated reduced missing invalid incorrect correct unexpected unusual intermittent persistent
critical major minor severe significant healthy unhealthy available unavailable stale expected resulting
normal existing initial additional internal external multiple entire single small large higher lower`) {
		m[w] = true
	}
	return m
}()
