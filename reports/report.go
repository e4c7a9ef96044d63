package reports

import (
	"time"

	"incidents/analysis"
)

// Options choose what Build gathers. Zero fields take defaults.
type Options struct {
	// Quarter forces the quarter reported ("2024Q3"). "" lets the data
	// choose: the latest complete quarter when it has enough cases for the
	// headline figures, otherwise the last four quarters (see Period).
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
	// means the current time. It only picks the default period and never
	// appears in the report.
	Now time.Time
	// TrendQuarters is the number of quarters of the trend window, ending
	// with the last quarter reported (default and least 8: the window
	// holds every period the headline compares with).
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
	// MinReadable is the fewest figures a chart draws: a box needs at
	// least as many known figures of its group, a bar chart of tags as
	// many tagged incidents. Smaller groups are listed in the tables only
	// and a chart without enough data is replaced by a sentence saying
	// what is missing.
	MinReadable = 5
	// FallbackQuarters is the length of the period chosen when the latest
	// complete quarter has too few cases for the headline figures.
	FallbackQuarters = 4
	// TargetChange is the relative change of a median the "what would it
	// take" line sizes the quarters for (20%).
	TargetChange = 0.20
	// MaxClusters is the number of clusters the pattern list shows.
	MaxClusters = 10
	// MaxClusterSize bounds a cluster: clusters grow along the strongest
	// links first and a link that would make one larger is not followed.
	MaxClusterSize = 15
)

func (o Options) normalize() Options {
	o.TrendQuarters = max(o.TrendQuarters, DefaultTrendQuarters)
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
	Title  string `json:"title"`
	Org    string `json:"org,omitempty"`
	Period Period `json:"period"`
	// Window lists the quarters of the trend, distributions and heatmap,
	// oldest first, ending with the last quarter of the period.
	Window []string `json:"window"`
	// Classes are the root-cause classes in vocabulary order with the
	// colour every chart gives them; "" is the class of cases without a
	// root cause.
	Classes    []Class      `json:"classes"`
	Resolution Resolution   `json:"resolution"`
	Headline   Headline     `json:"headline"`
	Trend      Trend        `json:"trend"`
	Resolve    Distribution `json:"resolve"`
	TTD        Distribution `json:"ttd"`
	Heatmap    Heatmap      `json:"heatmap"`
	Components []TermCount  `json:"components"`
	Triggers   []TermCount  `json:"triggers"`
	// TermsBefore describes the comparison of the component and trigger
	// charts ("mean per quarter, previous 7 quarters").
	TermsBefore string        `json:"terms_before"`
	Patterns    Patterns      `json:"patterns"`
	Incidents   IncidentTable `json:"incidents"`
	Coverage    Coverage      `json:"coverage"`
	// Charts says, in page order, which charts are drawn and, for each
	// one that is not, the sentence that replaces it.
	Charts []ChartStatus  `json:"charts"`
	Links  *LinkGenerator `json:"links,omitempty"`
}

// Period is what the report covers, what it is compared with and why.
type Period struct {
	// Label names the period: "2025Q4", or "2025Q1–2025Q4".
	Label string `json:"label"`
	// Quarters are the period's quarters, oldest first.
	Quarters []string `json:"quarters"`
	// Previous is the period of the same length just before it, with its
	// quarters; YearAgo the same quarter a year earlier ("" when the
	// period is four quarters long: its previous period is a year earlier).
	Previous         string   `json:"previous"`
	PreviousQuarters []string `json:"previous_quarters"`
	YearAgo          string   `json:"year_ago,omitempty"`
	// Chosen is how the period was chosen: PeriodAsked, PeriodLatest or
	// PeriodFallback.
	Chosen string `json:"chosen"`
	// Why says so in one sentence.
	Why string `json:"why"`
}

// How a Period was chosen.
const (
	PeriodAsked    = "asked"                   // Options.Quarter
	PeriodLatest   = "latest complete quarter" // it has enough cases
	PeriodFallback = "last four quarters"      // the latest quarter has too few
)

// Measures of how long an incident lasted, computed per case.
const (
	// MeasureTTM is the time to mitigate: from detection to mitigation,
	// for cases whose source gives both times.
	MeasureTTM = "ttm"
	// MeasureExposure is from the start of impact to resolution, for
	// cases whose source gives both times.
	MeasureExposure = "exposure"
	// MeasureStated is the time to resolve as the source states it (not
	// computed at import); sources may measure it from different starting
	// points.
	MeasureStated = "ttr"
)

// Resolution says how the report measures how long incidents lasted: of
// the measures each case may give, the one most cases of the window state
// (time to mitigate on a tie, then exposure), so that every figure of it is
// defined the same way.
type Resolution struct {
	Measure string `json:"measure"`
	// Name is the measure in words ("exposure"), Definition what it spans
	// ("from the start of impact to resolution").
	Name       string `json:"name"`
	Definition string `json:"definition"`
	// Cases is the number of cases of the window; TTM, Exposure and Stated
	// how many of them give each measure.
	Cases    int `json:"cases"`
	TTM      int `json:"ttm"`
	Exposure int `json:"exposure"`
	Stated   int `json:"stated"`
	// Why says in one sentence which measure is used and why.
	Why string `json:"why"`
}

// Class is one root-cause class with its display colour.
type Class struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Color string `json:"color"`
}

// Headline is the period in one minute.
type Headline struct {
	Incidents        int `json:"incidents"`
	PreviousCount    int `json:"previous_incidents"`
	YearAgoCount     int `json:"year_ago_incidents"`
	ChangeVsPrevious int `json:"change_vs_previous"`
	ChangeVsYearAgo  int `json:"change_vs_year_ago"`
	// TTD and Resolution summarise the period (median with its 90%
	// interval); Resolution is of the measure Resolution names.
	TTD        analysis.Summary `json:"ttd"`
	Resolution analysis.Summary `json:"resolution"`
	// Comparisons are the analysis verdicts of the medians against the
	// previous period and, for one quarter, the same quarter a year
	// earlier.
	Comparisons []Comparison `json:"comparisons"`
	// Needs say, per median figure, what it would take to see a change.
	Needs []Need `json:"needs"`
	// Sentences say the above in words, for the top of the page.
	Sentences []string `json:"sentences"`
}

// Comparison is one overall analysis comparison of two periods.
type Comparison struct {
	Metric  string          `json:"metric"`
	Against string          `json:"against"` // "previous quarter", "same quarter last year", "previous four quarters"
	PeriodA string          `json:"period_a"`
	PeriodB string          `json:"period_b"`
	Change  analysis.Change `json:"change"`
}

// Need is the "what would it take" line of one median figure: how many
// incidents a quarter would make a change of TargetChange of the median
// detectable (analysis.NeededPerPeriod, from the spread of the window's
// figures).
type Need struct {
	Metric string `json:"metric"`
	// Basis is how many known figures of the window the estimate rests on.
	Basis int `json:"basis"`
	// Known is the number of known figures each quarter needs, Incidents
	// the number of incidents that gives at the window's share of incidents
	// stating the figure; both 0 when it cannot be estimated.
	Known     int    `json:"known_per_quarter"`
	Incidents int    `json:"incidents_per_quarter"`
	Sentence  string `json:"sentence"`
}

// ChartStatus says whether one chart is drawn and, when it is not, what is
// missing, in one sentence that takes the chart's place.
type ChartStatus struct {
	ID      string `json:"id"`
	Drawn   bool   `json:"drawn"`
	Missing string `json:"missing,omitempty"`
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
	// Metric is "ttd" or a resolution measure (MeasureExposure, ...).
	Metric string `json:"metric"`
	// Groups are the root-cause classes with cases in the window, in class
	// order (every Distribution of a report has the same groups).
	Groups []DistGroup `json:"groups"`
	// Overall summarises every case of the window once; Box is its
	// minimum, quartiles and maximum (nil under MinReadable figures).
	Overall analysis.Summary `json:"overall"`
	Box     []float64        `json:"box,omitempty"`
}

// DistGroup is one root-cause class of a Distribution.
type DistGroup struct {
	Class   string           `json:"class"`
	Label   string           `json:"label"`
	Summary analysis.Summary `json:"summary"`
	// TooSmall is true when fewer than MinReadable cases state the figure:
	// the group has no box, only its row in the table.
	TooSmall bool `json:"too_small"`
	// Box is minimum, first quartile, median, third quartile and maximum
	// in minutes (nil when TooSmall).
	Box []float64 `json:"box,omitempty"`
	// Longest is the case with the largest figure, so that a p90 or a
	// mean one outlier inflates can be traced to it (nil when none is
	// known).
	Longest *Longest `json:"longest,omitempty"`
}

// Longest names the case with the largest figure of a group.
type Longest struct {
	ID      string  `json:"id"`
	Minutes float64 `json:"minutes"`
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

// TermCount is how many cases of the period carry a term, with the mean
// per period of the same length over the window's earlier quarters
// (QuarterReport.TermsBefore says which).
type TermCount struct {
	Term
	Period int     `json:"period"`
	Before float64 `json:"before"`
}

// Patterns are the period's incidents joined to their related cases by
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
	// Isolated counts the period's incidents in no cluster: they have no related
	// case, or only links into clusters that are full (MaxClusterSize).
	Isolated int `json:"isolated"`
	// Omitted counts cases not drawn because of the node cap.
	Omitted int `json:"omitted"`
	// LinksPerIncident is how many top links of each incident are used.
	LinksPerIncident int `json:"links_per_incident"`
}

// Node is one case in the pattern graph.
type Node struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Org      string `json:"org"`
	Date     string `json:"date,omitempty"`
	Class    string `json:"class"`
	InPeriod bool   `json:"in_period"`
	Cluster  int    `json:"cluster"` // index into the full cluster order, -1 for none
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
	Rank     int      `json:"rank"`
	Size     int      `json:"size"`
	InPeriod int      `json:"in_period"`
	Class    string   `json:"class"` // most common root-cause class
	Label    string   `json:"label"`
	Orgs     []string `json:"orgs"`
	Members  []Member `json:"members"` // the period's incidents first, then by date
	// Reasons are the most frequent link reasons inside the cluster.
	Reasons []ReasonCount `json:"reasons"`
	Span    string        `json:"span"` // "2019 – 2025"
}

// Member is one case of a Cluster.
type Member struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Org      string `json:"org"`
	Date     string `json:"date,omitempty"`
	InPeriod bool   `json:"in_period"`
}

// ReasonCount is a link reason and how many links in a cluster give it.
type ReasonCount struct {
	Reason string `json:"reason"`
	Links  int    `json:"links"`
}

// IncidentTable lists the period's incidents.
type IncidentTable struct {
	Rows  []IncidentRow `json:"rows"`
	Total int           `json:"total"`
	// Omitted rows are beyond MaxTableRows.
	Omitted int `json:"omitted"`
}

// IncidentRow is one incident of the period: its time to detect, time to
// mitigate, exposure and the time to resolve its source states (nil when
// the source states none).
type IncidentRow struct {
	ID           string     `json:"id"`
	Date         string     `json:"date,omitempty"`
	Org          string     `json:"org"`
	Title        string     `json:"title"`
	TTD          *float64   `json:"ttd_minutes"`
	TTM          *float64   `json:"ttm_minutes"`
	Exposure     *float64   `json:"exposure_minutes"`
	TTR          *float64   `json:"ttr_minutes"`
	TTDText      string     `json:"ttd"`
	TTMText      string     `json:"ttm"`
	ExposureText string     `json:"exposure"`
	TTRText      string     `json:"ttr"`
	RootCause    string     `json:"root_cause,omitempty"`
	Class        string     `json:"class"`
	Tags         []TagGroup `json:"tags,omitempty"`
	Related      []Related  `json:"related,omitempty"`
	SourceURLs   []string   `json:"sources,omitempty"`
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
	// Event names the real-world event both cases report, when the
	// related case is another organisation's report of it.
	Event string `json:"event,omitempty"`
}

// Coverage says what the charts leave out.
type Coverage struct {
	Period CoverageRow `json:"period"`
	Window CoverageRow `json:"window"`
	// UndatedInYear counts cases of the period's years dated only to the
	// year: they are in no quarter, so no chart shows them.
	UndatedInYear int `json:"undated_in_year"`
	// NoLinks counts the period's incidents without related links.
	NoLinks int `json:"no_links"`
}

// CoverageRow counts missing figures over a set of cases.
type CoverageRow struct {
	Cases        int `json:"cases"`
	NoTTD        int `json:"no_ttd"`
	NoResolution int `json:"no_resolution"` // the measure Resolution names
	NoRootCause  int `json:"no_root_cause"`
	NoSymptom    int `json:"no_symptom"`
}

// LinkGenerator describes the related-link generation the patterns use
// (its creation time is left out so the report stays reproducible).
type LinkGenerator struct {
	Generation int64  `json:"generation"`
	Cases      int    `json:"cases"`
	NewestID   string `json:"newest_id,omitempty"`
}
