package vocab

import (
	"path"
	"strconv"
	"strings"
	"sync"
)

// A call entry (data/calls-LANG.txt, one file and section per language) says what
// calling a name does. Its label is the role:
//
//	read-file            reads the file at path= (its value is labelled by the path; handle=TYPE: it is
//	                     the open file, whose methods are TYPE's)
//	write-file           writes data= to the file at path= (handle=TYPE: returns the open file)
//	env-map              the whole environment as a map (os.environ, process.env)
//	env-get              reads the variable named by name=
//	source:LABEL         yields a value with LABEL (clipboard, keychain, system-info …)
//	sink:KIND            sends data= to dest= (net-send, dns, mail, delete, priv-change …)
//	fetch                a request to dest= whose result is remote content (and whose data= is sent)
//	exec-shell           runs cmd= as a shell command string
//	exec-argv            runs cmd= as an argument vector; a true shell= makes it a shell string
//	exec-code            runs code= as code of the same language
//	deserialize          loads data= as objects (pickle, marshal)
//	ctor:TYPE            returns an object whose methods are looked up as TYPE.method (fields=Name:N keeps
//	                     argument N as its field Name; label=L makes the object a value of label L)
//	store                keeps data= in the receiver under the key name= (a header set, a buffer write, an
//	                     element appended); into= names the argument that keeps it instead of the receiver,
//	                     and local limits it to a value the artifact built (a list, a dict, an object)
//	xform:KIND           returns its arguments transformed: encode, decode, compress, decompress, pass
//	join                 returns its arguments joined as a path
//	home                 returns the home directory ("~"), or its argument with "~" expanded; base=DIR: that
//	                     directory instead (a temporary one: /tmp/?)
//	effect:KIND          the call is the effect (fork, anti-analysis, sleep …)
//	fd-redirect          binds data= to a standard stream (setter: by assigning the field, cmd.Stdin = conn)
//	import               a dynamic import of the module named by name=
//	getattr              the attribute named by name= of data= (reflection)
//
// The pattern is a dotted name; a leading "*." matches that method on any
// receiver, and recv= then lists the receiver names (globs) it must have.
// Argument references (dest=, data=, path=, name=, cmd=, code=, cred=,
// shell=) are comma lists of positions (0, 1), keyword names, "N.key" (a
// key of the object at position N), "recv" (the receiver) or "*" (every
// argument not named by another reference).

// ArgRef is one argument reference.
type ArgRef struct {
	Pos  int    // -1 when by keyword only
	Key  string // keyword, or the object key with Pos
	Recv bool
	All  bool
}

// Role is what a call does.
type Role struct {
	Kind  string // the role before ":"
	Arg   string // after ":": the sink kind, label, type, transform or effect
	Entry *Entry
	Refs  map[string][]ArgRef
	// Recv lists receiver-name globs for a "*." entry.
	Recv []string
}

// Ref returns the argument references of one kind (dest, data, …).
func (r *Role) Ref(kind string) []ArgRef { return r.Refs[kind] }

type callTable struct {
	exact map[string]*Role
	any   map[string][]*Role // "*.method" entries by method
}

func parseRefs(v string) []ArgRef {
	var out []ArgRef
	for _, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		switch {
		case f == "":
		case f == "*":
			out = append(out, ArgRef{Pos: -1, All: true})
		case f == "recv":
			out = append(out, ArgRef{Pos: -1, Recv: true})
		default:
			n, key, _ := strings.Cut(f, ".")
			if i, err := strconv.Atoi(n); err == nil {
				out = append(out, ArgRef{Pos: i, Key: key})
			} else {
				out = append(out, ArgRef{Pos: -1, Key: f})
			}
		}
	}
	return out
}

var refKinds = []string{"dest", "data", "path", "name", "cmd", "code", "cred", "shell", "str", "out", "into", "in"}

// CallEntries are the entries of every calls-LANG.txt file.
func CallEntries() []*Entry {
	var out []*Entry
	for _, f := range Files() {
		if strings.HasPrefix(f, "calls-") {
			out = append(out, Entries(f)...)
		}
	}
	return out
}

var callTables = sync.OnceValue(func() map[string]*callTable {
	out := map[string]*callTable{}
	for _, e := range CallEntries() {
		t := out[e.Section]
		if t == nil {
			t = &callTable{exact: map[string]*Role{}, any: map[string][]*Role{}}
			out[e.Section] = t
		}
		kind, arg, _ := strings.Cut(e.Label, ":")
		r := &Role{Kind: kind, Arg: arg, Entry: e, Refs: map[string][]ArgRef{}}
		for _, k := range refKinds {
			if v, ok := e.Opts[k]; ok {
				r.Refs[k] = parseRefs(v)
			}
		}
		if v := e.Opt("recv"); v != "" {
			r.Recv = strings.Split(strings.ToLower(v), ",")
		}
		for _, name := range expandAlternatives(e.Pattern) {
			if m, ok := strings.CutPrefix(name, "*."); ok {
				t.any[m] = append(t.any[m], r)
			} else if _, dup := t.exact[name]; !dup {
				t.exact[name] = r
			}
		}
	}
	return out
})

// expandAlternatives turns "a.{b,c}" into "a.b" and "a.c" (one brace
// group).
func expandAlternatives(p string) []string {
	i := strings.IndexByte(p, '{')
	j := strings.IndexByte(p, '}')
	if i < 0 || j < i {
		return []string{p}
	}
	var out []string
	for _, alt := range strings.Split(p[i+1:j], ",") {
		out = append(out, expandAlternatives(p[:i]+alt+p[j+1:])...)
	}
	return out
}

// Call returns the role of calling (or, for env-map and source entries,
// reading) the qualified name in a language section, or nil.
func Call(lang, qualified string) *Role {
	t := callTables()[lang]
	if t == nil {
		return nil
	}
	return t.exact[qualified]
}

// Method returns the role of a method called on a receiver the producer
// could not type: a "*.method" entry whose recv globs admit the
// receiver's name (an entry without recv admits any receiver).
func Method(lang, method, recvName string) *Role {
	t := callTables()[lang]
	if t == nil {
		return nil
	}
	rn := strings.ToLower(recvName)
	for _, r := range t.any[method] {
		if len(r.Recv) == 0 {
			return r
		}
		for _, g := range r.Recv {
			if ok, _ := path.Match(g, rn); ok {
				return r
			}
		}
	}
	return nil
}

// CallSections lists the languages calls.txt has sections for.
func CallSections() []string {
	var out []string
	for k := range callTables() {
		out = append(out, k)
	}
	return out
}

// Networked reports whether calling a qualified name reaches the network
// in a language: a fetch, or a sink that sends, connects or resolves; a
// method of a receiver the caller could not type is looked up by the
// receiver's name (session.post).
func Networked(lang, qualified string) bool {
	r := Call(lang, qualified)
	if r == nil {
		if i := strings.LastIndexByte(qualified, '.'); i > 0 {
			r = Method(lang, qualified[i+1:], qualified[:i])
		}
	}
	if r == nil {
		return false
	}
	switch {
	case r.Kind == "fetch":
		return true
	case r.Kind == "sink":
		return r.Arg == "net-send" || r.Arg == "net-connect" || r.Arg == "dns"
	}
	return false
}
