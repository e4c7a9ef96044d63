// Package analysis computes TTD and TTR statistics an SRE can trust from the
// store's public views: per-group counts, coverage (how many cases state the
// figure), median, p75, p90, mean and a distribution-free 90% confidence
// interval of the median, and period-over-period comparisons whose verdict only speaks of
// improvement or worsening when the interval of the difference excludes zero.
//
// Durations are skewed (roughly lognormal, the mean several times the
// median) and groups are small, so the median is the headline figure and
// every median carries its interval. DuckDB does the grouping: one query per
// table returns each group's values as a sorted list; the statistics are
// computed here in Go. StatsAll computes the tables of several groupings at
// once, the overall row once and the groupings on parallel connections.
//
// # Median interval
//
// The interval of a group's median is a pair of order statistics, the k-th
// smallest and the k-th largest figure: the number of figures below the
// true median is Binomial(n, 1/2) whatever the distribution, so k can be
// chosen (MedianOrder) such that the interval covers the median at least
// 90% of the time for every n from 5 on, ties included. The exact bootstrap interval
// used before covered it only 75% of the time at n=3, 78% at n=6 and 85% at
// n=12. The range of 3 or 4 figures, the widest such interval, covers the
// median only 75% or 87.5% of the time; it is reported with that coverage
// (Summary.CILevel) and every output says it.
//
// # Bootstrap
//
// The standard error of a median (and the minimum detectable change built
// from it) comes from the exact bootstrap distribution of the sample median
// (the limit of infinitely many resamples), which follows from binomial
// probabilities over the order statistics: the number of resampled values
// at or below the k-th smallest value is Binomial(n, k/n). It is therefore
// reproducible without a seed and costs O(sqrt(n)) binomial evaluations instead of B·n draws. For
// an even n the resample median is the mean of two order statistics whose
// joint distribution is computed exactly as well. Equal values are one
// support point, so the probabilities are only evaluated where a run of
// equal values ends: durations in whole minutes have few distinct values
// near the median, so a group of 100,000 such figures takes about 0.1 ms.
//
// The interval of a difference of two medians (Compare) draws B pairs of
// medians from the two exact distributions with a seeded generator, so every
// run prints the same interval. A verdict needs MinCompareN (= MinCILevel)
// figures a period, so no period whose own median interval falls short of
// 90% carries one; with two periods drawn from one lognormal population the
// verdict claims a change for 7-8.5% of pairs at 5 to 40 figures a period
// (TestCompareFalseVerdicts), within the 10% it allows.
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
