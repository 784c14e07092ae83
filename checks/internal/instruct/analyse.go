package instruct

import (
	"strings"
	"sync"

	"github.com/metahub-ai/attest/checks/lex"
)

// Family of an instruction-analyser hit.
type Family string

const (
	Override     Family = "override"
	Concealment  Family = "concealment"
	Authority    Family = "forged-authority"
	Role         Family = "role-reassignment"
	Coercion     Family = "pre-action-coercion"
	ApprovalSkip Family = "approval-bypass"
	Evaluator    Family = "evaluator-manipulation"
	ParentSteer  Family = "steers-the-parent-agent"

	CredentialRead Family = "credential-access"
	SendData       Family = "sends-data"
	Persist        Family = "persistence"
	DisableSafety  Family = "disables-safety"
	BroadDelete    Family = "broad-deletion"
	FetchFollow    Family = "fetch-and-follow"
)

type pattern struct {
	family Family
	re     *lex.Pattern
	// need and also list substrings one of each of which any match
	// contains; text without one of need, or (when also is set) one of
	// also, skips the pattern (and never compiles it). FuzzNeed holds
	// every list to its pattern.
	need, also []string
}

// The instruction analyser's families, over normalised text.
var instructionPatterns = []pattern{
	{Override, lex.Lazy(`\b(ignore|disregard|forget|override|bypass|skip)\b[^.]{0,30}?\b(all|any|the|your|every|previous|prior|above|earlier|preceding|system|original|developer)\b[^.]{0,30}?\b(instructions?|prompts?|rules|directives|guidelines|guardrails|policies|context)\b`), []string{"instruction", "prompt", "rule", "directive", "guideline", "guardrail", "polic", "context"}, []string{"ignore", "disregard", "forget", "override", "bypass", "skip"}},
	{Concealment, lex.Lazy(`\b(do not|don't|never|must not)\s+(tell|inform|notify|alert|mention (it |this |that )?to|reveal (it |this |that )?to|let)\s+the user\b|\bwithout (telling|informing|notifying|alerting|asking) the user\b|\bkeep (this|these|the) (step|steps|action|actions|instruction|instructions|part)? ?(hidden|secret)\b|\bhide (this|it|these|the \w+) from the user\b|\bthe user (must|should) (not|never) (know|see|find out)\b|\bsilently\b[^.]{0,40}\b(send|upload|copy|run|execute|read|write|post)\b`), []string{"the user", "keep ", "silently"}, nil},
	{Authority, lex.Lazy(`<\s*/?\s*(important|system|admin|instructions|secret|hidden|sys)\s*>|\[\s*(system|admin)\s*\]|<\|im_start\|>\s*system|(^|\n)\s*(human|assistant|system)\s*:`), []string{"important", "sys", "admin", "instructions", "secret", "hidden", "human", "assistant"}, []string{"<", "[", ":"}},
	{Role, lex.Lazy(`\byou are now\b|\bfrom now on,? you\b|\b(developer|dan|god|jailbreak|unrestricted) mode\b|\bnew instructions\s*:|\bact as an? (unrestricted|unfiltered|jailbroken)\b`), []string{"you are now", "from now on", "developer mode", "dan mode", "god mode", "jailbreak mode", "unrestricted mode", "new instructions", "act as"}, nil},
	{Coercion, lex.Lazy(`\bbefore (answering|responding|replying|you (answer|respond|reply|do anything)|doing anything|any other (step|action|tool))\b[^.]{0,40}?\b(read|send|fetch|run|execute|upload|call|include|cat|open|post|curl|download)\b`), []string{"before "}, nil},
	{ApprovalSkip, lex.Lazy(`\b(do not|don't|never|no need to) (ask|request|wait) (the user )?(for )?(confirmation|permission|approval|consent)\b|\bno need (for|to ask for) (permission|confirmation|approval)\b|\bwithout (asking for |requesting )?(permission|confirmation|approval|consent)\b|\bauto-?approve (all|every|any|each)\b|\bskip (the |all )?(confirmation|approval|permission) (prompts?|checks?|steps?)\b`), []string{"confirm", "permission", "approv", "consent"}, nil},
	{Evaluator, lex.Lazy(`\b(score|rate|grade) (this|it)( \w+)? (as )?\d+ ?/ ?(10|100)\b|\b(classify|mark|label|rate|report) (this|it)( \w+)? as (safe|benign|trusted|verified|harmless)\b|\b(security )?(scanners?|reviewers?|evaluators?|auditors?)\b[^.]{0,40}\b(should|must) (not flag|ignore|pass|approve)\b`), []string{"score this", "score it", "rate this", "rate it", "grade this", "grade it", "classify this", "classify it", "mark this", "mark it", "label this", "label it", "report this", "report it", "scanner", "reviewer", "evaluator", "auditor"}, nil},
	{ParentSteer, lex.Lazy(`\b(tell|instruct|ask|make) the (main|parent|calling|orchestrating|primary) (agent|assistant|model)\b[^.]{0,40}\b(ignore|skip|disable|bypass|not ask|stop asking|run|execute|send)\b`), []string{"the main ", "the parent ", "the calling ", "the orchestrating ", "the primary "}, nil},
}

// The hostile-action analyser's imperative patterns.
var hostilePatterns = []pattern{
	{CredentialRead, lex.Lazy(`\b(read|cat|copy|send|upload|include|print|output|show|paste|attach|exfiltrate|post|open|collect|grab|dump)\b[^.\n]{0,60}?(~/\.ssh|\bid_(rsa|ed25519|ecdsa|dsa)\b|\.aws/credentials|~/\.netrc|\.git-credentials|\.docker/config\.json|\.kube/config|~/\.cursor/mcp\.json|~/\.claude(\.json|/)|\bkeychain\b|login data|\bcookies\b[^.]{0,20}\bbrowser|\.env([^.\w]|$)|/etc/shadow|\bpasswords?\b[^.]{0,20}\b(file|store|manager))`), []string{".ssh", "id_", ".aws", "netrc", "credentials", "config", "claude", "keychain", "login data", "cookies", ".env", "shadow", "password"}, []string{"read", "cat", "copy", "send", "upload", "include", "print", "output", "show", "paste", "attach", "exfiltrate", "post", "open", "collect", "grab", "dump"}},
	{SendData, lex.Lazy(`\b(send|post|upload|exfiltrate|forward|transmit|report)\b[^.\n]{0,60}?\b(to|at)\b\s*(https?://|[\w-]+\.(ngrok|webhook\.site|requestbin|pipedream|burpcollaborator|oast|interact)\b)`), []string{"http", "ngrok", "webhook", "requestbin", "pipedream", "burp", "oast", "interact"}, []string{"send", "post", "upload", "exfiltrate", "forward", "transmit", "report"}},
	{Persist, lex.Lazy(`\b(add|append|write|install|create)\b[^.\n]{0,60}?(\bcrontab\b|\bcron job\b|\.bashrc\b|\.zshrc\b|\.profile\b|\blaunchagents?\b|\blaunch agent\b|\bsystemd (unit|service)\b|\bauthorized_keys\b|\bstartup (item|script)\b)`), []string{"crontab", "cron job", ".bashrc", ".zshrc", ".profile", "launchagent", "launch agent", "systemd unit", "systemd service", "authorized_keys", "startup item", "startup script"}, []string{"add", "append", "write", "install", "create"}},
	{DisableSafety, lex.Lazy(`--dangerously-skip-permissions|\bbypasspermissions\b|\b(disable|turn off|switch off|bypass)\b[^.\n]{0,30}?\b(the )?(sandbox|safety (checks?|prompts?)|permission (prompts?|checks?)|confirmations?|guardrails|antivirus|firewall|gatekeeper|sip)\b`), []string{"dangerously", "bypasspermissions", "disable", "turn off", "switch off", "bypass"}, nil},
	{BroadDelete, lex.Lazy(`\b(delete|remove|wipe|erase)\b[^.\n]{0,20}?\b(all|every|the entire|the whole)\b[^.\n]{0,30}?\b(files|home directory|repository|repositories|disk|drive|data)\b|rm -rf (~|/|\$home)`), []string{"delete", "remove", "wipe", "erase", "rm -rf"}, nil},
	{FetchFollow, lex.Lazy(`\b(fetch|download|curl|get|load|read)\b[^.\n]{0,40}?(https?://\S+)[^.\n]{0,60}?\b(follow|execute|run|obey|apply|carry out)\b[^.\n]{0,20}?\b(instructions?|steps|commands?|it|them|the contents?)\b`), []string{"http"}, []string{"follow", "execute", "run", "obey", "apply", "carry out"}},
}

// admits is the prefilter: whether norm holds one of need and, when set,
// one of also.
func (p pattern) admits(norm string) bool {
	return containsAny(norm, p.need) && (p.also == nil || containsAny(norm, p.also))
}

// Hit is one analyser match in normalised text.
type Hit struct {
	Family Family
	Start  int // byte offset in the normalised text
}

func match(ps []pattern, idx *needIndex, norm string) []Hit {
	var out []Hit
	admitted := idx.scan(norm)
	for i, p := range ps {
		if !admitted[i] {
			continue
		}
		if loc := p.re.Re().FindStringIndex(norm); loc != nil {
			out = append(out, Hit{Family: p.family, Start: loc[0]})
		}
	}
	return out
}

// needIndex answers every pattern's prefilter (admits) in one pass over a
// text: testing each word with strings.Contains cost as much as the
// patterns themselves (4.8 of 9.4 ms over mcp-builder's documents).
type needIndex struct {
	words *lex.Words
	refs  []needRef // by word
	want  [maxPatterns]uint8
	n     int
}

type needRef struct {
	pat   int
	group uint8 // 1 for need, 2 for also
}

const maxPatterns = 16

func newNeedIndex(ps []pattern) *needIndex {
	if len(ps) > maxPatterns {
		panic("instruct: too many patterns for the need index")
	}
	x := &needIndex{n: len(ps)}
	var words []string
	for i, p := range ps {
		x.want[i] = 1
		for _, w := range p.need {
			words, x.refs = append(words, w), append(x.refs, needRef{i, 1})
		}
		if p.also != nil {
			x.want[i] = 3
			for _, w := range p.also {
				words, x.refs = append(words, w), append(x.refs, needRef{i, 2})
			}
		}
	}
	x.words = lex.NewWords(words)
	return x
}

// scan reports, for each pattern, whether the text holds one of its need
// words and, when it has them, one of its also words.
func (x *needIndex) scan(s string) (admitted [maxPatterns]bool) {
	var found [maxPatterns]uint8
	for w := range x.words.In(s) {
		r := x.refs[w]
		found[r.pat] |= r.group
	}
	for i := range x.n {
		admitted[i] = found[i]&x.want[i] == x.want[i]
	}
	return admitted
}

var (
	instructionIndex = sync.OnceValue(func() *needIndex { return newNeedIndex(instructionPatterns) })
	hostileIndex     = sync.OnceValue(func() *needIndex { return newNeedIndex(hostilePatterns) })
)

// Instructions runs the instruction analyser over normalised text.
func Instructions(norm string) []Hit { return match(instructionPatterns, instructionIndex(), norm) }

// HostileActions runs the hostile-action analyser's imperative patterns.
func HostileActions(norm string) []Hit { return match(hostilePatterns, hostileIndex(), norm) }

// Labels that mark a passage as an example of what not to do.
var labelRe = lex.Lazy(`\b(don'?t|do not|never|avoid|bad|insecure|unsafe|dangerous|anti-?pattern|malicious|attacks?|attackers?|injections?|example of (an? )?(attack|injection)|warning|beware|reject|refuse|blocked|blocklist|block (it|them|this|that|such|these|those|requests?|tools?|calls?|commands?))\b|❌|✗|⚠`)

// Labelled reports whether text carries a negative or meta label. "block"
// counts only as the verb ("block such tools"): "run the block below"
// names a fenced block and labels nothing.
func Labelled(norm string) bool { return labelRe.Re().MatchString(norm) }

func containsAny(s string, subs []string) bool {
	if subs == nil {
		return true
	}
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}
