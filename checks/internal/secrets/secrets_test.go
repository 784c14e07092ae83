package secrets

import (
	"bytes"
	"strings"
	"testing"
)

// Secret-shaped values are assembled here so that no scanner finds them in
// the repository.
func j(parts ...string) string { return strings.Join(parts, "") }

func TestRulesLoad(t *testing.T) {
	rs := rules()
	if len(rs.Rules) < 200 {
		t.Fatalf("%d rules", len(rs.Rules))
	}
	for _, r := range rs.Rules {
		r.compile()
	}
}

func TestScan(t *testing.T) {
	ghp := j("gh", "p_", "R8vq2LmT5zXc9WnB4yKd7HsJ3fGa1eQp6UoI")
	aws := j("AK", "IA", "Q3EGRIZ7XKJ4MPLW")
	slack := j("xo", "xb-", "2937465829-4827365920183-", "aQ9vLm2ZxT7kP4wB8nR3sYd6")
	stripeLive := j("sk", "_live_", "51HqLm2eZvKYlo2C9fJ2kQ7xLmZ4pW8rT3vN6bY1")
	stripeTest := j("sk", "_test_", "51HqLm2eZvKYlo2C9fJ2kQ7xLmZ4pW8rT3vN6bY1")
	jwt := j("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", ".", "eyJzdWIiOiJzdmMtbGVkZ2VyLTciLCJyb2xlIjoib3BzIiwiaWF0IjoxNzE2MjM5MDIyfQ", ".", "xtUV2NN6-IORn5sCtQmPgPF_di4TNmZAGUOdNKeNtUU")
	pem := j("-----BEGIN ", "RSA PRIVATE KEY-----\n", "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB\naNy+WmT5yqb0aR2u5zKUbjGjSk2qTRvN4ZNpPWWGVgSmNCF9WYWJJzQ4W8Rcsj2h\n", "-----END RSA PRIVATE KEY-----")
	hits := map[string]string{
		"cfg = {...defaults, token: \"" + ghp + "\"}  // EXAMPLE": "github-pat",
		"AWS_ACCESS_KEY_ID=" + aws:                                "aws-access-token",
		"SLACK=" + slack:                                          "slack-bot-token",
		"stripe.api_key = '" + stripeLive + "'":                   "stripe-access-token",
		"ACCESS = \"" + jwt + "\"":                                "jwt",
		pem:                                                       "private-key",
	}
	for src, want := range hits {
		ms := Scan("x.py", []byte(src))
		if len(ms) == 0 {
			t.Errorf("%s: not found", want)
			continue
		}
		if ms[0].Rule != want {
			t.Errorf("%s: rule %s", want, ms[0].Rule)
		}
		if got := src[ms[0].Start:ms[0].End]; !strings.Contains(src, got) || len(got) < 10 {
			t.Errorf("%s: span %q", want, got)
		}
	}
	if ms := Scan("x.py", []byte("key = '"+stripeTest+"'")); len(ms) != 1 || !ms[0].Test {
		t.Errorf("sk_test_ must be found and marked test: %+v", ms)
	}
	clean := []string{
		"token: process.env.GH_TOKEN  // example: ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
		"ACCESS = \"eyJ...\"",
		"aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
		"commit = 3f2a9b1c4d5e6f708192a3b4c5d6e7f8091a2b3c",
		"id = 123e4567-e89b-12d3-a456-426614174000",
		`"integrity": "sha512-Q9vLm2ZxT7kP4wB8nR3sYd6aQ9vLm2ZxT7kP4wB8nR3sYd6aQ9vLm2ZxT7kP4wB8nR3sYd6=="`,
		"api_key = os.environ[\"OPENAI_API_KEY\"]",
		"password = \"<your-password>\"",
		"const apiKey = process.env.ANTHROPIC_API_KEY;",
		"task-runner disk-usage sk-learn",
	}
	for _, src := range clean {
		if ms := Scan("x.py", []byte(src)); len(ms) > 0 {
			t.Errorf("%q: false positive %+v", src, ms)
		}
	}
}

func TestPlaceholder(t *testing.T) {
	for v, want := range map[string]bool{"xxxxxxxxxxxx": true, "<token>": true, "${TOKEN}": true, "{{ secrets.X }}": true, "your-api-key-here": true,
		"abcdefghijklmnop": true, "aaaaaaaaaa": true, "changeme": true, "Zq8vL2mX9rT4wK7p": false} {
		if Placeholder(v) != want {
			t.Errorf("Placeholder(%q) != %v", v, want)
		}
	}
}

func FuzzScan(f *testing.F) {
	f.Add([]byte("token = \"ghp_abc\" key=AKIA1234 eyJ.eyJ.x"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, m := range Scan("f", b) {
			if m.Start < 0 || m.End > len(b) || m.Start >= m.End {
				t.Fatalf("bad span %+v", m)
			}
		}
	})
}

// A secret after many decoys of the same rule is still found: no count
// limit decides which lines are read.
func TestSecretPastDecoys(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 1000; i++ {
		b.WriteString("token = process.env.TOKEN\n")
	}
	b.WriteString("key = \"" + j("gh", "p_", "R8vq2LmT5zXc9WnB4yKd7HsJ3fGa1eQp6UoI") + "\"\n")
	ms := Scan("x.js", []byte(b.String()))
	if len(ms) != 1 || ms[0].Rule != "github-pat" {
		t.Fatalf("matches %+v", ms)
	}
}

// Short keywords that begin a long token are checked cheaply before their
// rules run; the rules must still fire on real tokens.
func TestShortKeywordRules(t *testing.T) {
	for want, src := range map[string]string{
		"twilio-api-key":      "key = \"" + j("S", "K", "3f2a9b1c4d5e6f708192a3b4c5d6e7f8") + "\"",
		"vault-service-token": "VAULT_TOKEN=" + j("s", ".", "Q9vLm2ZxT7kP4wB8nR3sYd6a"),
	} {
		ms := Scan("x.sh", []byte(src))
		if len(ms) == 0 || ms[0].Rule != want {
			t.Errorf("%s: %+v", want, ms)
		}
	}
}

// Text before a secret whose lower case is longer or shorter in bytes
// (invalid UTF-8, 'İ', 'Ⱥ') must not shift the secret's span or panic.
func TestSpanAfterNonASCII(t *testing.T) {
	ghp := j("gh", "p_", "R8vq2LmT5zXc9WnB4yKd7HsJ3fGa1eQp6UoI")
	for _, prefix := range []string{"\xff\xfe\xfd ", "İİİİ ", "ȺȺȺ ", "naïve "} {
		src := prefix + "token = \"" + ghp + "\"\n"
		ms := Scan("x.py", []byte(src))
		if len(ms) != 1 || src[ms[0].Start:ms[0].End] != ghp {
			t.Errorf("after %q: %+v, want the token's span", prefix, ms)
		}
	}
	for _, k := range keywordIndex {
		if !hasLowerPrefix([]byte(k.text), k.text) {
			t.Errorf("keyword %q is not ASCII lower case; the scan lowers ASCII only", k.text)
		}
	}
}

// TestKeywordsAt pins the bigram index to a linear search: for every
// bigram whose bit is set, exactly the keywords beginning with it.
func TestKeywordsAt(t *testing.T) {
	set := 0
	for bg := 0; bg < 1<<16; bg++ {
		if keywordBits[bg/64]&(1<<(bg%64)) == 0 {
			continue
		}
		set++
		var want []string
		for _, k := range keywordIndex {
			if bigram(k.text[0], k.text[1]) == uint16(bg) {
				want = append(want, k.text)
			}
		}
		var got []string
		for _, k := range keywordsAt(uint16(bg)) {
			got = append(got, k.text)
		}
		if len(want) == 0 || strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("bigram %q: %v, want %v", []byte{byte(bg >> 8), byte(bg)}, got, want)
		}
	}
	if set < 100 {
		t.Errorf("only %d bigrams set", set)
	}
}

// TestEscapedSecrets: a key with a character JSON-escaped or URL-encoded
// is found, its span covering the escaped text; escapes alone find nothing.
func TestEscapedSecrets(t *testing.T) {
	ghp := j("gh", "p_", "R8vq2LmT5zXc9WnB4yKd7HsJ3fGa1eQp6UoI")
	for _, esc := range []string{
		strings.Replace(ghp, "_", `\u005f`, 1),
		strings.Replace(ghp, "_", `\x5f`, 1),
		strings.Replace(ghp, "_", "%5F", 1),
		strings.Replace(ghp, "R8", `\u0052\u0038`, 1),
	} {
		src := `{"token": "` + esc + `"}` + "\n"
		ms := Scan("config.json", []byte(src))
		if len(ms) != 1 || src[ms[0].Start:ms[0].End] != esc {
			t.Errorf("%q: %+v, want one match spanning the escaped key", esc, ms)
		}
	}
	for _, src := range []string{
		"see https://example.com/a%20b?q=%2Fx and \\u00e9\n",
		`{"path": "a\/b", "token": "\u0024{TOKEN}"}` + "\n",
	} {
		if ms := Scan("x.json", []byte(src)); len(ms) != 0 {
			t.Errorf("%q: %+v, want nothing", src, ms)
		}
	}
}

func FuzzUnescape(f *testing.F) {
	f.Add([]byte(`a\u005fb%5Fc\x41\/`))
	f.Add([]byte(`\u12`))
	f.Fuzz(func(t *testing.T, line []byte) {
		dec, orig, ok := unescape(line)
		if !ok {
			return
		}
		if len(orig) != len(dec)+1 || orig[len(dec)] != len(line) {
			t.Fatalf("map of %d entries for %d bytes", len(orig), len(dec))
		}
		for i := 1; i < len(orig); i++ {
			if orig[i] < orig[i-1] || orig[i] > len(line) {
				t.Fatalf("offsets not monotonic within the line: %v", orig)
			}
		}
	})
}

// The scan's work is linear in its input: however many keywords a line
// holds, the rules' patterns run over at most twice the content (a long
// line is tiled into overlapping windows; a keyword inside a window
// already run starts none). Before windows tiled, every keyword of a long
// line scanned back to the line's start.
func TestScanWorkIsLinear(t *testing.T) {
	inputs := map[string][]byte{
		"one long line of keywords": bytes.Repeat([]byte(`key="AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" `), 4000),
		"many short lines":          bytes.Repeat([]byte("token: abcdef0123456789abcdef0123456789\n"), 4000),
		"base64-like text":          bytes.Repeat([]byte("c2tfbGl2ZV9rZXk9U0tleUFQSXRva2VuYXV0aHNlY3JldGFjY2Vzcw"), 4000),
		"a secret far along a line": append([]byte("token "+string(bytes.Repeat([]byte("x"), 1<<20))), []byte(` api_key = "`+"d3b07384d113edec49eaa6238ad5ff00"+`"`)...),
	}
	for name, in := range inputs {
		windowBytes.Store(0)
		ms := Scan("data.txt", in)
		if w := windowBytes.Load(); w > 2*int64(len(in)) {
			t.Errorf("%s: patterns ran over %d bytes for %d of input", name, w, len(in))
		}
		if name == "a secret far along a line" && len(ms) == 0 {
			t.Errorf("%s: the secret 1 MiB into the line, after another keyword, was not found", name)
		}
	}
}

// Values that say by themselves they are no live credential pass; the
// same places holding random values are still found (minimal pairs).
func TestMadeUpAndNames(t *testing.T) {
	clean := []string{
		"Tokenization: `max_seq_length=512`",                             // the value is another name's assignment
		"Key defaults: `warmup_steps=100`",                               // "Key" is an adjective
		"tokenizer_model_name: llama3.1-8b-instr",                        // the keyword is part of "tokenizer"
		`"tokenAddress": "MASi45ub7Qe4ZE36UT5G6cU4ud8Fhhe4deS4F3cw9KTA"`, // a public address
		`"tokenIn": "0x4f1c2e9a7b3d5e6f8a0b1c2d3e4f5a6b7c8d9e0f"`,        // an EVM address
		"SERVICE_TOKEN=sk-testsecret12345678901234567890",                // words and a count
		`headers = {"X-API-Key": "secret-api-key-12345"}`,
		`page_token = "cHJldkN1cnNvclRva2Vu"`,     // base64 of a name
		`auth_token = "Ym9iOmJvYnNwYXNzd29yZA=="`, // base64 of user:<word>password
		`token = "eyJhbGciOiJIUzI1NiJ9.abcdefgh-1234.5678"`,
		`-H "Authorization: Bearer tk_live_..."`,
		`curl "https://p.example.com/users.json?auth=eyJhbGciOiJSUzI1NiIs..."`,
		"Example key: " + j("AIza", "Sy0123456789abcdefghijklmnopqrstuvwxy"),
		"ACCESS = \"" + j("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", ".", "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ", ".", "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c") + "\"",
	}
	for _, src := range clean {
		if ms := Scan("x.md", []byte(src)); len(ms) > 0 {
			t.Errorf("%q: false positive %+v", src, ms)
		}
	}
	found := []string{
		"api_key = \"" + j("Zq8vL2mX9r", "T4wK7pN3bY6cV1") + "\"",
		`auth_token = "` + j("ih6STo/Qri4alJKj", "MF8YjLYQkA+eNH+u") + `"`, // base64 of random bytes
		`auth_token = "` + j("dXNlcjpYazltUTJ2", "TDdwUjR0Vw==") + `"`,     // base64 of user:<random>
		"tokenizer_secret = \"" + j("Zq8vL2mX9r", "T4wK7pN3bY6cV1") + "\"",
		"wallet_key = \"0x" + j("0c6d1d3ed066b9448a807d803cb2288d", "1e4194a38be0dafba8538fb3c415ccd3") + "\"",
		`token = "` + j("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", ".", "eyJzdWIiOiJzdmMtbGVkZ2VyLTciLCJyb2xlIjoib3BzIiwiaWF0IjoxNzE2MjM5MDIyfQ", ".", "xtUV2NN6-IORn5sCtQmPgPF_di4TNmZAGUOdNKeNtUU") + `"`,
	}
	for _, src := range found {
		if ms := Scan("x.md", []byte(src)); len(ms) == 0 {
			t.Errorf("%q: not found", src)
		}
	}
}
