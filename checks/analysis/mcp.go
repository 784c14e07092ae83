package analysis

import (
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/facts/prose"
	"github.com/metahub-ai/attest/checks/facts/text"
	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/checks/vocab"
	"github.com/metahub-ai/attest/mcp"
	"github.com/metahub-ai/attest/resolve"
)

// mcpStrings reads every text an MCP client shows the model (tool, title,
// parameter, prompt and resource texts, server instructions) through the
// prose producer, and the strings a tool handler returns.
func mcpStrings(s *resolve.Subject, set *facts.Set) {
	if s.Kind != resolve.KindMCP && s.Kind != resolve.KindPlugin {
		return
	}
	sf := files.Surface(s)
	if sf == nil {
		return
	}
	read := func(site mcp.Site, via, text string, dest ...string) {
		if strings.TrimSpace(text) == "" {
			return
		}
		file := site.File
		if file == "" && len(s.Inventory.Files) == 1 {
			file = s.Inventory.Files[0].Path // a captured surface: the snapshot is the subject
		}
		line := site.Line
		if line == 0 {
			line = 1
		}
		opt := prose.Options{Plain: true, Medium: facts.MCPString, Via: []string{via}, Lowerers: lowerers, Ctx: facts.ModelReads}
		if len(dest) > 0 {
			opt.Dest = dest[0]
		}
		r := prose.Lower(file, text, line-1, opt)
		// the text is one string; it is read as if on its site's line
		for i := range r.Set.Sinks {
			r.Set.Sinks[i].At.Line = line
		}
		for i := range r.Set.Flows {
			r.Set.Flows[i].To.At.Line, r.Set.Flows[i].From.At.Line = line, line
		}
		set.Merge(r.Set)
		set.Merge(docProgram(r).run())
	}
	if sf.Instructions != "" {
		read(mcp.Site{}, "server instructions", sf.Instructions)
	}
	for _, t := range sf.Tools {
		via := "tool " + t.Name
		server := "the server of tool " + t.Name
		read(t.Site, via, t.Name+": "+t.Description, server)
		read(t.Site, via+" title", t.Title)
		for _, p := range t.Params {
			pvia := fmt.Sprintf("%s parameter %s", via, p.Name)
			if p.Unused {
				pvia += " " + UnusedParam
			}
			read(t.Site, pvia, p.Description, server)
			for _, v := range p.Values {
				read(t.Site, fmt.Sprintf("%s parameter %s value", via, p.Name), v)
			}
		}
		for k, v := range t.Annotations {
			if str, ok := v.(string); ok {
				read(t.Site, via+" annotation "+k, str)
			}
		}
	}
	for _, p := range sf.Prompts {
		read(p.Site, "prompt "+p.Name, p.Description)
		read(p.Site, "prompt "+p.Name+" body", p.Body)
		for _, a := range p.Arguments {
			read(p.Site, fmt.Sprintf("prompt %s argument %s", p.Name, a.Name), a.Description)
		}
	}
	for _, rs := range sf.Resources {
		read(rs.Site, "resource "+rs.Name, rs.Description)
	}
}

// UnusedParam marks, in a fact's way, a tool parameter its handler never
// reads: what the model is asked to fill in goes nowhere the tool's work
// needs it.
const UnusedParam = "(its handler never reads it)"

// returned reads the strings tool handlers return, which the client hands
// the model as the tool's result.
func returned(set *facts.Set) {
	var more []*prose.Result
	for _, s := range set.Sinks {
		if s.Kind != facts.ModelOutput {
			continue
		}
		for _, text := range s.Args {
			if len(strings.TrimSpace(text)) < 12 {
				continue
			}
			via := append(append([]string(nil), s.At.Via...), "returned by a tool handler")
			r := prose.Lower(s.At.Path, text, s.At.Line-1, prose.Options{Plain: true, Medium: facts.MCPString, Via: via, Lowerers: lowerers, Ctx: facts.ModelReads})
			for i := range r.Set.Sinks {
				r.Set.Sinks[i].At.Line = s.At.Line
			}
			more = append(more, r)
		}
	}
	for _, r := range more {
		set.Merge(r.Set)
	}
}

// askedContext relabels a tool handler's parameter that the tool's texts
// ask the model to fill with its own context (the conversation so far, the
// chat history, the system prompt): what reaches a sink from it is the
// conversation, not the caller's input. The texts are the parameter's
// name, title and description, and the line of the tool's description
// that documents it ("conversation: the full conversation so far").
func askedContext(s *resolve.Subject, set *facts.Set) {
	if s.Kind != resolve.KindMCP && s.Kind != resolve.KindPlugin {
		return
	}
	sf := files.Surface(s)
	re := vocab.Words("context")
	if sf == nil || re == nil {
		return
	}
	type param struct{ file, name string }
	asked := map[param]bool{}
	for _, t := range sf.Tools {
		for _, p := range t.Params {
			// a parameter's name reads as a noun phrase: chat_history is
			// "the chat history"
			texts := []string{p.Description, p.Title, "the " + strings.Join(text.IdentWords(p.Name), " ")}
			texts = append(texts, documented(t.Description, p.Name)...)
			for _, x := range texts {
				if x != "" && re.MatchString(text.Normalize(x)) {
					asked[param{t.Site.File, p.Name}] = true
					break
				}
			}
		}
	}
	if len(asked) == 0 {
		return
	}
	relabel := func(src *facts.Source) {
		if src.Label == facts.UserInput && src.Ctx.Has(facts.Handler) && asked[param{src.At.Path, src.What}] {
			src.Label = facts.Conversation
		}
	}
	for i := range set.Sources {
		relabel(&set.Sources[i])
	}
	for i := range set.Flows {
		relabel(&set.Flows[i].From)
	}
}

// documented finds the lines of a docstring that document a parameter, in
// the Google ("name (type): text") and Sphinx (":param name: text") styles.
func documented(doc, name string) []string {
	if doc == "" || name == "" || !strings.Contains(doc, name) {
		return nil
	}
	var out []string
	for _, ln := range strings.Split(doc, "\n") {
		ln = strings.TrimSpace(ln)
		ln = strings.TrimPrefix(ln, ":param ")
		rest, ok := strings.CutPrefix(ln, name)
		if !ok {
			continue
		}
		rest = strings.TrimSpace(rest)
		if strings.HasPrefix(rest, "(") {
			if i := strings.IndexByte(rest, ')'); i >= 0 {
				rest = strings.TrimSpace(rest[i+1:])
			}
		}
		if after, ok := strings.CutPrefix(rest, ":"); ok {
			out = append(out, after)
		}
	}
	return out
}
