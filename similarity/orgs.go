package similarity

import "sync"

// OrgIdentity is the key under which two spellings of one organisation
// are the same: a provider's every name (providers.yaml: "Amazon Web
// Services", "AWS" and "Amazon" are one) gives the key of its first name,
// any other name its letters and digits in lower case ("Travis CI" =
// "TravisCI"). Duplicate detection at ingest compares organisations by it.
func OrgIdentity(name string) string {
	k := orgKey(name)
	if p, ok := providerKeys()[k]; ok {
		return p
	}
	return k
}

// providerKeys maps the key of every provider name onto the key of the
// provider's first name.
var providerKeys = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, names := range providers() {
		for _, n := range names {
			if _, taken := m[orgKey(n)]; !taken {
				m[orgKey(n)] = orgKey(names[0])
			}
		}
	}
	return m
})
