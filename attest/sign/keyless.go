package sign

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"time"

	v1 "github.com/in-toto/attestation/go/v1"
	prototrustroot "github.com/sigstore/protobuf-specs/gen/pb-go/trustroot/v1"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/sign"
	"github.com/sigstore/sigstore/pkg/oauthflow"

	"github.com/metahub-ai/attest/resolve"
)

// Signing says how a statement is signed: with a publisher key, or keyless
// (an ephemeral key certified for an OIDC identity), and where it is
// timestamped and logged.
type Signing struct {
	// Key is the publisher's key; nil signs keyless.
	Key crypto.Signer
	// IDToken is the OIDC identity token a keyless signature is
	// certified for.
	IDToken string
	// Config names the certificate authority, timestamp authorities and
	// logs (a Sigstore signing_config.json). Keyless signing needs it; a
	// key signature uses its timestamp authorities and logs when given.
	Config *root.SigningConfig
	// Log is a Rekor v2 log URL to log a key signature in (--log).
	Log string
	// Timeout bounds each request to a Sigstore service.
	Timeout time.Duration
}

// ErrEd25519Log explains why a pure ed25519 signature cannot be logged.
var ErrEd25519Log = errors.New("a Rekor v2 log records a DSSE signature as a hashedrekord over the digest of its PAE and accepts no pure ed25519 signature, and a DSSE verifier accepts no pre-hashed ed25519ph one: sign with an ECDSA P-256 key to log (attest keygen --algorithm ecdsa-p256), or sign without a log")

// PublicGood is the signing configuration of Sigstore's public-good
// instance: Fulcio, its OIDC provider, Rekor and the timestamp authority.
func PublicGood() *root.SigningConfig {
	svc := func(u string) root.Service {
		return root.Service{URL: u, MajorAPIVersion: 1, ValidityPeriodStart: time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC)}
	}
	anySvc := root.ServiceConfiguration{Selector: prototrustroot.ServiceSelector_ANY}
	sc, _ := root.NewSigningConfig(root.SigningConfigMediaType02,
		[]root.Service{svc("https://fulcio.sigstore.dev")},
		[]root.Service{svc("https://oauth2.sigstore.dev/auth")},
		[]root.Service{svc("https://rekor.sigstore.dev")}, anySvc,
		[]root.Service{svc("https://timestamp.sigstore.dev/api/v1/timestamp")}, anySvc)
	return sc
}

// ReadSigningConfig reads a signing_config.json (media type v0.2).
func ReadSigningConfig(p string) (*root.SigningConfig, error) {
	b, err := resolve.ReadFileMax(p, 1<<20)
	if err != nil {
		return nil, err
	}
	sc, err := root.NewSigningConfigFromJSON(b)
	if err != nil {
		return nil, fmt.Errorf("%s: not a Sigstore signing config: %w", p, err)
	}
	return sc, nil
}

// SignStatement signs a statement as s says.
func SignStatement(ctx context.Context, st *v1.Statement, s Signing) ([]byte, error) {
	opts, err := s.services()
	if err != nil {
		return nil, err
	}
	if s.Key != nil {
		if _, ok := s.Key.(ed25519.PrivateKey); ok && len(opts.TransparencyLogs) > 0 {
			return nil, ErrEd25519Log
		}
		return signStatement(ctx, st, s.Key, opts, false)
	}
	if s.IDToken == "" {
		return nil, errors.New("keyless signing needs an OIDC identity token (SIGSTORE_ID_TOKEN, GitHub Actions' id-token permission, or a terminal to log in on)")
	}
	fulcios, err := pick(s.Config.FulcioCertificateAuthorityURLs(), sign.FulcioAPIVersions, "certificate authority")
	if err != nil {
		return nil, err
	}
	opts.CertificateProvider = sign.NewFulcio(&sign.FulcioOptions{BaseURL: fulcios.URL, Timeout: s.timeout()})
	opts.CertificateProviderOptions = &sign.CertificateProviderOptions{IDToken: s.IDToken}
	if len(opts.TimestampAuthorities) == 0 && len(opts.TransparencyLogs) == 0 {
		return nil, errors.New("the signing config names no timestamp authority and no log: nothing would vouch that the short-lived certificate was valid when it signed")
	}
	for _, l := range opts.TransparencyLogs {
		if r, ok := l.(*rekor); ok && r.version == 2 && len(opts.TimestampAuthorities) == 0 {
			return nil, errors.New("a keyless signature logged in Rekor v2 needs a timestamp authority (Rekor v2 entries carry no time); the signing config names none")
		}
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	return signStatement(ctx, st, key, opts, true)
}

// SignReport builds a report's statement and signs it as s says.
func SignReport(ctx context.Context, report []byte, s Signing) ([]byte, error) {
	st, err := Statement(report)
	if err != nil {
		return nil, err
	}
	return SignStatement(ctx, st, s)
}

func (s Signing) timeout() time.Duration {
	if s.Timeout > 0 {
		return s.Timeout
	}
	return 30 * time.Second
}

// rekor remembers a log's API version for the checks above.
type rekor struct {
	*sign.Rekor
	version uint32
}

// services turns the signing config and --log into sigstore-go options.
func (s Signing) services() (sign.BundleOptions, error) {
	var o sign.BundleOptions
	now := time.Now()
	if s.Config == nil && s.Key == nil {
		return o, errors.New("keyless signing needs a signing config")
	}
	if s.Config != nil {
		tsas, err := root.SelectServices(s.Config.TimestampAuthorityURLs(), s.Config.TimestampAuthorityURLsConfig(), sign.TimestampAuthorityAPIVersions, now)
		if err != nil && len(s.Config.TimestampAuthorityURLs()) > 0 {
			return o, fmt.Errorf("signing config: timestamp authorities: %w", err)
		}
		for _, t := range tsas {
			o.TimestampAuthorities = append(o.TimestampAuthorities, sign.NewTimestampAuthority(&sign.TimestampAuthorityOptions{URL: t.URL, Timeout: s.timeout()}))
		}
		logs, err := root.SelectServices(s.Config.RekorLogURLs(), s.Config.RekorLogURLsConfig(), sign.RekorAPIVersions, now)
		if err != nil && len(s.Config.RekorLogURLs()) > 0 {
			return o, fmt.Errorf("signing config: logs: %w", err)
		}
		for _, l := range logs {
			o.TransparencyLogs = append(o.TransparencyLogs, &rekor{sign.NewRekor(&sign.RekorOptions{BaseURL: l.URL, Version: l.MajorAPIVersion, Timeout: s.timeout()}), l.MajorAPIVersion})
		}
	}
	if s.Log != "" {
		u, err := url.Parse(s.Log)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return o, fmt.Errorf("--log %q: not an http(s) URL of a Rekor v2 log", s.Log)
		}
		o.TransparencyLogs = append(o.TransparencyLogs, &rekor{sign.NewRekor(&sign.RekorOptions{BaseURL: s.Log, Version: 2, Timeout: s.timeout()}), 2})
	}
	return o, nil
}

func pick(services []root.Service, versions []uint32, what string) (root.Service, error) {
	svc, err := root.SelectService(services, versions, time.Now())
	if err != nil {
		return svc, fmt.Errorf("the signing config names no usable %s: %w", what, err)
	}
	return svc, nil
}

// Token sources, in the order IDToken tries them.
const (
	EnvIDToken         = "SIGSTORE_ID_TOKEN"
	envActionsTokenURL = "ACTIONS_ID_TOKEN_REQUEST_URL"
	envActionsToken    = "ACTIONS_ID_TOKEN_REQUEST_TOKEN"
)

// TokenOptions say where an interactive login goes.
type TokenOptions struct {
	// Issuer is the OIDC provider for an interactive login (the signing
	// config's).
	Issuer string
	// Interactive allows a browser login (a terminal is attached).
	Interactive bool
	// Output is where the login URL is shown.
	Output io.Writer
	// OpenBrowser opens the login URL; nil uses the system's browser.
	OpenBrowser func(url string) error
}

// IDToken finds the OIDC identity token for keyless signing: the
// SIGSTORE_ID_TOKEN environment variable, then GitHub Actions' token
// service (a job with id-token: write), then an interactive login.
func IDToken(ctx context.Context, o TokenOptions) (string, error) {
	if t := os.Getenv(EnvIDToken); t != "" {
		return t, nil
	}
	if u, t := os.Getenv(envActionsTokenURL), os.Getenv(envActionsToken); u != "" && t != "" {
		return actionsToken(ctx, u, t)
	}
	if !o.Interactive {
		return "", errors.New("no OIDC identity token: set " + EnvIDToken + ", run in GitHub Actions with 'permissions: id-token: write', or sign from a terminal to log in")
	}
	if o.Issuer == "" {
		return "", errors.New("the signing config names no OIDC provider to log in with")
	}
	g := &oauthflow.InteractiveIDTokenGetter{HTMLPage: oauthflow.DefaultIDTokenGetter.HTMLPage, Output: o.Output, BrowserOpener: o.OpenBrowser}
	tok, err := oauthflow.OIDConnect(o.Issuer, "sigstore", "", "", g)
	if err != nil {
		return "", fmt.Errorf("logging in at %s: %w", o.Issuer, err)
	}
	return tok.RawString, nil
}

// actionsToken asks GitHub Actions' token service for a token whose
// audience is sigstore.
func actionsToken(ctx context.Context, reqURL, bearer string) (string, error) {
	u, err := url.Parse(reqURL)
	if err != nil {
		return "", fmt.Errorf("%s: %w", envActionsTokenURL, err)
	}
	q := u.Query()
	q.Set("audience", "sigstore")
	u.RawQuery = q.Encode()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+bearer)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("GitHub Actions' token service: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("GitHub Actions' token service answered %s (does the job have 'permissions: id-token: write'?)", resp.Status)
	}
	var v struct {
		Value string `json:"value"`
	}
	if err := json.Unmarshal(body, &v); err != nil || v.Value == "" {
		return "", errors.New("GitHub Actions' token service gave no token")
	}
	return v.Value, nil
}

// OIDCIssuer is the signing config's OIDC provider, or "".
func OIDCIssuer(sc *root.SigningConfig) string {
	if sc == nil {
		return ""
	}
	svc, err := root.SelectService(sc.OIDCProviderURLs(), []uint32{1}, time.Now())
	if err != nil {
		return ""
	}
	return svc.URL
}
