package gen

import "strings"

// common are real English words that head the background distribution, the
// way function words and everyday operations vocabulary head any real
// postmortem corpus. Their order is their frequency rank.
var common = dedupe(strings.Fields(`
the of to and a in was that for on with as by at from it this were be an we had our not
which is are all after but been when during into also more than some then could its their
these other one out about would there they only first each new two over while both before
because them those most such several three later further same however between without
through following service team request requests engineers customers system change traffic
systems data issue users impact period number multiple additional internal external initial
access existing normal expected resulting production update updates process processes time
window review investigation operations operators minutes hours increase increased reduced
higher lower small large single entire subset majority percentage portion rate rates level
levels state status errors error latency load server servers host hosts node nodes cluster
clusters region regions zone zones network database storage cache queue queues job jobs
worker workers client clients api endpoint endpoints backend backends frontend proxy proxies
instance instances container containers deploy deployment release version versions config
configuration setting settings flag flags limit limits threshold thresholds capacity memory
disk cpu thread threads connection connections session sessions token tokens certificate
key keys record records table tables index indexes query queries write writes read reads
replica replicas primary secondary leader follower shard shards partition partitions log
logs metric metrics alert alerts dashboard dashboards page paged pager incident incidents
outage outages failure failures fault faults timeout timeouts retry retries backoff
rollback rollout canary staging test tests testing monitoring tooling automation script
scripts pipeline pipelines build builds code commit change changes patch fix fixes bug bugs
feature features customer account accounts tenant tenants user support ticket tickets
engineer engineering operator on-call responder responders manager managers incident-commander
started began noticed observed identified confirmed determined found saw reported escalated
declared mitigated resolved restored recovered completed continued attempted applied
deployed reverted restarted drained added removed increased decreased moved shifted
upgraded migrated rebuilt replaced checked verified monitored investigated
quickly slowly gradually immediately eventually partially fully briefly temporarily
approximately roughly nearly almost already still again instead also around across within
until since under above below behind ahead toward against among per via
high low long short slow fast full empty old new stale healthy unhealthy available unavailable
critical major minor severe significant unexpected unusual intermittent persistent
affected impacted degraded elevated reduced missing invalid incorrect correct
morning afternoon evening night weekend day days week weeks month months year
first second third next last final earlier later previous recent current
because although unless whether either neither though
plan plans process procedure runbook runbooks playbook documentation docs wiki
risk risks mitigation mitigations safeguard safeguards guardrail guardrails check checks
validation validations review reviews approval approvals audit audits
traffic load volume throughput demand peak peaks spike spikes burst bursts
dependency dependencies upstream downstream provider providers vendor vendors partner
signal signals symptom symptoms cause causes trigger triggers root
communication communications update status-page announcement channel channels chat
escalation escalations handoff handoffs rotation rotations shift shifts
analysis timeline summary report reports lesson lessons action actions item items owner owners
priority priorities severity sev1 sev2 sev3 p0 p1 p2
`))
