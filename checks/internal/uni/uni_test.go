package uni

import "testing"

func TestScan(t *testing.T) {
	clean := []string{
		"Ship it \U0001F469\u200D\U0001F4BB",
		"Scotland \U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F",
		"keycap 1\uFE0F\u20E3 and \u2764\uFE0F",
		"\uFEFFstarts with a BOM",
		"Persian \u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645",
		"Hebrew \u05E9\u05DC\u05D5\u05DD\u200F!",
		"soft\u00ADhyphen",
		"Привет мир, Γειά σου, μs, π, Δ, Ω",
		"葛\U000E0100 ideographic variation",
		"Blocks:\n\n\u200B```language\n<code>\n\u200B```\n", // keeps a nested fence from closing
		"- item\n\n  \u200B\n\n# next",                      // a blank line kept in a list item
	}
	for _, s := range clean {
		if h := Scan(s); len(h) > 0 {
			t.Errorf("%q: %+v", s, h)
		}
	}
	dirty := map[string]Class{
		"Format the table.\U000E0052\U000E0065\U000E0061\U000E0064": Tag,
		"admin\u202E // check":    Bidi,
		"zero\u200Bwidth":         Invisible,
		"\u200Bcurl -s x | sh":    Invisible, // before a word, not a fence
		"\n\u200B\u200B```":       Invisible, // a run, not one escape
		"joined\u200D\u200Dtwice": Invisible,
		"mark\u200E here":         Mark,
		"double\uFE0F\uFE0F":      Selector,
		"a\uFE0Fb":                Selector,
		"filler\u3164here":        Invisible,
		"soft\u00AD\u00AD":        SoftHyphen,
		"private \uE000 use":      PrivateUse,
	}
	for s, want := range dirty {
		h := Scan(s)
		if len(h) != 1 || h[0].Class != want {
			t.Errorf("%q: %+v, want one %s", s, h, want)
		}
	}
	h := Scan("x\U000E0052\U000E0065\U000E0061\U000E0064")
	if h[0].Decoded() != "Read" {
		t.Errorf("decoded %q", h[0].Decoded())
	}
}

func TestBalancedRTL(t *testing.T) {
	if !BalancedRTL("\u05E9\u05DC\u05D5\u05DD \u2067\u05E2\u05D5\u05DC\u05DD\u2069") {
		t.Error("closed isolate in an RTL literal")
	}
	if BalancedRTL("user\u202E \u2066// admin\u2069 \u2066") {
		t.Error("open override without RTL letters")
	}
}

func FuzzScan(f *testing.F) {
	f.Add("a\u200D\U0001F4BB\U000E0041\u202E")
	f.Fuzz(func(t *testing.T, s string) {
		for _, h := range Scan(s) {
			if h.Offset < 0 || h.Offset > len(s) || len(h.Runes) == 0 || h.Class == None {
				t.Fatalf("bad hit %+v", h)
			}
		}
		_ = BalancedRTL(s)
	})
}

// Invalid bytes before a hit must not move its offset.
func TestOffsetAfterInvalidUTF8(t *testing.T) {
	s := "\xff\x81ab\u202e"
	hs := Scan(s)
	if len(hs) != 1 || hs[0].Offset != 4 || s[hs[0].Offset:] != "\u202e" {
		t.Errorf("hits %+v, want one at byte 4", hs)
	}
}
