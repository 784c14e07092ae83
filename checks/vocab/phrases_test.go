package vocab

import (
	"strings"
	"testing"
)

// A words class's prefilter never hides a match: over every example text
// of the phrase vocabulary, a class that matches is never Absent; and the
// classes the prose producer scans most have a prefilter at all.
func TestAbsentNeverHidesAMatch(t *testing.T) {
	var texts []string
	for _, e := range Entries("phrases") {
		texts = append(texts, e.Pos...)
		texts = append(texts, e.Neg...)
	}
	for class, re := range phraseTable().wordRes {
		for _, s := range texts {
			s = strings.ToLower(s)
			if re.Re().MatchString(s) && re.Absent(s) {
				t.Errorf("words %s: %q matches but is Absent", class, s)
			}
		}
	}
	for _, class := range []string{"read", "send", "secret"} {
		re := Words(class)
		if re == nil || len(re.required) == 0 {
			t.Errorf("words %s has no prefilter", class)
		}
		if !re.Absent("the weather is mild today") {
			t.Errorf("words %s: an unrelated sentence is not Absent", class)
		}
	}
}
