package taxonomy

import (
	"reflect"
	"strings"
	"testing"
)

func TestSentences(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"One. Two! Three?", []string{"One.", "Two!", "Three?"}},
		{"Latency rose 2.5 times. Then it fell.", []string{"Latency rose 2.5 times.", "Then it fell."}},
		{"Services in the U.S. East region failed, e.g. EC2. It ended.", []string{"Services in the U.S. East region failed, e.g. EC2.", "It ended."}},
		{"- Rolled back the release\n- Restarted servers", []string{"Rolled back the release", "Restarted servers"}},
		{"## Root cause\n\nA bug.", []string{"Root cause", "A bug."}},
		{`He said "stop." Then it stopped.`, []string{`He said "stop."`, "Then it stopped."}},
		{"lower case after a stop. stays together", []string{"lower case after a stop. stays together"}},
		{"  \n\n ", nil},
	} {
		if got := Sentences(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Sentences(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestPolarity(t *testing.T) {
	for _, c := range []struct {
		sentence, phrase string
		want             Polarity
	}{
		{"The outage was caused by a configuration change.", "configuration change", Asserted},
		{"The outage was not caused by a configuration change.", "configuration change", Negated},
		{"A hardware failure was ruled out.", "hardware failure", Negated},
		{"Engineers ruled out a hardware failure early on.", "hardware failure", Negated},
		{"There was no evidence of an attack.", "attack", Negated},
		{"We found no evidence that an attack took place.", "attack", Negated},
		{"The cause was a bug rather than a hardware failure.", "hardware failure", Negated},
		{"The cause was a bug rather than a hardware failure.", "bug", Asserted},
		{"Rather than a DDoS, it was a retry storm.", "DDoS", Negated},
		{"Rather than a DDoS, it was a retry storm.", "retry storm", Asserted},
		{"The database was not the cause.", "database", Negated},
		{"It was not a power failure, but a bug in the failover code.", "bug", Asserted},
		{"It was not a power failure, but a bug in the failover code.", "power failure", Negated},
		{"The disk may have been full.", "full", Hedged},
		{"Engineers suspect a memory leak.", "memory leak", Hedged},
		{"A memory leak likely exhausted the heap.", "memory leak", Asserted},
		{"It likely was a memory leak.", "memory leak", Hedged},
		{"The team did not notice that the disk was full.", "disk was full", Asserted},
		{"Not only a bug but also a bad config.", "bug", Asserted},
		{"The deploy wasn't the trigger.", "deploy", Negated},
		{"A bad BGP configuration is suspected but unconfirmed.", "bad BGP configuration", Hedged},
		{"A bad BGP configuration caused it.", "bad BGP configuration", Asserted},
		{"A memory leak may have played a part.", "memory leak", Hedged},
		{"A memory leak caused it, and load may have risen.", "memory leak", Asserted},
		{"Unlike the DDoS attack we mitigated in November, this one was a deploy.", "DDoS attack", Negated},
		{"We ruled out the 09:00 config push early on.", "config push", Negated},
		{"At 09:00: the config push went out.", "config push", Asserted},
		{"It looked like a memory leak at first.", "memory leak", Hedged},
		{"10:02 First 502s appeared on the load balancer.", "load balancer", Asserted},
		{"The connection pool was exhausted at first on one node, then on all of them.", "connection pool", Asserted},
		{"The TLS certificate expired at midnight, so why did no alert fire?", "certificate expired", Asserted},
		{"The primary database failed over at 10:02 — why didn't the replica catch up?", "primary database", Asserted},
		{"Nothing was permanently lost; all orders were replayed.", "permanently lost", Negated},
		{"At first it looked like a memory leak in the cart service.", "memory leak", Negated},
		{"We first suspected a memory leak in the cart service.", "memory leak", Negated},
		{"The on-call engineer initially thought a DDoS attack was under way.", "DDoS attack", Negated},
		{"A network partition between zones was our first hypothesis.", "network partition", Negated},
		{"Our first theory was a bad deploy.", "bad deploy", Negated},
		{"We suspected a memory leak.", "memory leak", Hedged},
		{"did anyone touch the cluster auth after the upgrade?", "upgrade", Negated},
		{"Q: What happens to the orders with the wrong shipping price?", "wrong shipping price", Negated},
		{"The first alert fired at 10:02 and named a memory leak.", "memory leak", Asserted},
		{"The deploy at 10:00 was the first change of the day.", "deploy", Asserted},
		{"Second theory: connection pool exhaustion on the API hosts.", "connection pool exhaustion", Hedged},
		{"A DNS failover would have taken longer.", "DNS failover", Hedged},
		{"The automatic failover didn't happen.", "automatic failover", Negated},
		{"Our payment provider had no issues that day.", "payment provider", Negated},
		{"The failover happened at 10:02.", "failover", Asserted},
		{"No data loss: we restored the table from the backup.", "restored", Asserted},
		{"The Postgres database did not start after the upgrade.", "Postgres database", Asserted},
		{"The PagerDuty alert never fired.", "PagerDuty alert", Negated},
	} {
		i := strings.Index(c.sentence, c.phrase)
		if i < 0 {
			t.Fatalf("%q not in %q", c.phrase, c.sentence)
		}
		if got := PolarityAt(c.sentence, i, i+len(c.phrase)); got != c.want {
			t.Errorf("PolarityAt(%q, %q) = %s, want %s", c.sentence, c.phrase, got, c.want)
		}
	}
}

func TestTokens(t *testing.T) {
	got := Tokens("The load balancers were not overloaded, but the caches failed.")
	want := []string{"load", "balanc", "load_balanc", "!overload", "cach", "fail", "cach_fail"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Tokens = %q, want %q", got, want)
	}
}
