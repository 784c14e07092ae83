// Package files classifies the files of an artifact for the content
// checks (CHECKS §4.1): text or not, the language of code, and whether a
// model reads the file.
package files

import (
	"bytes"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/metahub-ai/attest/resolve"
)

// IsText reports whether a scanned file is text: valid UTF-8 with no NUL.
func IsText(f *resolve.File) bool {
	return f.Scanned && utf8.Valid(f.Content) && bytes.IndexByte(f.Content, 0) < 0
}

// Language names the language of a code file: js, python, go, shell,
// other (a language without a tokenizer here), or "" for non-code.
func Language(p string, content []byte) string {
	switch strings.ToLower(path.Ext(p)) {
	case ".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx":
		return "js"
	case ".py", ".pyw", ".pyi":
		return "python"
	case ".go":
		return "go"
	case ".sh", ".bash", ".zsh", ".ksh", ".command":
		return "shell"
	case ".rb", ".php", ".pl", ".pm", ".lua", ".ps1", ".psm1", ".java", ".kt", ".kts", ".scala", ".cs", ".c", ".h", ".cc", ".cpp",
		".hpp", ".swift", ".rs", ".html", ".htm", ".vue", ".svelte", ".r", ".dart", ".groovy", ".bat", ".cmd":
		return "other"
	case "":
		first, _, _ := bytes.Cut(content, []byte{'\n'})
		if bytes.HasPrefix(first, []byte("#!")) {
			switch {
			case bytes.Contains(first, []byte("python")):
				return "python"
			case bytes.Contains(first, []byte("node")), bytes.Contains(first, []byte("deno")), bytes.Contains(first, []byte("bun")):
				return "js"
			case bytes.Contains(first, []byte("sh")):
				return "shell"
			}
			return "other"
		}
	}
	return ""
}

// modelReadNames are files an agent loads whatever the kind.
var modelReadNames = map[string]bool{"skill.md": true, "claude.md": true, "agents.md": true, "gemini.md": true, ".cursorrules": true,
	"readme.md": true, "readme": true, "readme.txt": true, "plugin.md": true, "agent.md": true}

// ModelRead reports whether a model reads the file: SKILL.md and every
// markdown or text file of a skill (the agent may open any of them), agent
// files, commands, instruction files (CLAUDE.md, AGENTS.md, GEMINI.md,
// .cursorrules, *.mdc), READMEs, and the markdown of a plugin's bundled
// skills, agents and commands.
func ModelRead(s *resolve.Subject, p string) bool {
	base := strings.ToLower(path.Base(p))
	ext := strings.ToLower(path.Ext(p))
	if modelReadNames[base] || ext == ".mdc" || strings.HasPrefix(base, "readme") {
		return true
	}
	if ext != ".md" && ext != ".markdown" && ext != ".txt" {
		return false
	}
	if s.Kind == resolve.KindSkill {
		return true
	}
	for _, seg := range strings.Split(path.Dir(p), "/") {
		switch seg {
		case "agents", "subagents", "commands", "skills", "prompts", "instructions", "references", "reference":
			return true
		}
	}
	for _, a := range s.Manifests.Agents {
		if a.Path == p {
			return true
		}
	}
	return false
}
