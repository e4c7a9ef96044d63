package incident

import "testing"

// TestDurationWithoutMinutes: a ttd or ttr object that states no minutes
// ({}, {"source": "given"}, "minutes": null) decodes to 0 minutes, a known
// duration the file never stated, so it is named; absent or null durations
// and stated figures are not.
func TestDurationWithoutMinutes(t *testing.T) {
	tests := []struct{ raw, want string }{
		{`{"id": "a"}`, ""},
		{`{"ttr": null}`, ""},
		{`{"ttr": {"minutes": 0, "source": "given"}}`, ""},
		{`{"ttd": {"minutes": 5}, "ttr": {"minutes": 9}}`, ""},
		{`{"ttr": {}}`, "ttr"},
		{`{"ttr": {"source": "given"}}`, "ttr"},
		{`{"ttd": {"minutes": null}}`, "ttd"},
		{`{"TTR": {"Source": "given"}}`, "ttr"}, // names match without regard to case, as encoding/json's
		{`{"ttd": {"minutes": 1}, "ttr": {}}`, "ttr"},
		{`{"ttd": {}, "ttr": {}}`, "ttd"},
		{`not json`, ""},
	}
	for _, tt := range tests {
		if got := DurationWithoutMinutes([]byte(tt.raw)); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.raw, got, tt.want)
		}
	}
}
