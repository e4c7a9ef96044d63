package similarity

// OrgIdentity is the key under which two spellings of one organisation
// are the same: a provider's every name (providers.yaml: "Amazon Web
// Services", "AWS" and "Amazon" are one) gives the key of its first name,
// any other name its letters and digits in lower case ("Travis CI" =
// "TravisCI"). Duplicate detection at ingest compares organisations by it.
func OrgIdentity(name string) string {
	k := orgKey(name)
	for _, names := range providers() {
		for _, n := range names {
			if orgKey(n) == k {
				return orgKey(names[0])
			}
		}
	}
	return k
}
