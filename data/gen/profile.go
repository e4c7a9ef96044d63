package gen

import (
	"math/rand/v2"
	"sync"
)

// profile is a failure mode shared by the members of a cluster (or owned by
// a singleton): the root cause, the facets it tends to come with, and the
// invented names that make the cluster recognisable.
type profile struct {
	cause     int // index into causeDefs
	component string
	trigger   string
	symptom   string
	symptom2  string // "" when none
	remedies  []string
	org       int // index into vocab.orgs, -1 when members are at different orgs
	service   string
	subsystem string    // invented proper name shared by the cluster
	sig       string    // distinctive phrase
	terms     [3]string // distinctive words
	region    string
}

// wordsPerProfile is how many distinct pool words a profile consumes.
const wordsPerProfile = 5

var (
	causeCumOnce sync.Once
	causeCum     []float64
)

func pickCause(r *rand.Rand) int {
	causeCumOnce.Do(func() {
		var t float64
		for _, c := range causeDefs {
			t += c.weight
			causeCum = append(causeCum, t)
		}
		for i := range causeCum {
			causeCum[i] /= t
		}
	})
	return zipfPick(r, causeCum)
}

// pickOrdered draws from l favouring earlier entries (weights n, n-1, ..., 1).
func pickOrdered(r *rand.Rand, l []string) string {
	n := len(l)
	x := r.IntN(n * (n + 1) / 2)
	for i := 0; i < n; i++ {
		w := n - i
		if x < w {
			return l[i]
		}
		x -= w
	}
	return l[0]
}

// newProfile draws a failure mode; word(j) gives the j-th distinctive word
// (j < wordsPerProfile) reserved for it.
func newProfile(r *rand.Rand, v *vocab, cluster bool, word func(j int) string) profile {
	ci := pickCause(r)
	cd := &causeDefs[ci]
	p := profile{
		cause:     ci,
		component: pickOrdered(r, cd.components),
		trigger:   pickOrdered(r, cd.triggers),
		symptom:   pickOrdered(r, cd.symptoms),
		org:       -1,
		region:    regions[r.IntN(len(regions))],
	}
	if r.IntN(3) > 0 {
		if s := cd.symptoms[r.IntN(len(cd.symptoms))]; s != p.symptom {
			p.symptom2 = s
		}
	}
	p.remedies = []string{pickOrdered(r, cd.remedies)}
	if r.IntN(3) == 0 {
		if s := cd.remedies[r.IntN(len(cd.remedies))]; s != p.remedies[0] {
			p.remedies = append(p.remedies, s)
		}
	}
	if cluster && r.IntN(10) < 3 {
		p.org = zipfPick(r, v.orgCum)
	}
	p.service = serviceNouns[r.IntN(len(serviceNouns))]
	p.subsystem = capitalize(word(0))
	p.sig = word(1) + " " + sigNouns[r.IntN(len(sigNouns))]
	p.terms = [3]string{word(2), word(3), word(4)}
	return p
}
