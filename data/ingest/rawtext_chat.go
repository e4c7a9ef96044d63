package ingest

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A chat copied from Slack, Teams or Discord writes each message under a
// line with its sender and time ("Priya Raman  2:14 PM", "Dana — Today at
// 2:31 PM"), or puts the time in brackets before it ("[2:14 PM] Priya:
// …"). chatCopy reads such a copy as the stamped entries of a timeline
// ("- 2:14 PM hey, is anyone else seeing checkout timeouts? (Priya
// Raman)"), which the timeline readers understand; the narrative stays the
// text as written.

var (
	// chatHeader is a sender and a time on a line of their own.
	chatHeader = regexp.MustCompile(`^[ \t]*(\pL[^:\n\[\]|#*]{0,40}?)[ \t]+(?:[—–-][ \t]*)?(?:(?:Today|Yesterday) at[ \t]+)?\[?(\d{1,2}:\d{2}(?::\d{2})?[ \t]*(?:[AaPp]\.?[Mm]\.?)?)\]?[ \t]*$`)
	// chatStamped is a message with its time in brackets first and its
	// sender after it: "[2:14 PM] Priya: …", "[14:14] <priya> …".
	chatStamped = regexp.MustCompile(`^[ \t]*\[(\d{1,2}:\d{2}(?::\d{2})?[ \t]*(?:[AaPp]\.?[Mm]\.?)?)\][ \t]*(?:<([^>\n]{1,40})>|([^:\n]{1,40}):)[ \t]*(\S.*)$`)
	// notASender ends a line that tells of a time rather than naming who
	// wrote: "Resolved at 2:58 PM", "Deploy started around 1:50 PM".
	notASender = regexp.MustCompile(`(?i)\b(?:at|by|until|till|from|to|since|around|about|before|after|approximately|ca|~)$`)
)

// chatMessage is one message of a chat copy: the line it starts on, its
// time, sender and text.
type chatMessage struct {
	line, span        int // first line and how many lines it takes
	clock, from, text string
}

// minChatMessages is how many messages a text must hold to be read as a
// chat copy.
const minChatMessages = 3

// chatMaxWords bounds a sender's name in words.
const chatMaxWords = 4

// chatCopy returns the text with every chat message written as a stamped
// entry and the channel the copy opens with ("#inc-checkout-latency", its
// title when no line names the incident), when lines are a chat copy (at least
// minChatMessages messages); ok is false otherwise. A message that holds
// a timeline of its own ("for the doc, times in UTC: 12:02 first failed
// deploy, 12:14 reported here, …") is what the chat says happened when:
// entries is then "" and the text is read as written (the client's
// stamps are in the zone of whoever copied the chat).
func chatCopy(lines []string) (entries, channel string, messages int) {
	msgs := chatMessages(lines)
	if len(msgs) < minChatMessages {
		return "", "", 0
	}
	for _, l := range lines {
		if t := strings.TrimSpace(l); t != "" {
			if strings.HasPrefix(t, "#") && !strings.ContainsAny(t, " \t") && len(t) > 1 {
				channel = t
			}
			break
		}
	}
	for _, m := range msgs {
		if len(lineEntries(m.text)) >= minInlineEntries {
			return "", channel, len(msgs)
		}
	}
	out := make([]string, 0, len(lines))
	next := 0
	for i := 0; i < len(lines); i++ {
		if next < len(msgs) && msgs[next].line == i {
			m := msgs[next]
			out = append(out, "- "+m.clock+" "+m.text+" ("+m.from+")")
			next++
			i += m.span - 1
			continue
		}
		out = append(out, lines[i])
	}
	return strings.Join(out, "\n"), channel, len(msgs)
}

// chatMessages finds the messages of a chat copy: a sender-and-time line
// followed by the message's lines (up to a blank line or the next
// message), or a line stamped in brackets.
func chatMessages(lines []string) []chatMessage {
	var msgs []chatMessage
	for i := 0; i < len(lines); i++ {
		if m := chatStamped.FindStringSubmatch(lines[i]); m != nil {
			msgs = append(msgs, chatMessage{line: i, span: 1, clock: m[1], from: strings.TrimSpace(m[2] + m[3]), text: strings.TrimSpace(m[4])})
			continue
		}
		from, clock, ok := headerLine(lines[i])
		if !ok {
			continue
		}
		var body []string
		for j := i + 1; j < len(lines); j++ {
			t := strings.TrimSpace(lines[j])
			if _, _, header := headerLine(lines[j]); t == "" || header || chatStamped.MatchString(lines[j]) {
				break
			}
			body = append(body, t)
		}
		if len(body) == 0 {
			continue
		}
		msgs = append(msgs, chatMessage{line: i, span: 1 + len(body), clock: clock, from: from, text: strings.Join(body, " ")})
		i += len(body)
	}
	return msgs
}

// headerLine reads a sender-and-time line (chatHeader) whose sender reads
// as a name (chatSender).
func headerLine(l string) (from, clock string, ok bool) {
	m := chatHeader.FindStringSubmatch(l)
	if m == nil || !chatSender(m[1]) {
		return "", "", false
	}
	return strings.TrimSpace(m[1]), m[2], true
}

// chatSender reports whether s reads as the name of who wrote a message:
// one handle ("mara", "tom.okafor"), or at most chatMaxWords words that
// each open on a capital letter ("Priya Raman", "PagerDuty APP"); never a
// phrase about an event or a time ("Deploy went out 14:02", "Resolved at
// 2:58 PM", "Rollback done 14:25").
func chatSender(s string) bool {
	ws := strings.Fields(strings.TrimSpace(s))
	if len(ws) == 0 || len(ws) > chatMaxWords || notASender.MatchString(s) || strings.ContainsAny(s, ",;!?") {
		return false
	}
	if len(ws) == 1 {
		return !eventWord.MatchString(ws[0])
	}
	for _, w := range ws {
		if r, _ := utf8.DecodeRuneInString(w); !unicode.IsUpper(r) || eventWord.MatchString(w) {
			return false
		}
	}
	return true
}

// eventWord is a word a timeline's line opens or ends on, no name: a verb
// in the past or the present participle, or a field's name.
var eventWord = regexp.MustCompile(`(?i)^(?:\w+(?:ed|ing)|update|status|impact|start|end|deploy|rollback|alert|incident|summary|timeline|resolution|mitigation|detection|done|fixed|down|up)$`)
