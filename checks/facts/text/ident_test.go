package text

import (
	"slices"
	"testing"
)

func TestIdentWords(t *testing.T) {
	for in, want := range map[string][]string{
		"chat_history": {"chat", "history"},
		"chatHistory":  {"chat", "history"},
		"stop-scan":    {"stop", "scan"},
		"Stop.Scan":    {"stop", "scan"},
		"__x__":        {"x"},
		"":             nil,
	} {
		if got := IdentWords(in); !slices.Equal(got, want) {
			t.Errorf("IdentWords(%q) = %q, want %q", in, got, want)
		}
	}
}
