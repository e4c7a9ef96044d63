// Package analysis computes TTD and TTR statistics an SRE can trust from the
// store's public views: per-group counts, coverage (how many cases state the
// figure), median, p75, p90, mean and a bootstrap 90% confidence interval of
// the median, and period-over-period comparisons whose verdict only speaks of
// improvement or worsening when the interval of the difference excludes zero.
//
// Durations are skewed (roughly lognormal, the mean several times the
// median) and groups are small, so the median is the headline figure and
// every median carries its interval. DuckDB does the grouping: one query per
// table returns each group's values as a sorted list; the statistics are
// computed here in Go. StatsAll computes the tables of several groupings at
// once, the overall row once and the groupings on parallel connections.
//
// # Bootstrap
//
// The percentile bootstrap interval of a median is computed from the exact
// bootstrap distribution of the sample median (the limit of infinitely many
// resamples), which follows from binomial probabilities over the order
// statistics: the number of resampled values at or below the k-th smallest
// value is Binomial(n, k/n). The interval is therefore reproducible without a
// seed and costs O(sqrt(n)) binomial evaluations instead of B·n draws. For
// an even n the resample median is the mean of two order statistics whose
// joint distribution is computed exactly as well. Equal values are one
// support point, so the probabilities are only evaluated where a run of
// equal values ends: durations in whole minutes have few distinct values
// near the median, so a group of 100,000 such figures takes about 0.1 ms.
//
// The interval of a difference of two medians (Compare) draws B pairs of
// medians from the two exact distributions with a seeded generator, so every
// run prints the same interval.
//
// Statistics read cases from the public incidents view and tags from the
// public tags view, like any user query.
//
// Ad hoc SQL (the sql command, the SQL page and API) lives in
// data/console.
//
// Quantiles use the linear interpolation between order statistics that
// spreadsheets, R (type 7) and NumPy use by default: the median of 1, 2, 3,
// 4 is 2.5.
package analysis
