package reports

import (
	"time"

	"incidents/analysis"
)

// Options choose what Build gathers. Zero fields take defaults.
type Options struct {
	// Quarter is the quarter reported ("2024Q3"); "" means the latest
	// complete quarter in the data (see analysis.LatestCompleteQuarter).
	Quarter string
	// Title heads the page; "" gives "Reliability report 2024Q3" (with the
	// organisation when Org is set).
	Title string
	// Org restricts every figure to one organisation (matched without
	// regard to case); related cases may still belong to any organisation.
	Org string
	// RefuseEmpty makes Build refuse a quarter without cases (of Org when
	// set) with an *incident.Error of kind ErrEmpty that names the quarter
	// and the range of quarters that have cases, instead of building a
	// report of nothing. The report command sets it.
	RefuseEmpty bool
	// Now is the instant that decides which quarters are complete; zero
	// means the current time. It only picks the default quarter and never
	// appears in the report.
	Now time.Time
	// TrendQuarters is the number of quarters of the trend window, ending
	// with the reported one (default 8).
	TrendQuarters int
	// RelatedPerIncident is how many related cases the incident table
	// lists per incident (default 3); the pattern graph uses as many links.
	RelatedPerIncident int
	// MaxTableRows caps the incident table (default 500); the report says
	// how many rows were left out.
	MaxTableRows int
	// MaxGraphNodes caps the pattern graph (default 250): whole clusters
	// are added largest first while they fit.
	MaxGraphNodes int
	// TopTerms is the number of components, triggers and symptoms shown
	// (default 10, symptoms 12).
	TopTerms int
}

// Defaults of Options.
const (
	DefaultTrendQuarters      = 8
	DefaultRelatedPerIncident = 3
	DefaultMaxTableRows       = 500
	DefaultMaxGraphNodes      = 250
	DefaultTopTerms           = 10
	// MinReadable is the smallest group whose distribution is drawn as a
	// box; smaller groups are marked too small to read and shown as points.
	MinReadable = 5
	// MaxClusters is the number of clusters the pattern list shows.
	MaxClusters = 10
	// MaxClusterSize bounds a cluster: clusters grow along the strongest
	// links first and a link that would make one larger is not followed.
	MaxClusterSize = 15
)

func (o Options) normalize() Options {
	if o.TrendQuarters <= 0 {
		o.TrendQuarters = DefaultTrendQuarters
	}
	if o.RelatedPerIncident <= 0 {
		o.RelatedPerIncident = DefaultRelatedPerIncident
	}
	if o.MaxTableRows <= 0 {
		o.MaxTableRows = DefaultMaxTableRows
	}
	if o.MaxGraphNodes <= 0 {
		o.MaxGraphNodes = DefaultMaxGraphNodes
	}
	if o.TopTerms <= 0 {
		o.TopTerms = DefaultTopTerms
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	return o
}

// QuarterReport is the report data: everything Render draws, as plain
// values. Its JSON form is stable and is what the golden tests compare.
type QuarterReport struct {
	Title   string `json:"title"`
	Org     string `json:"org,omitempty"`
	Quarter string `json:"quarter"`
	// Previous is the quarter before, YearAgo the same quarter a year
	// earlier.
	Previous string `json:"previous"`
	YearAgo  string `json:"year_ago"`
	// Window lists the quarters of the trend, distributions and heatmap,
	// oldest first, ending with Quarter.
	Window []string `json:"window"`
	// Classes are the root-cause classes in vocabulary order with the
	// colour every chart gives them; "" is the class of cases without a
	// root cause.
	Classes    []Class        `json:"classes"`
	Headline   Headline       `json:"headline"`
	Trend      Trend          `json:"trend"`
	TTR        Distribution   `json:"ttr"`
	TTD        Distribution   `json:"ttd"`
	Heatmap    Heatmap        `json:"heatmap"`
	Components []TermCount    `json:"components"`
	Triggers   []TermCount    `json:"triggers"`
	Patterns   Patterns       `json:"patterns"`
	Incidents  IncidentTable  `json:"incidents"`
	Coverage   Coverage       `json:"coverage"`
	Links      *LinkGenerator `json:"links,omitempty"`
}

// Class is one root-cause class with its display colour.
type Class struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Color string `json:"color"`
}

// Headline is the quarter in one minute.
type Headline struct {
	Incidents        int `json:"incidents"`
	PreviousCount    int `json:"previous_incidents"`
	YearAgoCount     int `json:"year_ago_incidents"`
	ChangeVsPrevious int `json:"change_vs_previous"`
	ChangeVsYearAgo  int `json:"change_vs_year_ago"`
	// TTD and TTR summarise the quarter (median with its 90% interval).
	TTD analysis.Summary `json:"ttd"`
	TTR analysis.Summary `json:"ttr"`
	// Comparisons are the analysis verdicts of the median against the
	// previous quarter and the same quarter a year earlier.
	Comparisons []Comparison `json:"comparisons"`
	// Sentences say the above in words, for the top of the page.
	Sentences []string `json:"sentences"`
}

// Comparison is one overall analysis.Compare result.
type Comparison struct {
	Metric  string          `json:"metric"`
	Against string          `json:"against"` // "previous quarter" or "same quarter last year"
	PeriodA string          `json:"period_a"`
	PeriodB string          `json:"period_b"`
	Change  analysis.Change `json:"change"`
}

// Trend is incidents per quarter stacked by root-cause class.
type Trend struct {
	Quarters []string      `json:"quarters"`
	Totals   []int         `json:"totals"`
	Series   []TrendSeries `json:"series"`
}

// TrendSeries is one class's count per quarter of Trend.Quarters.
type TrendSeries struct {
	Class  string `json:"class"`
	Label  string `json:"label"`
	Counts []int  `json:"counts"`
}

// Distribution is one metric's spread by root-cause class over the window.
type Distribution struct {
	Metric string      `json:"metric"`
	Groups []DistGroup `json:"groups"`
	// Overall summarises every case of the window once.
	Overall analysis.Summary `json:"overall"`
}

// DistGroup is one root-cause class of a Distribution.
type DistGroup struct {
	Class   string           `json:"class"`
	Label   string           `json:"label"`
	Summary analysis.Summary `json:"summary"`
	// TooSmall is true when fewer than MinReadable cases state the figure:
	// no box is drawn, the figures are listed in Points instead.
	TooSmall bool `json:"too_small"`
	// Box is minimum, first quartile, median, third quartile and maximum
	// in minutes (nil when TooSmall).
	Box    []float64 `json:"box,omitempty"`
	Points []float64 `json:"points,omitempty"`
}

// Heatmap counts cases by primary root-cause class and symptom over the
// window (a case with several symptoms counts once in each).
type Heatmap struct {
	Classes  []string `json:"classes"`  // class ids, rows
	Symptoms []Term   `json:"symptoms"` // columns, most frequent first
	// Cells are [symptom index, class index, count] for non-zero counts.
	Cells [][3]int `json:"cells"`
	// Cases is the number of cases in the window; NoSymptom how many have
	// no symptom tag; OtherSymptoms how many tag only symptoms not shown.
	Cases         int `json:"cases"`
	NoSymptom     int `json:"no_symptom"`
	OtherSymptoms int `json:"other_symptoms"`
}

// Term is a vocabulary term with its label.
type Term struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

// TermCount is how many cases of the quarter carry a term, with the
// average per quarter over the rest of the window.
type TermCount struct {
	Term
	Quarter    int     `json:"quarter"`
	WindowMean float64 `json:"window_mean"`
}

// Patterns are the quarter's incidents joined to their related cases by
// the links of the current generation.
type Patterns struct {
	// Nodes and Edges are the drawn graph (at most MaxGraphNodes nodes).
	Nodes []Node `json:"nodes"`
	Edges []Edge `json:"edges"`
	// Clusters are the groups of two or more cases joined by links,
	// strongest links first and at most MaxClusterSize cases each; largest
	// first (at most MaxClusters). TotalClusters counts them all.
	Clusters      []Cluster `json:"clusters"`
	TotalClusters int       `json:"total_clusters"`
	// Isolated counts quarter incidents in no cluster: they have no related
	// case, or only links into clusters that are full (MaxClusterSize).
	Isolated int `json:"isolated"`
	// Omitted counts cases not drawn because of the node cap.
	Omitted int `json:"omitted"`
	// LinksPerIncident is how many top links of each incident are used.
	LinksPerIncident int `json:"links_per_incident"`
}

// Node is one case in the pattern graph.
type Node struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	Org       string `json:"org"`
	Date      string `json:"date,omitempty"`
	Class     string `json:"class"`
	InQuarter bool   `json:"in_quarter"`
	Cluster   int    `json:"cluster"` // index into the full cluster order, -1 for none
}

// Edge is one related-case link between two drawn nodes (indexes).
type Edge struct {
	From   int     `json:"from"`
	To     int     `json:"to"`
	Score  float64 `json:"score"`
	Reason string  `json:"reason"`
}

// Cluster is one connected group of related cases.
type Cluster struct {
	Rank      int      `json:"rank"`
	Size      int      `json:"size"`
	InQuarter int      `json:"in_quarter"`
	Class     string   `json:"class"` // most common root-cause class
	Label     string   `json:"label"`
	Orgs      []string `json:"orgs"`
	Members   []Member `json:"members"` // quarter incidents first, then by date
	// Reasons are the most frequent link reasons inside the cluster.
	Reasons []ReasonCount `json:"reasons"`
	Span    string        `json:"span"` // "2019 – 2025"
}

// Member is one case of a Cluster.
type Member struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	Org       string `json:"org"`
	Date      string `json:"date,omitempty"`
	InQuarter bool   `json:"in_quarter"`
}

// ReasonCount is a link reason and how many links in a cluster give it.
type ReasonCount struct {
	Reason string `json:"reason"`
	Links  int    `json:"links"`
}

// IncidentTable lists the quarter's incidents.
type IncidentTable struct {
	Rows  []IncidentRow `json:"rows"`
	Total int           `json:"total"`
	// Omitted rows are beyond MaxTableRows.
	Omitted int `json:"omitted"`
}

// IncidentRow is one incident of the quarter.
type IncidentRow struct {
	ID         string     `json:"id"`
	Date       string     `json:"date,omitempty"`
	Org        string     `json:"org"`
	Title      string     `json:"title"`
	TTD        *float64   `json:"ttd_minutes"`
	TTR        *float64   `json:"ttr_minutes"`
	TTDText    string     `json:"ttd"`
	TTRText    string     `json:"ttr"`
	RootCause  string     `json:"root_cause,omitempty"`
	Class      string     `json:"class"`
	Tags       []TagGroup `json:"tags,omitempty"`
	Related    []Related  `json:"related,omitempty"`
	SourceURLs []string   `json:"sources,omitempty"`
}

// TagGroup is the labels of one facet on a case.
type TagGroup struct {
	Facet  string   `json:"facet"`
	Labels []string `json:"labels"`
}

// Related is one computed related case with its reason.
type Related struct {
	ID     string  `json:"id"`
	Title  string  `json:"title"`
	Org    string  `json:"org"`
	Date   string  `json:"date,omitempty"`
	Rank   int     `json:"rank"`
	Score  float64 `json:"score"`
	Reason string  `json:"reason"`
	Pinned bool    `json:"pinned,omitempty"`
}

// Coverage says what the charts leave out.
type Coverage struct {
	Quarter CoverageRow `json:"quarter"`
	Window  CoverageRow `json:"window"`
	// UndatedInYear counts cases of the quarter's year dated only to the
	// year: they are in no quarter, so no chart shows them.
	UndatedInYear int `json:"undated_in_year"`
	// NoLinks counts quarter incidents without related links.
	NoLinks int `json:"no_links"`
}

// CoverageRow counts missing figures over a set of cases.
type CoverageRow struct {
	Cases       int `json:"cases"`
	NoTTD       int `json:"no_ttd"`
	NoTTR       int `json:"no_ttr"`
	NoRootCause int `json:"no_root_cause"`
	NoSymptom   int `json:"no_symptom"`
}

// LinkGenerator describes the related-link generation the patterns use
// (its creation time is left out so the report stays reproducible).
type LinkGenerator struct {
	Generation int64  `json:"generation"`
	Cases      int    `json:"cases"`
	NewestID   string `json:"newest_id,omitempty"`
}
