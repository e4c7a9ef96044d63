package textproc

// englishExtra complements Snowball's English stop list with function
// words it lacks.
var englishExtra = []string{
	"also", "would", "could", "may", "might", "must", "shall", "can", "cannot",
	"however", "therefore", "thus", "us", "within", "without", "via", "per",
	"yet", "still", "since", "upon", "whether", "though", "although", "etc",
	"e.g", "i.e", "among", "across", "around", "another", "every", "many",
	"much", "several", "way", "ways",
}

// postmortemBoilerplate are words nearly every postmortem uses whatever
// went wrong; they say nothing about which incidents are alike.
var postmortemBoilerplate = []string{
	"customer", "customers", "impact", "impacted", "impacting", "impacts",
	"issue", "issues", "incident", "incidents", "service", "services",
	"user", "users", "team", "teams", "postmortem", "post-mortem",
	"minute", "minutes", "hour", "hours", "approximately", "utc", "pst", "pdt",
	"am", "pm", "affected", "affecting", "occurred", "began", "resulted",
	"due", "following", "apologize", "apologise", "sincerely", "inconvenience",
	"summary", "timeline", "today", "yesterday",
}

// DefaultStopWords returns a fresh set of English and postmortem
// boilerplate stop words (lower case).
func DefaultStopWords() map[string]bool {
	set := map[string]bool{}
	for _, lists := range [][]string{englishStop, englishExtra, postmortemBoilerplate} {
		for _, w := range lists {
			set[w] = true
		}
	}
	return set
}

// englishStop is the Snowball English stop list.
var englishStop = []string{
	"a", "about", "above", "after", "again", "against", "all", "am", "an",
	"and", "any", "are", "as", "at", "be", "because", "been", "before",
	"being", "below", "between", "both", "but", "by", "can", "did", "do",
	"does", "doing", "don", "down", "during", "each", "few", "for", "from",
	"further", "had", "has", "have", "having", "he", "her", "here", "hers",
	"herself", "him", "himself", "his", "how", "i", "if", "in", "into", "is",
	"it", "its", "itself", "just", "me", "more", "most", "my", "myself",
	"no", "nor", "not", "now", "of", "off", "on", "once", "only", "or",
	"other", "our", "ours", "ourselves", "out", "over", "own", "s", "same",
	"she", "should", "so", "some", "such", "t", "than", "that", "the", "their",
	"theirs", "them", "themselves", "then", "there", "these", "they",
	"this", "those", "through", "to", "too", "under", "until", "up",
	"very", "was", "we", "were", "what", "when", "where", "which", "while",
	"who", "whom", "why", "will", "with", "you", "your", "yours", "yourself",
	"yourselves",
}
