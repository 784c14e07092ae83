package noexposedpii

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Check is no-exposed-pii.
var Check = &checks.Check{
	ID:          "no-exposed-pii",
	Version:     "1.1.0",
	Title:       "No personal data shipped",
	Axis:        checks.Safety,
	Weight:      3,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

var (
	ssnRe  = lex.Lazy(`(?:^|[^\w-])(\d{3})-(\d{2})-(\d{4})(?:[^\w-]|$)`)
	cardRe = lex.Lazy(`(?:^|[^\w.-])(\d{4}(?:[ -]?\d{2,4}){2,4}\d?)(?:[^\w.-]|$)`)
	ibanRe = lex.Lazy(`\b([A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?)\b`)
	// Published test numbers of the card networks.
	testCards = map[string]bool{"4111111111111111": true, "4242424242424242": true, "5555555555554444": true, "378282246310005": true,
		"4000056655665556": true, "5105105105105100": true, "371449635398431": true, "6011111111111117": true, "3530111333300000": true,
		"4012888888881881": true, "5200828282828210": true, "6011000990139424": true, "30569309025904": true, "38520000023237": true,
		"4000000000000002": true, "4000000000009995": true, "2223003122003222": true, "4000002500003155": true}
	ibanLen = map[string]int{"DE": 22, "FR": 27, "GB": 22, "ES": 24, "IT": 27, "NL": 18, "BE": 16, "CH": 21, "AT": 20, "IE": 22,
		"PL": 28, "PT": 25, "SE": 24, "NO": 15, "DK": 18, "FI": 18, "LU": 20, "CZ": 24, "HU": 28, "GR": 27, "RO": 24, "SK": 24, "SI": 19}
)

func when(ok bool, p *lex.Pattern, text string) [][]int {
	if !ok {
		return nil
	}
	return p.Re().FindAllStringSubmatchIndex(text, -1)
}

// shapes tests a line cheaply for the shape of each kind: ddd-dd-dddd, 13
// or more digits with single separators, and two capitals then two digits.
func shapes(s string) (ssn, card, iban bool) {
	run, gap := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			run++
			gap = 0
			if run >= 13 {
				card = true
			}
		case (c == ' ' || c == '-') && gap == 0 && run > 0:
			gap = 1
		default:
			run, gap = 0, 0
		}
		if c == '-' && i >= 3 && i+7 < len(s) && isDigits(s[i-3:i]) && isDigits(s[i+1:i+3]) && s[i+3] == '-' && isDigits(s[i+4:i+8]) {
			ssn = true
		}
		if i+3 < len(s) && c >= 'A' && c <= 'Z' && s[i+1] >= 'A' && s[i+1] <= 'Z' && s[i+2] >= '0' && s[i+2] <= '9' && s[i+3] >= '0' && s[i+3] <= '9' {
			iban = true
		}
	}
	return ssn, card, iban
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func luhn(d string) bool {
	sum, alt := 0, false
	for i := len(d) - 1; i >= 0; i-- {
		n := int(d[i] - '0')
		if alt {
			n *= 2
			if n > 9 {
				n -= 9
			}
		}
		sum += n
		alt = !alt
	}
	return sum%10 == 0
}

func issuer(d string) bool {
	switch {
	case d[0] == '4':
		return len(d) == 13 || len(d) == 16 || len(d) == 19
	case d[:2] >= "51" && d[:2] <= "55", d[:4] >= "2221" && d[:4] <= "2720":
		return len(d) == 16
	case d[:2] == "34" || d[:2] == "37":
		return len(d) == 15
	case d[:4] == "6011" || d[:2] == "65":
		return len(d) >= 16
	case d[:2] == "35":
		return len(d) >= 16
	}
	return false
}

func ibanValid(s string) bool {
	s = strings.ReplaceAll(s, " ", "")
	if n, ok := ibanLen[s[:2]]; !ok || n != len(s) {
		return false
	}
	r := s[4:] + s[:4]
	var b strings.Builder
	for _, c := range r {
		if c >= 'A' && c <= 'Z' {
			fmt.Fprintf(&b, "%d", c-'A'+10)
		} else {
			b.WriteRune(c)
		}
	}
	n, ok := new(big.Int).SetString(b.String(), 10)
	return ok && new(big.Int).Mod(n, big.NewInt(97)).Int64() == 1
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	var warns []checks.Evidence
	for f := range files.Scan(in.Subject) {
		if !files.IsText(f) {
			continue
		}
		off := 0
		for _, text := range strings.SplitAfter(in.Subject.Text(f), "\n") {
			base := off
			off += len(text)
			ssn, card, iban := shapes(text)
			if !ssn && !card && !iban {
				continue // cheap shape tests before the patterns
			}
			at := func(o int, kind string) {
				p := manifest.PosAt(f.Content, base+o)
				warns = append(warns, checks.At(f.Path, p.Line, p.Col, kind))
			}
			for _, m := range when(ssn, ssnRe, text) {
				a, g, s := text[m[2]:m[3]], text[m[4]:m[5]], text[m[6]:m[7]]
				if a != "000" && a != "666" && a[0] != '9' && g != "00" && s != "0000" {
					at(m[2], "US social security number")
				}
			}
			for _, m := range when(card, cardRe, text) {
				raw := text[m[2]:m[3]]
				if strings.Contains(raw, " ") && strings.Contains(raw, "-") {
					continue
				}
				d := strings.NewReplacer(" ", "", "-", "").Replace(raw)
				if len(d) < 13 || len(d) > 19 || testCards[d] || !luhn(d) || !issuer(d) {
					continue
				}
				at(m[2], "payment card number")
			}
			for _, m := range when(iban, ibanRe, text) {
				if ibanValid(text[m[2]:m[3]]) {
					at(m[2], "IBAN")
				}
			}
		}
	}
	if len(warns) > 0 {
		return checks.Warning(0.5, fmt.Sprintf("%s:%d holds a %s", warns[0].Path, warns[0].Line, warns[0].Message), warns...), nil
	}
	return checks.Passed("no personal data found"), nil
}
