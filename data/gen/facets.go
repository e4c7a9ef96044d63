package gen

// Phrases per facet term. $symptom, $trigger and $component expand to one of
// the noun phrases below for the case's own term; the sentence lists are
// drawn when the narrative describes that facet.

var symptomNouns = map[string][]string{
	"high-error-rate":      {"elevated error rates", "a high rate of 5xx errors", "increased errors", "failed requests", "HTTP 500 and 503 errors"},
	"elevated-latency":     {"elevated latency", "slow responses", "high p99 latency", "increased response times"},
	"timeouts":             {"request timeouts", "timeouts", "timed-out calls", "client timeouts"},
	"probe-failures":       {"failed health checks", "probe failures", "health-check failures"},
	"total-outage":         {"a full outage", "a complete outage", "total unavailability", "an outage"},
	"partial-outage":       {"a partial outage", "partial unavailability", "degraded availability", "intermittent unavailability"},
	"data-loss":            {"data loss", "lost records", "missing data"},
	"data-corruption":      {"data corruption", "inconsistent data", "corrupted records"},
	"degraded-performance": {"degraded performance", "slow processing", "reduced throughput", "a performance degradation"},
	"failed-operations":    {"failed deployments and admin operations", "control plane errors", "failed API operations", "failed management operations"},
	"connectivity-loss":    {"loss of connectivity", "packet loss", "connection failures", "unreachable endpoints"},
	"security-exposure":    {"exposure of customer data", "unauthorized access", "a data exposure"},
	"wrong-results":        {"incorrect results", "wrong answers", "incorrect behaviour", "inconsistent responses"},
}

var symptomSentences = map[string][]string{
	"high-error-rate":      {"Clients received {HTTP 5xx|500|503} errors for about $pct% of requests to $service", "The error rate of $service rose from {under 0.1%|a baseline of 0.05%} to $pct%", "{Requests|API calls} to $service {failed|returned errors} {intermittently|in bursts} [in $region]"},
	"elevated-latency":     {"p99 latency of $service rose from {$n0 ms|about $n0 milliseconds} to {several seconds|$big ms}", "Requests to $service {slowed down|took much longer than usual} [in $region]", "{Page loads|API calls|Queries} were {$n times|several times} slower than normal"},
	"timeouts":             {"Clients of $service saw {requests|calls} time out after {$n seconds|the default deadline}", "{Many|Most} {requests|connections} to $service timed out [in $region]"},
	"probe-failures":       {"Health checks against $service {failed|flapped} and {instances|backends} were marked unhealthy", "The $component probes {failed|timed out} for {$n|most} backends"},
	"total-outage":         {"$service was {completely unavailable|down|unreachable} for {all|nearly all} {customers|users}", "{All|Every} request to $service failed [in $region]"},
	"partial-outage":       {"About $pct% of {customers|users|tenants} could not use $service", "$service was unavailable in $region while other regions kept working", "A subset of $service {endpoints|features} was unavailable"},
	"data-loss":            {"{Some|About $big} {records|objects|messages} written during the incident were lost", "Customers reported that recent {changes|uploads|messages} in $service were missing"},
	"data-corruption":      {"{Some|About $big} records in $service were written with {inconsistent|corrupted|stale} values", "$service returned {corrupted|inconsistent} data for a subset of {accounts|objects}"},
	"degraded-performance": {"$service {processed|served} work at a fraction of its usual rate", "Throughput of $service dropped by about $pct%"},
	"failed-operations":    {"{Deployments|Admin operations|Create and update calls} against $service failed", "Customers could not {create|modify|delete} resources through $service"},
	"connectivity-loss":    {"Hosts in $region lost connectivity to $service", "Connections to $service {dropped|failed} for {$pct%|a large share} of clients"},
	"security-exposure":    {"A subset of $service data was exposed to {unauthorised|other} users", "{Customer|Internal} records in $service were readable without {the right|proper} permissions"},
	"wrong-results":        {"$service returned {incorrect|wrong|stale} results to some {users|callers}", "{Users|Customers} saw {incorrect|inconsistent} {balances|settings|listings} in $service"},
}

var triggerNouns = map[string][]string{
	"deploy":             {"a deploy", "a release", "a rollout", "a code push"},
	"config-push":        {"a configuration push", "a config change", "a configuration rollout"},
	"maintenance":        {"planned maintenance", "a maintenance window", "an upgrade"},
	"traffic-shift":      {"a traffic shift", "a reroute", "a traffic drain"},
	"failover":           {"a failover", "a switchover"},
	"dependency-outage":  {"an upstream outage", "a provider outage"},
	"mastership-change":  {"a leader election", "a mastership change"},
	"scaling-event":      {"an autoscaling event", "a scale-up", "a scale-down"},
	"certificate-expiry": {"a certificate expiry", "an expired certificate"},
	"traffic-spike":      {"a traffic spike", "a surge in traffic", "a load spike"},
	"hardware-fault":     {"a hardware fault", "a power event", "a device failure"},
	"manual-action":      {"a manual command", "an operator action"},
	"data-change":        {"a schema migration", "a data migration", "a schema change"},
	"time-event":         {"a date rollover", "a leap second", "a time boundary"},
	"attack":             {"malicious traffic", "an attack", "an intrusion"},
}

var triggerSentences = map[string][]string{
	"deploy":             {"The incident began {shortly|$n minutes} after {a deploy|a release|version $version} of $subsystem {started rolling out|reached production} [in $region]", "A routine {release|rollout} of $subsystem started at $t0"},
	"config-push":        {"A configuration change to $subsystem was pushed {globally|to all regions|to $region first} at $t0", "The trigger was a {config|configuration} push that updated the $sig"},
	"maintenance":        {"{Planned|Scheduled} maintenance on $subsystem [in $region] started at $t0", "The {upgrade|maintenance} of $subsystem $component was under way when the problem began"},
	"traffic-shift":      {"Traffic was {shifted|rerouted|drained} from $region to $region2 [ahead of maintenance]", "A traffic shift moved {$pct%|most} of the $term load onto $subsystem"},
	"failover":           {"A failover of $subsystem to its {standby|secondary} [in $region2] started the incident", "$subsystem failed over after {a health check|the primary} {flapped|failed}"},
	"dependency-outage":  {"An outage of an upstream {provider|service} [in $region] started the chain of events", "The incident began when {a dependency|the provider} behind $subsystem {failed|degraded}"},
	"mastership-change":  {"A leader election in $subsystem moved mastership of $term {shards|partitions}", "{Mastership|Leadership} of $subsystem changed {unexpectedly|during a routine restart}"},
	"scaling-event":      {"An autoscaling event {added|removed} {$n|many} $subsystem {instances|nodes} at once", "$subsystem scaled {up|down} quickly in response to {load|a schedule}"},
	"certificate-expiry": {"A certificate used by $subsystem expired at $t0", "The incident started exactly when the $subsystem certificate reached its expiry date"},
	"traffic-spike":      {"Traffic to $service {rose|jumped} to $n times its normal peak [after {a launch|a marketing campaign|a news event}]", "A {sudden|sharp} spike of $term requests hit $subsystem"},
	"hardware-fault":     {"A hardware fault in the $subsystem {rack|cluster|facility} [in $region] started the incident", "{A device|Hardware} serving $subsystem failed at $t0"},
	"manual-action":      {"An engineer ran a manual {command|operation} against $subsystem at $t0", "A {manual|hand-run} change to $subsystem started the incident"},
	"data-change":        {"A {schema|data} migration of $term {tables|records} in $subsystem started at $t0", "A {backfill|migration} changed the $sig for {all|many} records"},
	"time-event":         {"The problem started at {midnight UTC|the date rollover|the leap second}", "A {time|date} boundary at $t0 triggered the failure"},
	"attack":             {"{Malicious|Attack} traffic against $service began at $t0", "An attacker started {probing|flooding} $subsystem"},
}

var componentNouns = map[string][]string{
	"load-balancer":   {"load balancer", "L7 load balancers", "front-end proxies", "load balancing tier"},
	"dns":             {"DNS resolvers", "authoritative DNS", "name servers", "DNS service"},
	"database":        {"database", "primary database", "database cluster", "SQL replicas"},
	"storage":         {"object storage", "block storage", "storage cluster", "file system"},
	"network":         {"backbone network", "BGP routers", "network fabric", "routing layer"},
	"cdn":             {"CDN", "edge network", "edge caches", "content delivery network"},
	"auth":            {"authentication service", "identity service", "login service", "token service"},
	"message-queue":   {"message queue", "event bus", "queue brokers", "pub/sub system"},
	"orchestrator":    {"Kubernetes clusters", "orchestrator", "scheduler", "container platform"},
	"control-plane":   {"control plane", "management API", "API servers", "provisioning service"},
	"cache":           {"cache", "cache cluster", "caching tier", "in-memory cache"},
	"monitoring":      {"monitoring system", "metrics pipeline", "alerting stack", "observability pipeline"},
	"ci-cd":           {"deployment pipeline", "build system", "CI/CD system", "release tooling"},
	"compute":         {"compute fleet", "virtual machines", "instances", "worker hosts"},
	"api":             {"API gateway", "API front end", "public API", "gateway tier"},
	"config-system":   {"configuration system", "feature flag service", "config distribution service", "configuration store"},
	"lock-service":    {"coordination service", "lock service", "consensus cluster", "etcd cluster"},
	"power-facility":  {"data center", "facility", "data hall", "power distribution"},
	"search-index":    {"search index", "search cluster", "indexing pipeline", "search service"},
	"client-software": {"mobile app", "desktop client", "browser client", "client SDK"},
}

var detectionSentences = map[string][]string{
	"automated-alert": {"{Automated|Monitoring} alerts {fired|paged the on-call engineer} at $tdet", "An alert on $metric paged the $team on-call at $tdet", "{Monitoring|Synthetic probes} detected the problem [within $ttd]"},
	"customer-report": {"{Customers|Users} reported the problem {through support|on the status page|in support tickets} before any alert fired", "The first signal was a {wave|spike} of support tickets at $tdet", "Customer reports reached the support team [about $ttd after the start]"},
	"internal-user":   {"An engineer {noticed|spotted} {failing|slow} requests while {testing|debugging} something else", "Internal users reported {errors|problems} in $service at $tdet", "A member of the $team team noticed the {problem|anomaly} on a dashboard"},
	"third-party":     {"{An external monitoring service|A partner|Reports on social media} first flagged the problem", "A {partner|third party} contacted the team about {failing|slow} requests at $tdet"},
}

var detectionNouns = map[string][]string{
	"automated-alert": {"automated alerting", "a monitoring alert", "a page"},
	"customer-report": {"customer reports", "support tickets"},
	"internal-user":   {"an internal report", "an engineer"},
	"third-party":     {"a third-party report", "an external monitor"},
}

var remedySentences = map[string][]string{
	"rollback":      {"The team rolled back $subsystem to the previous {release|version}", "Engineers {reverted|rolled back} the $subsystem {deploy|release} [region by region]", "A rollback of $subsystem restored service"},
	"config-revert": {"The $subsystem configuration change was reverted", "Engineers {restored|re-applied} the last known good $subsystem configuration", "Reverting the $sig to its previous value {restored|resolved} service"},
	"failover":      {"Traffic was failed over to {the standby|$region2}", "The team failed $subsystem over to its {secondary|replica} [in $region2]"},
	"restart":       {"Restarting the $subsystem {processes|nodes|pods} cleared the condition", "Engineers {restarted|rebooted} the affected $subsystem {hosts|workers}"},
	"capacity-add":  {"The team added capacity to $subsystem [by {$n|several} {nodes|instances}]", "{Scaling up|Adding capacity to} $subsystem relieved the pressure"},
	"traffic-drain": {"Traffic was drained from the affected $subsystem {hosts|zone|cluster}", "Engineers shifted $term traffic away from $region to $region2"},
	"feature-flag":  {"A feature flag disabled the $sig", "Engineers turned off the {new|offending} behaviour in $subsystem with a kill switch"},
	"manual-fix":    {"Engineers {deployed|applied} a {hotfix|patch} to $subsystem", "A manual fix to the $sig restored service", "The team {patched|repaired} the $term {entries|records} by hand"},
	"data-restore":  {"{Lost|Damaged} $term data was restored from backup", "The team restored $subsystem from the {latest|last good} snapshot"},
}

var remedyNouns = map[string][]string{
	"rollback":      {"Roll back $subsystem to the last good release", "Revert the $subsystem deploy"},
	"config-revert": {"Revert the $subsystem configuration", "Restore the previous the $sig setting"},
	"failover":      {"Fail $subsystem over to the standby", "Move traffic to $region2"},
	"restart":       {"Restart the $subsystem {workers|nodes}", "Reboot affected $subsystem hosts"},
	"capacity-add":  {"Add $subsystem capacity", "Scale out $subsystem by $n nodes"},
	"traffic-drain": {"Drain $subsystem in $region", "Shift $term traffic away from the affected zone"},
	"feature-flag":  {"Disable the $sig with a feature flag", "Flip the $subsystem kill switch"},
	"manual-fix":    {"Hotfix $subsystem", "Repair $term records by hand"},
	"data-restore":  {"Restore $term data from backup", "Restore $subsystem from snapshot"},
}
