package similarity

import "testing"

func TestOrgIdentity(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		same bool
	}{
		{"Amazon Web Services", "AWS", true}, {"Amazon", "aws", true}, {"Google Cloud", "GCP", true},
		{"Travis CI", "TravisCI", true}, {"GitHub", "Gitlab", false}, {"Acme Cloud", "Acme", false},
	} {
		if got := OrgIdentity(tt.a) == OrgIdentity(tt.b); got != tt.same {
			t.Errorf("%s ~ %s: %v, want %v", tt.a, tt.b, got, tt.same)
		}
	}
}
