package files

import (
	"crypto/sha256"
	"iter"

	"github.com/metahub-ai/attest/checks/internal/binfmt"
	"github.com/metahub-ai/attest/resolve"
)

// MaxMemberTextBytes bounds the archive member text kept per run for the
// content checks; archives past it are listed in Archives.Unread.
const MaxMemberTextBytes = 256 << 20

// Archive is one archive of the subject as far as it was opened.
type Archive struct {
	Path    string
	Type    binfmt.Type
	Members []binfmt.Member
	// Err is set when a limit or a malformed entry stopped the reading.
	Err error
}

// Archives lists the subject's archives with their members, opened once
// per run for no-bundled-binaries and the content checks.
type Archives struct {
	List []Archive
	// Files are the text members as virtual files, path archive!/member.
	Files []resolve.File
	// Unread lists archives some of whose members are not in Files: a
	// limit stopped the reading.
	Unread []string
}

type archivesKey struct{}

// OpenArchives opens every scanned archive of the subject, once per run.
func OpenArchives(s *resolve.Subject) *Archives {
	return s.Memo(archivesKey{}, func() any {
		a := &Archives{}
		var kept int
		for i := range s.Inventory.Files {
			f := &s.Inventory.Files[i]
			if !f.Scanned {
				continue
			}
			t := binfmt.Detect(f.Path, f.Content)
			if !t.Archive() {
				continue
			}
			ms, err := binfmt.Inspect(f.Path, f.Content, t)
			a.List = append(a.List, Archive{Path: f.Path, Type: t, Members: ms, Err: err})
			unread := err != nil
			for _, m := range ms {
				if m.Text == nil {
					continue
				}
				if kept+len(m.Text) > MaxMemberTextBytes {
					unread = true
					continue
				}
				kept += len(m.Text)
				a.Files = append(a.Files, resolve.File{Path: m.Name, Mode: 0o644, Size: int64(len(m.Text)), SHA256: sha256.Sum256(m.Text), Content: m.Text, Scanned: true})
			}
			if unread {
				a.Unread = append(a.Unread, f.Path)
			}
		}
		return a
	}).(*Archives)
}

// Scan yields every file the content checks read (CHECKS §1, principle 1):
// the inventory's files, then the text members of its archives as
// virtual files named archive!/member.
func Scan(s *resolve.Subject) iter.Seq[*resolve.File] {
	return func(yield func(*resolve.File) bool) {
		for i := range s.Inventory.Files {
			if !yield(&s.Inventory.Files[i]) {
				return
			}
		}
		members := OpenArchives(s).Files
		for i := range members {
			if !yield(&members[i]) {
				return
			}
		}
	}
}

// Unread lists what the content checks could not read in full: subject
// files over a scan limit, code past the code budget and archives a limit,
// a malformed entry or an unread format kept members out of. A check with nothing found in a
// subject that has any of these has not seen everything, so it skips
// (a limit reached) instead of passing.
func Unread(s *resolve.Subject) []string {
	var out []string
	for _, u := range s.Inventory.Unscanned {
		out = append(out, u.Path)
	}
	out = append(out, CodeUnread(s)...)
	return append(out, OpenArchives(s).Unread...)
}
