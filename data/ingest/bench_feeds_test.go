package ingest

import (
	"testing"
)

// BenchmarkStatusFeeds parses a feed of 1,000 incidents of two updates
// each in either feed format (detection, parsing, canonical form and
// derived durations); ns/op is per feed.
func BenchmarkStatusFeeds(b *testing.B) {
	for _, f := range []struct{ format, feed string }{
		{statuspageFormat, feedOfMany(1000, `{"id":"i%d","name":"Queue stalled %d","impact":"major","created_at":"2024-01-01T10:00:00.5+02:00","resolved_at":"2024-01-01T09:00:00Z",`+
			`"components":[{"name":"Queue"}],"incident_updates":[{"status":"investigating","body":"The queue is slow to drain; we are looking into it.","created_at":"2024-01-01T08:00:00.5Z"},`+
			`{"status":"resolved","body":"A bad config push throttled the consumers; it was rolled back and the queue drained.","created_at":"2024-01-01T09:00:00Z"}]}`, `{"page":{"name":"Example Org"},"incidents":[`, "]}")},
		{gcpStatusFormat, feedOfMany(1000, `{"id":"i%d","external_desc":"Queue stalled %d","service_name":"Queue","severity":"high","begin":"2024-01-01T08:00:00+00:00","created":"2024-01-01T08:10:00+00:00","end":"2024-01-01T09:00:00+00:00",`+
			`"affected_products":[{"title":"Queue","id":"q"}],"updates":[{"status":"SERVICE_OUTAGE","text":"The queue is slow to drain; we are looking into it.","when":"2024-01-01T08:10:00+00:00","affected_locations":[{"title":"Nordvik (europe-north9)","id":"europe-north9"}]},`+
			`{"status":"AVAILABLE","text":"A bad config push throttled the consumers; it was rolled back and the queue drained.","when":"2024-01-01T09:00:00+00:00"}]}`, "[", "]")},
	} {
		b.Run(f.format, func(b *testing.B) {
			in := Input{Name: "incidents.json", Data: []byte(f.feed)}
			b.SetBytes(int64(len(in.Data)))
			for i := 0; i < b.N; i++ {
				res, err := Parse(in, "")
				if err != nil || len(res.Incidents) != 1000 || res.Incidents[0].Format != f.format {
					b.Fatalf("%v", err)
				}
			}
		})
	}
}
