package ingest

import "testing"

func TestPlainISOStamps(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"at 2025-05-20T03:10:00+10:00 the", "at 2025-05-19 17:10 UTC the"},
		{"2025-05-19T18:25Z", "2025-05-19 18:25 UTC"},
		{"2025-05-19T18:25:07.123Z.", "2025-05-19 18:25 UTC."},
		{"2025-01-01T00:30-05:30", "2025-01-01 06:00 UTC"},
		{"2025-01-01T00:30+0100", "2024-12-31 23:30 UTC"},
		{"2025-01-01T00:30+01", "2024-12-31 23:30 UTC"},
		{"2025-05-20T03:10:00", "2025-05-20 03:10"},
		{"2025-05-20T03:10:00,5", "2025-05-20 03:10"},
		// No real day, time or offset: left as written.
		{"2025-02-30T03:10Z", "2025-02-30T03:10Z"},
		{"2025-05-20T25:10Z", "2025-05-20T25:10Z"},
		{"2025-05-20T03:10+25:00", "2025-05-20T03:10+25:00"},
		// Not a stamp.
		{"build 2025-05-20Tx", "build 2025-05-20Tx"},
		{"2025-05-20 03:10 UTC", "2025-05-20 03:10 UTC"},
		{"id 12025-05-20T03:10Z", "id 12025-05-20T03:10Z"},
		{"line one\n2025-05-20T03:10Z\nline three", "line one\n2025-05-20 03:10 UTC\nline three"},
	} {
		if got := plainISOStamps(tc.in); got != tc.want {
			t.Errorf("plainISOStamps(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
