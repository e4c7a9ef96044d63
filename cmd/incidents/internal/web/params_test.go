package web

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"incidents/cmd/incidents/internal/engine"
	"incidents/data/incident"
)

// TestParams: the one validator of query parameters, for every kind of
// parameter, in strict (API) and lenient (page) mode.
func TestParams(t *testing.T) {
	for _, tc := range []struct {
		ep     endpoint
		query  string
		strict bool
		want   map[string]string // validated values; nil: refused
		field  string            // the parameter a refusal names
		hint   string            // in the refusal's hint
	}{
		{epCases, "", true, map[string]string{}, "", ""},
		{epCases, "since=2099-01-01", true, map[string]string{"since": "2099-01-01"}, "", ""},
		{epCases, "since=2024-13", true, nil, "since", "YYYY-MM-DD"},
		{epCases, "since=yesterday", true, nil, "since", "e.g. since=2024-01-01"},
		{epCases, "since=2021&until=2020", true, nil, "since", "swap"},
		{epCases, "since=2020-02&until=2020-02", true, map[string]string{"since": "2020-02", "until": "2020-02"}, "", ""},
		{epCases, "sinse=2020", true, nil, "sinse", "did you mean since?"},
		{epCases, "sinse=2020", false, map[string]string{}, "", ""},
		{epCases, "utm_source=mail&year=2021", false, map[string]string{"year": "2021"}, "", ""},
		{epCases, "limit=3&limit=4", true, nil, "limit", "once"},
		{epCases, "limit=501", true, nil, "limit", "page size"},
		{epCases, "limit=-1", true, nil, "limit", ""},
		{epCases, "limit=+3", true, map[string]string{"limit": "3"}, "", ""},
		{epCases, "offset=x", true, nil, "offset", ""},
		{epCases, "year=20", true, nil, "year", "four digits"},
		{epCases, "year=2021", true, map[string]string{"year": "2021"}, "", ""},
		{epCases, "root_cause=nosuch", true, nil, "root_cause", "/api/vocab"},
		{epCases, "root_cause=hardware/powr", true, nil, "root_cause", "did you mean hardware/power"},
		{epCases, "root_cause=Power+failure", true, map[string]string{"root_cause": "hardware/power"}, "", ""},
		{epCases, "component=LB", true, map[string]string{"component": "load-balancer"}, "", ""},
		{epCases, "root_cause=&q=+dns+", true, map[string]string{"q": "dns"}, "", ""},
		{epCases, "q=" + strings.Repeat("x", 1001), true, nil, "q", ""},
		{epStatus, "x=1", true, nil, "x", "takes no parameters"},
		{epCase, "k=3", true, nil, "k", "takes from_limit"},
		{epCase, "from_limit=0", true, map[string]string{"from_limit": "0"}, "", ""},
		{epSimilar, "k=101", true, nil, "k", ""},
		{epSimilar, "k=4", true, map[string]string{"k": "4"}, "", ""},
		{epStats, "by=bogus", true, nil, "by", ""},
		{epStats, "by=none&metric=ttd", true, map[string]string{"by": "none", "metric": "ttd"}, "", ""},
		{epStats, "metric=median", true, nil, "metric", "ttd or ttr"},
		{epStats, "metric=TTD", true, map[string]string{"metric": "ttd"}, "", ""},
		{epStats, "metric=Ttr", true, map[string]string{"metric": "ttr"}, "", ""},
		{epStats, "quarter=2024Q5", true, nil, "quarter", "2024Q3"},
		{epStats, "quarter=2024q3", true, map[string]string{"quarter": "2024Q3"}, "", ""},
		{epStats, "quarter=2024", true, nil, "quarter", ""},
		{epVocab, "facet=root_cause", true, nil, "facet", "takes no parameters"},
		{epTopic, "limit=x", true, nil, "limit", ""},
		{epSQL, "sql=SELECT+1", true, nil, "sql", "takes no parameters"},
		// url.Values drops these pairs without a word: the default grouping answered.
		{epStats, "by=org;metric=ttd", true, nil, "by", "not ;"},
		{epStats, "metric=ttd&by=%zzorg", true, nil, "by", "%25"},
		{epCases, "year=2021;utm=x", false, nil, "year", "not ;"},
		{epCases, "q=100%3B+dns", true, map[string]string{"q": "100; dns"}, "", ""},
	} {
		t.Run(tc.ep.path+"?"+tc.query, func(t *testing.T) {
			v, err := tc.ep.read(httptest.NewRequest("GET", tc.ep.path+"?"+tc.query, nil), tc.strict)
			if tc.want == nil {
				var ie *incident.Error
				if err == nil || !errors.As(err, &ie) || ie.Kind != incident.ErrInvalid || ie.Field != tc.field || !strings.Contains(ie.Msg, tc.field) || ie.Hint == "" || !strings.Contains(ie.Hint, tc.hint) {
					t.Fatalf("got %v, %v; want a refusal naming %q with a hint holding %q", v, err, tc.field, tc.hint)
				}
				if status, _, _ := classify(err); status != 400 {
					t.Errorf("status %d, want 400", status)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(v) != len(tc.want) {
				t.Fatalf("got %v, want %v", v, tc.want)
			}
			for k, w := range tc.want {
				if v[k] != w {
					t.Errorf("%s = %q, want %q", k, v[k], w)
				}
			}
		})
	}
}

// TestCountsAsMCP: a k or a limit out of range is refused with the
// engine's one message, the one the MCP tools give for the same figure.
func TestCountsAsMCP(t *testing.T) {
	for _, tc := range []struct {
		ep    endpoint
		query string
		want  error
	}{
		{epSimilar, "k=500", engine.KCount.Check(500)},
		{epCases, "limit=501", engine.LimitCount.Check(501)},
		{epCases, "offset=-2", engine.OffsetCount.Check(-2)},
		{epTopic, "limit=501", engine.TopicLimit.Check(501)},
	} {
		_, err := tc.ep.read(httptest.NewRequest("GET", tc.ep.path+"?"+tc.query, nil), true)
		if tc.want == nil || err == nil || err.Error() != tc.want.Error() {
			t.Errorf("%s?%s: got %v, want %v", tc.ep.path, tc.query, err, tc.want)
		}
	}
}

// TestFilterOfParams: validated case-list parameters make the engine's
// filter (dates as the days they bound).
func TestFilterOfParams(t *testing.T) {
	v, err := epCases.read(httptest.NewRequest("GET", "/api/cases?since=2020-03&until=2020&root_cause=hardware&limit=7&offset=2&year=2020&org=+GitHub+", nil), true)
	if err != nil {
		t.Fatal(err)
	}
	f := v.filter()
	if f.SinceDay.Format("2006-01-02") != "2020-03-01" || f.UntilDay.Format("2006-01-02") != "2020-12-31" || f.RootCause != "hardware" ||
		f.Limit != 7 || f.Offset != 2 || f.Year != 2020 || f.Org != "GitHub" {
		t.Errorf("filter %+v", f)
	}
}
