// Package remote fetches remote targets (git, npm, PyPI, a registry) into
// a local directory: resolve.Load calls Fetch (through LoadOptions.Remote)
// only for a target that names a remote, so a local run reaches no network.
package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/capability"
	sidebandpkg "github.com/go-git/go-git/v5/plumbing/protocol/packp/sideband"
	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	"github.com/go-git/go-git/v5/storage/memory"

	"github.com/metahub-ai/attest/resolve"
)

// Limits of a remote fetch.
const (
	MaxFetchBytes    = 1 << 30 // bytes read from a git server or registry
	MaxCheckoutBytes = 512 << 20
	FetchTimeout     = 5 * time.Minute
	maxSymlinkHops   = 40
)

// gitClient is go-git's smart-HTTP client over an http.Client with a byte
// cap and timeouts. Only http(s) exists here: the target parser refuses
// other schemes, and no other transport is linked.
var gitClient = sync.OnceValue(func() transport.Transport {
	c := &http.Client{Transport: &cappedTransport{base: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout:   30 * time.Second,
		ResponseHeaderTimeout: 60 * time.Second,
		ForceAttemptHTTP2:     true,
	}, max: MaxFetchBytes}, Timeout: FetchTimeout}
	return githttp.NewClient(c)
})

// cappedTransport stops any response body at max bytes.
type cappedTransport struct {
	base http.RoundTripper
	max  int64
}

func (c *cappedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.base.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	resp.Body = &cappedBody{ReadCloser: resp.Body, left: c.max}
	return resp, nil
}

type cappedBody struct {
	io.ReadCloser
	left int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, fmt.Errorf("%w (%d bytes)", resolve.ErrTooLarge, MaxFetchBytes)
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	return n, err
}

// fetchGit fetches exactly the asked ref of a repository, shallow, into
// memory, and writes the tree of the asked directory to a temporary
// directory: no worktree, so no hooks, no submodules, no LFS smudge. It
// speaks the smart-HTTP protocol through go-git's plumbing (an upload-pack
// session and a packfile parser), not its porcelain, which would link the
// ssh and OpenPGP stacks into every run.
func fetchGit(ctx context.Context, t resolve.Target, dir string) (*Result, error) {
	return fetchGitPinned(ctx, t, dir, "")
}

// fetchGitPinned is fetchGit for a registry entry that names a tag beside
// its commit: the tag must still point at that commit.
func fetchGitPinned(ctx context.Context, t resolve.Target, dir, tag string) (*Result, error) {
	ctx, cancel := context.WithTimeout(ctx, FetchTimeout)
	defer cancel()
	ep, err := transport.NewEndpoint(t.URL)
	if err != nil {
		return nil, fmt.Errorf("target %q: %w: %v", t.Raw, resolve.ErrBadTarget, err)
	}
	sess, err := gitClient().NewUploadPackSession(ep, nil)
	if err != nil {
		return nil, remoteError(t, err)
	}
	defer sess.Close()
	adv, err := sess.AdvertisedReferencesContext(ctx)
	if err != nil {
		return nil, remoteError(t, err)
	}
	refs, err := advertised(adv)
	if err != nil {
		return nil, remoteError(t, err)
	}
	name, hash, err := pickRef(t, refs)
	if err != nil {
		return nil, err
	}
	if tag != "" {
		_, tagHash, err := pickRef(resolve.Target{URL: t.URL, Ref: tag}, refs)
		if err != nil {
			return nil, fmt.Errorf("%w %s: the registry names tag %s, which the repository does not have", resolve.ErrRemote, t.URL, tag)
		}
		if tagHash != hash {
			return nil, fmt.Errorf("%w %s: the registry pins commit %s for tag %s, but the repository's tag %s is at %s; nothing was evaluated", resolve.ErrRemote, t.URL, hash, tag, tag, tagHash)
		}
	}
	req := packp.NewUploadPackRequestFromCapabilities(adv.Capabilities)
	req.Wants = []plumbing.Hash{hash}
	if adv.Capabilities.Supports(capability.Shallow) {
		req.Depth = packp.DepthCommits(1)
		if err := req.Capabilities.Set(capability.Shallow); err != nil {
			return nil, err
		}
	}
	if adv.Capabilities.Supports(capability.NoProgress) {
		_ = req.Capabilities.Set(capability.NoProgress)
	}
	resp, err := sess.UploadPack(ctx, req)
	if err != nil {
		if name == "" {
			return nil, fmt.Errorf("%w %s: the server would not send commit %s on its own (%v); name a branch or tag that contains it", resolve.ErrRemote, t.URL, hash, err)
		}
		return nil, remoteError(t, err)
	}
	defer resp.Close()
	st := memory.NewStorage()
	if err := unpack(st, sideband(req.Capabilities, resp)); err != nil {
		return nil, remoteError(t, err)
	}
	commit, err := object.GetCommit(st, hash)
	if err != nil {
		if tag, terr := object.GetTag(st, hash); terr == nil {
			commit, err = tag.Commit()
		}
		if err != nil {
			return nil, fmt.Errorf("%w %s: %s did not arrive as a commit: %v", resolve.ErrRemote, t.URL, hash, err)
		}
	}
	tree, err := commit.Tree()
	if err != nil {
		return nil, fmt.Errorf("%w %s: %v", resolve.ErrRemote, t.URL, err)
	}
	sub, err := subtree(tree, t.Path)
	if err != nil {
		return nil, fmt.Errorf("target %q: %w", t.Raw, err)
	}
	if err := writeTree(ctx, sub, dir); err != nil {
		return nil, fmt.Errorf("target %q: %w", t.Raw, err)
	}
	commitHex := commit.Hash.String()
	refName := t.Ref
	if refName == "" {
		refName = name.Short()
	}
	prov := resolve.Provenance{Type: resolve.TypeGit, URI: t.URL, Commit: &commitHex}
	if t.Path != "" {
		p := t.Path
		prov.Path = &p
	}
	if refName != "" {
		prov.Ref = &refName
	}
	dirName := path.Base(t.Path)
	if t.Path == "" {
		dirName = strings.TrimSuffix(path.Base(t.URL), ".git")
	}
	return &Result{Provenance: prov, DirName: dirName, CommitTime: commit.Committer.When.UTC(), GitTree: sub.Hash.String()}, nil
}

// advertised lists the references a server advertised, with peeled tags
// as NAME^{} and HEAD as a symbolic reference when the server says where
// it points.
func advertised(adv *packp.AdvRefs) ([]*plumbing.Reference, error) {
	all, err := adv.AllReferences()
	if err != nil {
		return nil, err
	}
	var refs []*plumbing.Reference
	for _, r := range all {
		refs = append(refs, r)
	}
	for name, h := range adv.Peeled {
		refs = append(refs, plumbing.NewHashReference(plumbing.ReferenceName(name+"^{}"), h))
	}
	return refs, nil
}

func sideband(l *capability.List, r io.Reader) io.Reader {
	switch {
	case l.Supports(capability.Sideband64k):
		return sidebandpkg.NewDemuxer(sidebandpkg.Sideband64k, r)
	case l.Supports(capability.Sideband):
		return sidebandpkg.NewDemuxer(sidebandpkg.Sideband, r)
	}
	return r
}

// pickRef finds the asked ref among the advertised ones: a branch, then a
// tag (peeled to its commit), then a commit named in full or by a prefix
// of a branch or tag tip; "" asks for the default branch. A full commit
// that is no tip is returned with an empty name, to be fetched by hash.
func pickRef(t resolve.Target, refs []*plumbing.Reference) (plumbing.ReferenceName, plumbing.Hash, error) {
	byName := map[plumbing.ReferenceName]*plumbing.Reference{}
	for _, r := range refs {
		byName[r.Name()] = r
	}
	if t.Ref == "" {
		head := byName[plumbing.HEAD]
		if head != nil && head.Type() == plumbing.SymbolicReference {
			if r := byName[head.Target()]; r != nil {
				return r.Name(), r.Hash(), nil
			}
		}
		for _, b := range []string{"main", "master"} {
			if r := byName[plumbing.NewBranchReferenceName(b)]; r != nil {
				return r.Name(), r.Hash(), nil
			}
		}
		if head != nil && head.Type() == plumbing.HashReference {
			for _, r := range refs {
				if r.Name().IsBranch() && r.Hash() == head.Hash() {
					return r.Name(), r.Hash(), nil
				}
			}
		}
		return "", plumbing.ZeroHash, fmt.Errorf("%w %s: the repository has no default branch; name a ref with #REF", resolve.ErrRemote, t.URL)
	}
	if r := byName[plumbing.NewBranchReferenceName(t.Ref)]; r != nil {
		return r.Name(), r.Hash(), nil
	}
	if r := byName[plumbing.NewTagReferenceName(t.Ref)]; r != nil {
		h := r.Hash()
		if peeled := byName[plumbing.ReferenceName(string(r.Name())+"^{}")]; peeled != nil {
			h = peeled.Hash()
		}
		return r.Name(), h, nil
	}
	if isHex(t.Ref) && len(t.Ref) >= 7 {
		var match *plumbing.Reference
		for _, r := range refs {
			if strings.HasPrefix(r.Hash().String(), strings.ToLower(t.Ref)) && (r.Name().IsBranch() || r.Name().IsTag()) {
				match = r
				break
			}
		}
		if match != nil {
			return match.Name(), match.Hash(), nil
		}
		if len(t.Ref) == 40 {
			return "", plumbing.NewHash(strings.ToLower(t.Ref)), nil
		}
		return "", plumbing.ZeroHash, fmt.Errorf("%w %s: no branch or tag tip starts with %s; give the full 40-character commit", resolve.ErrRemote, t.URL, t.Ref)
	}
	var names []string
	for _, r := range refs {
		if (r.Name().IsBranch() || r.Name().IsTag()) && !strings.HasSuffix(r.Name().String(), "^{}") {
			names = append(names, r.Name().Short())
		}
	}
	slices.Sort(names)
	if len(names) > 10 {
		names = append(names[:10], "…")
	}
	return "", plumbing.ZeroHash, fmt.Errorf("%w %s: no branch, tag or commit named %q (it has: %s)", resolve.ErrRemote, t.URL, t.Ref, strings.Join(names, ", "))
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return s != ""
}

// remoteError says what went wrong in words a user can act on.
func remoteError(t resolve.Target, err error) error {
	var dns *net.DNSError
	var op *net.OpError
	switch {
	case errors.Is(err, transport.ErrRepositoryNotFound):
		return fmt.Errorf("%w %s: no such repository (check the owner and name)", resolve.ErrRemote, t.URL)
	case errors.Is(err, transport.ErrAuthenticationRequired), errors.Is(err, transport.ErrAuthorizationFailed):
		return fmt.Errorf("%w %s: the server asks for credentials: the repository is private, or does not exist (GitHub answers both alike); attest fetches anonymously, so clone it yourself and pass the directory", resolve.ErrRemote, t.URL)
	case errors.As(err, &dns):
		return fmt.Errorf("%w %s: cannot resolve %s: no network, or a wrong host name (%v)", resolve.ErrRemote, t.URL, dns.Name, err)
	case errors.As(err, &op):
		return fmt.Errorf("%w %s: cannot connect: no network or the host is down (%v)", resolve.ErrRemote, t.URL, err)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%w %s: gave up after %s", resolve.ErrRemote, t.URL, FetchTimeout)
	case errors.Is(err, resolve.ErrTooLarge):
		return fmt.Errorf("%w %s: %v", resolve.ErrRemote, t.URL, err)
	}
	return fmt.Errorf("%w %s: %v", resolve.ErrRemote, t.URL, err)
}

// subtree finds the asked directory in the commit's tree, resolving
// symlinks among its components inside the repository only.
func subtree(root *object.Tree, p string) (*object.Tree, error) {
	if p == "" {
		return root, nil
	}
	parts := strings.Split(p, "/")
	cur := []string{}
	hops := 0
	for i := 0; i < len(parts); i++ {
		part := parts[i]
		switch part {
		case "", ".":
			continue
		case "..":
			if len(cur) == 0 {
				return nil, fmt.Errorf("directory %q %w", p, resolve.ErrEscapes)
			}
			cur = cur[:len(cur)-1]
			continue
		}
		dir := root
		if len(cur) > 0 {
			var err error
			if dir, err = root.Tree(strings.Join(cur, "/")); err != nil {
				return nil, fmt.Errorf("no directory %q in the repository", p)
			}
		}
		e, err := dir.FindEntry(part)
		if err != nil {
			return nil, fmt.Errorf("no directory %q in the repository", p)
		}
		switch e.Mode {
		case filemode.Dir:
			cur = append(cur, part)
		case filemode.Symlink:
			hops++
			if hops > maxSymlinkHops {
				return nil, fmt.Errorf("directory %q: too many symlinks", p)
			}
			blob, err := dir.File(part)
			if err != nil {
				return nil, err
			}
			target, err := blob.Contents()
			if err != nil {
				return nil, err
			}
			if path.IsAbs(target) {
				return nil, fmt.Errorf("directory %q is a symlink to %s, which %w", p, target, resolve.ErrEscapes)
			}
			// Continue from the link's own directory with its target's parts.
			rest := append(strings.Split(target, "/"), parts[i+1:]...)
			parts = append(append([]string{}, parts[:i+1]...), rest...)
		default:
			return nil, fmt.Errorf("%q in the repository is not a directory", p)
		}
	}
	if len(cur) == 0 {
		return root, nil
	}
	return root.Tree(strings.Join(cur, "/"))
}

// writeTree writes a tree's files below dir: regular and executable files
// with their mode, symlinks as symlinks (never followed; the inventory
// judges them); submodules are not files and are skipped.
func writeTree(ctx context.Context, tree *object.Tree, dir string) error {
	var total int64
	files := 0
	return tree.Files().ForEach(func(f *object.File) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !filepath.IsLocal(f.Name) {
			return fmt.Errorf("tree entry %q %w", f.Name, resolve.ErrEscapes)
		}
		files++
		if files > resolve.DefaultMaxFiles {
			return fmt.Errorf("more than %d files", resolve.DefaultMaxFiles)
		}
		total += f.Size
		if total > MaxCheckoutBytes {
			return fmt.Errorf("%w: the checkout passes %d bytes", resolve.ErrTooLarge, MaxCheckoutBytes)
		}
		dst := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		switch f.Mode {
		case filemode.Symlink:
			target, err := f.Contents()
			if err != nil {
				return err
			}
			return os.Symlink(target, dst)
		case filemode.Executable:
			return writeBlob(f, dst, 0o755)
		case filemode.Regular, filemode.Deprecated:
			return writeBlob(f, dst, 0o644)
		}
		return nil
	})
}

func writeBlob(f *object.File, dst string, mode os.FileMode) error {
	r, err := f.Reader()
	if err != nil {
		return err
	}
	defer r.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, io.LimitReader(r, MaxCheckoutBytes)); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// unpack parses a packfile from the server into st. The packfile is
// untrusted input: a parser panic becomes an error, not a crash.
func unpack(st *memory.Storage, r io.Reader) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the server sent a packfile that could not be parsed: %v", p)
		}
	}()
	return packfile.UpdateObjectStorage(st, r)
}
