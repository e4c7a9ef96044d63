// Package gen builds a synthetic, deterministic corpus of incident cases for
// benchmarks and for evaluating related-case links against a known truth.
//
// Cases are assembled from a phrase grammar per failure mode: each root
// cause term has title, cause and action-item templates and the triggers,
// symptoms, components and remediations it tends to come with; every facet
// term has its own sentences and noun phrases. Templates have slots ($org,
// $subsystem, $metric, $t0, ...), alternatives ({a|b}) and optional parts
// ([...]). Background sentences mix in a Zipf-distributed vocabulary of
// real operations words followed by invented pseudo-words, so term
// statistics resemble a real postmortem corpus without copying any.
// Narratives run from MinWords to MaxWords words.
//
// Numbers: TTR is lognormal per root cause (overall median about 3.5 hours,
// mean about three times the median); TTD is lognormal per detection kind
// (minutes, with a long tail) and never exceeds TTR; about 35% of TTDs and
// 20% of TTRs are unknown (nil, with no timestamp). Start times spread over
// StartYear..EndYear with density rising towards the end; detected and
// resolved timestamps equal start plus TTD and TTR.
//
// Ground truth: ClusteredShare of the cases sit in planted clusters of
// ClusterSize members that share a failure mode (root cause, component and
// mostly trigger, symptom and remediation) and distinctive invented names:
// a subsystem name, a phrase and three rare words, each member using each
// of them only with some probability. Some cases name another cluster's
// subsystem in passing, as hard negatives. The rest are singletons with a
// failure mode of their own. Human tags follow the failure mode with a
// little noise. Clusters(opt) or Plan.Clusters gives the membership;
// WriteClusters and ReadClusters store it as clusters.json, a JSON object of
// cluster id -> member case ids.
//
// The same Options always give byte-identical cases, whatever the number of
// processors: every case draws from its own random stream.
package gen
