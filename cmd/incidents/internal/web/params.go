package web

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"incidents/analysis"
	"incidents/cmd/incidents/internal/engine"
	"incidents/data/incident"
	"incidents/taxonomy"
)

// Query parameters: each endpoint declares the parameters it takes, and one
// validator reads them. The JSON API honours every parameter it is given or
// refuses the request with 400 and a JSON error naming the parameter with
// a hint: an unknown parameter (a typo would otherwise be ignored and the
// answer look filtered), one given twice, or a value out of its form or
// range. Pages take the same parameters and validate their values the
// same way, but ignore parameters they do not know (a bookmark may carry
// tracking parameters). An empty value is no value (a form sends every
// field).

// paramKind is the form of a parameter's value.
type paramKind int

const (
	pText    paramKind = iota // any text, trimmed, at most max bytes
	pCount                    // whole number from min to max
	pYear                     // a year, 1000–9999
	pDate                     // YYYY, YYYY-MM or YYYY-MM-DD
	pQuarter                  // 2024Q3
	pTerm                     // a term of facet (id, label or alias)
	pChoice                   // one of choices
	pMetric                   // ttd or ttr, in any case (analysis.ParseMetric, as the CLI reads --metric)
)

// param is one parameter an endpoint takes.
type param struct {
	name     string
	kind     paramKind
	min, max int            // pCount bounds; pText max length
	facet    incident.Facet // pTerm
	choices  []string       // pChoice
	help     string         // what it does, for the list of parameters
}

// endpoint is a path and the parameters it takes.
type endpoint struct {
	path   string
	params []param
}

// Parameters of the case lists (pages and API).
var (
	pQ         = param{name: "q", kind: pText, max: 1000, help: "free text"}
	pRootCause = param{name: "root_cause", kind: pTerm, facet: incident.RootCause, help: "root-cause term"}
	pSymptom   = param{name: "symptom", kind: pTerm, facet: incident.Symptom, help: "symptom term"}
	pComponent = param{name: "component", kind: pTerm, facet: incident.Component, help: "component term"}
	pTrigger   = param{name: "trigger", kind: pTerm, facet: incident.Trigger, help: "trigger term"}
	pOrg       = param{name: "org", kind: pText, max: 200, help: "organisation"}
	pYearP     = param{name: "year", kind: pYear, help: "year"}
	pSince     = param{name: "since", kind: pDate, help: "first date, inclusive"}
	pUntil     = param{name: "until", kind: pDate, help: "last date, inclusive"}
	pLimit     = countParam(engine.LimitCount)
	pOffset    = countParam(engine.OffsetCount)
)

var (
	caseListParams = []param{pQ, pRootCause, pSymptom, pComponent, pTrigger, pOrg, pYearP, pSince, pUntil, pLimit, pOffset}

	epStatus  = endpoint{"/api/status", nil}
	epCases   = endpoint{"/api/cases", caseListParams}
	epSearch  = endpoint{"/api/search", caseListParams}
	epCase    = endpoint{"/api/cases/{id}", []param{{name: "from_limit", kind: pCount, min: 0, max: 1 << 30, help: "cases listing this one to return (0: all)"}}}
	epSimilar = endpoint{"/api/cases/{id}/similar", []param{countParam(engine.KCount)}}
	epVocab   = endpoint{"/api/vocab", nil}
	epTopic   = endpoint{"/api/vocab/{facet}/{term}", []param{countParam(engine.TopicLimit)}}
	epStats   = endpoint{"/api/stats", []param{
		{name: "by", kind: pChoice, choices: append(slices.Clone(analysis.Groupings), "none"), help: "grouping"},
		{name: "metric", kind: pMetric, help: "ttd or ttr"},
		pSince, pUntil, pOrg, {name: "quarter", kind: pQuarter, help: "quarter"}, pYearP,
	}}
	epSQL = endpoint{"/api/sql", nil} // the statement comes in the JSON body

	epIndex = endpoint{"/", caseListParams}
)

// countParam is the parameter of a whole number the MCP tools share
// (engine.Count: one range and one refusal for both).
func countParam(c engine.Count) param {
	return param{name: c.Name, kind: pCount, min: c.Min, max: c.Max, help: c.Help}
}

// values are the parameters of a request, validated: text trimmed, terms
// as their ids.
type values map[string]string

func (v values) get(name string) string { return v[name] }

// count returns a validated pCount, pYear parameter (0 when absent).
func (v values) count(name string) int {
	n, _ := strconv.Atoi(v[name])
	return n
}

// read validates the query of r against the endpoint's parameters. strict
// (the API) refuses parameters the endpoint does not take.
func (ep endpoint) read(r *http.Request, strict bool) (values, error) {
	q, err := parseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, err
	}
	out := values{}
	for name, vs := range q {
		p, ok := ep.param(name)
		if !ok {
			if strict {
				return nil, ep.unknown(name)
			}
			continue
		}
		if len(vs) > 1 {
			return nil, &incident.Error{Kind: incident.ErrInvalid, Field: name, Msg: fmt.Sprintf("parameter %s is given %d times", name, len(vs)),
				Hint: "give it once"}
		}
		v, err := p.check(vs[0])
		if err != nil {
			return nil, err
		}
		if v != "" {
			out[name] = v
		}
	}
	if _, _, err := incident.DateRange(out["since"], out["until"]); err != nil {
		return nil, err
	}
	return out, nil
}

// parseQuery reads a query string as url.ParseQuery does, but refuses the
// pairs it would drop without a word (r.URL.Query() ignores its error): a
// ';' separator (by=org;metric=ttd) or a broken % escape, naming the
// parameter.
func parseQuery(raw string) (url.Values, error) {
	q, err := url.ParseQuery(raw)
	if err == nil {
		return q, nil
	}
	for part := range strings.SplitSeq(raw, "&") {
		if _, perr := url.ParseQuery(part); perr == nil {
			continue
		}
		name, _, _ := strings.Cut(part, "=")
		if n, uerr := url.QueryUnescape(name); uerr == nil {
			name = n
		}
		if len(part) > 60 {
			part = part[:60] + "…"
		}
		hint := "write a literal % as %25"
		if strings.Contains(part, ";") {
			hint = "separate parameters with &, not ;, and write a literal ; as %3B"
		}
		return nil, &incident.Error{Kind: incident.ErrInvalid, Field: name,
			Msg: fmt.Sprintf("parameter %s cannot be read from %q", name, part), Hint: hint}
	}
	return nil, &incident.Error{Kind: incident.ErrInvalid, Msg: "the query string cannot be read: " + err.Error(),
		Hint: "separate parameters with & and percent-encode their values"}
}

func (ep endpoint) param(name string) (param, bool) {
	for _, p := range ep.params {
		if p.name == name {
			return p, true
		}
	}
	return param{}, false
}

// unknown is the error of a parameter the endpoint does not take.
func (ep endpoint) unknown(name string) error {
	hint := ep.path + " takes no parameters"
	if len(ep.params) > 0 {
		names := make([]string, len(ep.params))
		for i, p := range ep.params {
			names[i] = p.name
		}
		hint = ep.path + " takes " + strings.Join(names, ", ")
		if near := nearestName(name, names); near != "" {
			hint = "did you mean " + near + "? " + hint
		}
	}
	return &incident.Error{Kind: incident.ErrInvalid, Field: name, Msg: fmt.Sprintf("unknown parameter %q", name), Hint: hint}
}

// nearestName returns the name that differs from s at most by case or one
// edit, if any.
func nearestName(s string, names []string) string {
	if near := incident.NearestIDs(s, slices.Values(names)); len(near) > 0 {
		return near[0]
	}
	return ""
}

// check validates one value and returns it as the handler reads it.
func (p param) check(raw string) (string, error) {
	v := strings.TrimSpace(raw)
	if v == "" {
		return "", nil
	}
	bad := func(want, hint string) error {
		shown := v
		if len(shown) > 40 {
			shown = shown[:40] + "…"
		}
		return &incident.Error{Kind: incident.ErrInvalid, Field: p.name, Msg: fmt.Sprintf("parameter %s=%q is not %s", p.name, shown, want), Hint: hint}
	}
	switch p.kind {
	case pText:
		if len(v) > p.max {
			return "", bad(fmt.Sprintf("at most %d bytes", p.max), "shorten it")
		}
	case pCount:
		n, err := engine.Count{Name: p.name, Min: p.min, Max: p.max, Help: p.help}.Parse(v)
		if err != nil {
			return "", err
		}
		return strconv.Itoa(n), nil
	case pYear:
		n, err := strconv.Atoi(v)
		if err != nil || n < incident.MinYear || n > 9999 {
			return "", bad("a year", fmt.Sprintf("write the year in four digits, e.g. %s=2021", p.name))
		}
	case pDate:
		if _, err := incident.DateBound(p.name, v, false); err != nil {
			return "", bad("a date", fmt.Sprintf("write YYYY, YYYY-MM or YYYY-MM-DD, e.g. %s=2024-01-01", p.name))
		}
	case pQuarter:
		pd, err := analysis.ParsePeriod(v)
		if err != nil || pd.Quarter == 0 {
			return "", bad("a quarter", fmt.Sprintf("write the year and quarter, e.g. %s=2024Q3", p.name))
		}
		return pd.String(), nil
	case pTerm:
		voc := taxonomy.Default()
		if t, ok := voc.Lookup(p.facet, v); ok {
			return t.ID, nil
		}
		hint := fmt.Sprintf("the %s terms are listed at /api/vocab", p.facet)
		if near := voc.Suggest(p.facet, v, 3); len(near) > 0 {
			ids := make([]string, len(near))
			for i, t := range near {
				ids[i] = t.ID
			}
			hint = "did you mean " + strings.Join(ids, ", ") + "? " + hint
		}
		return "", bad("a "+string(p.facet)+" term of the vocabulary", hint)
	case pMetric:
		m, err := analysis.ParseMetric(v)
		if err != nil {
			return "", bad("ttd or ttr", p.name+": "+p.help)
		}
		return m, nil
	case pChoice:
		if !slices.Contains(p.choices, v) {
			return "", bad("one of "+strings.Join(p.choices, ", "), p.name+": "+p.help)
		}
	}
	return v, nil
}

// filter is the case filter of validated case-list parameters.
func (v values) filter() engine.Filter {
	f := engine.Filter{Q: v.get("q"), RootCause: v.get("root_cause"), Symptom: v.get("symptom"), Component: v.get("component"),
		Trigger: v.get("trigger"), Org: v.get("org"), Year: v.count("year"), Limit: v.count("limit"), Offset: v.count("offset"),
		Since: v.get("since"), Until: v.get("until")}
	f, _ = f.Dated() // validated with the other parameters
	return f.Normalize()
}
