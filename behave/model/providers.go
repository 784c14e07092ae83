package model

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Vendor is one provider attest knows how to call.
type Vendor struct {
	Name         string
	KeyEnv       string
	BaseEnv      string
	DefaultBase  string
	DefaultModel string
}

// Vendors are the providers, in the order they are described.
var Vendors = []Vendor{
	{"anthropic", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "https://api.anthropic.com", "claude-sonnet-4-5"},
	{"openai", "OPENAI_API_KEY", "OPENAI_BASE_URL", "https://api.openai.com/v1", "gpt-4.1"},
	{"openai-responses", "OPENAI_API_KEY", "OPENAI_BASE_URL", "https://api.openai.com/v1", "gpt-4.1"},
	{"openrouter", "OPENROUTER_API_KEY", "OPENROUTER_BASE_URL", "https://openrouter.ai/api/v1", "anthropic/claude-sonnet-4.5"},
	{"local", "LOCAL_LLM_API_KEY", "LOCAL_LLM_BASE_URL", "", "local"},
}

// VendorNamed finds a vendor.
func VendorNamed(name string) (Vendor, bool) {
	for _, v := range Vendors {
		if v.Name == name {
			return v, true
		}
	}
	return Vendor{}, false
}

// Settings choose a provider and models. Empty fields take their defaults.
type Settings struct {
	Provider   string `json:"provider,omitempty"`
	Model      string `json:"model,omitempty"`
	JudgeModel string `json:"judgeModel,omitempty"`
	Key        string `json:"apiKey,omitempty"`
	BaseURL    string `json:"baseUrl,omitempty"`
}

// ErrNoProvider says no model is configured.
var ErrNoProvider = errors.New("no model provider is configured: run 'attest setup', or set one of ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENROUTER_API_KEY or LOCAL_LLM_BASE_URL")

// Resolve settles the provider, key, base URL and models: flags (flag),
// then the environment, then the saved configuration (saved). Several
// provider keys in the environment and no provider named is refused: a
// run never picks whose account to spend.
func Resolve(flag, saved Settings, getenv func(string) string) (Settings, error) {
	s := saved
	if flag.Provider != "" && flag.Provider != saved.Provider {
		s = Settings{}
	}
	if flag.Provider != "" {
		s.Provider = flag.Provider
	} else {
		var set []string
		for _, v := range Vendors {
			if v.Name == "openai-responses" {
				continue
			}
			if (v.Name == "local" && getenv(v.BaseEnv) != "") || (v.Name != "local" && getenv(v.KeyEnv) != "") {
				set = append(set, v.Name)
			}
		}
		switch {
		case len(set) > 1:
			return Settings{}, fmt.Errorf("several model providers are set in the environment (%s): choose one with --provider", strings.Join(set, ", "))
		case len(set) == 1 && set[0] != saved.Provider:
			s = Settings{Provider: set[0]}
		case len(set) == 0 && saved.Provider == "":
			return Settings{}, ErrNoProvider
		}
	}
	v, ok := VendorNamed(s.Provider)
	if !ok {
		return Settings{}, fmt.Errorf("unknown provider %q (one of anthropic, openai, openai-responses, openrouter, local)", s.Provider)
	}
	if k := getenv(v.KeyEnv); k != "" {
		s.Key = k
	}
	if b := getenv(v.BaseEnv); b != "" {
		s.BaseURL = b
	}
	if s.BaseURL == "" {
		s.BaseURL = v.DefaultBase
	}
	if v.Name == "local" {
		if m := getenv("LOCAL_LLM_MODEL"); m != "" && s.Model == "" {
			s.Model = m
		}
		if s.BaseURL == "" {
			return Settings{}, errors.New("the local provider needs LOCAL_LLM_BASE_URL (an OpenAI-compatible endpoint, e.g. http://localhost:11434/v1)")
		}
	} else if s.Key == "" {
		return Settings{}, fmt.Errorf("the %s provider needs an API key: set %s or run 'attest setup'", v.Name, v.KeyEnv)
	}
	if flag.Model != "" {
		s.Model = flag.Model
	}
	if flag.JudgeModel != "" {
		s.JudgeModel = flag.JudgeModel
	}
	if s.Model == "" {
		s.Model = v.DefaultModel
	}
	return s, nil
}

// New makes a client for a model of the settled provider.
func New(s Settings, modelID string, hc *http.Client, retry Retry) (Client, error) {
	if modelID == "" {
		modelID = s.Model
	}
	switch s.Provider {
	case "anthropic":
		return &Anthropic{BaseURL: s.BaseURL, Key: s.Key, ModelID: modelID, HTTP: hc, Retry: retry}, nil
	case "openai-responses":
		return &OpenAIResponses{BaseURL: s.BaseURL, Key: s.Key, ModelID: modelID, HTTP: hc, Retry: retry}, nil
	case "openai", "openrouter", "local":
		return &OpenAIChat{Name: s.Provider, BaseURL: s.BaseURL, Key: s.Key, ModelID: modelID, HTTP: hc, Retry: retry}, nil
	}
	return nil, fmt.Errorf("unknown provider %q", s.Provider)
}

// CheckKey asks the provider to list its models with the key: ErrAuth when
// the key is refused, another error when the provider could not say (a
// 5xx, a network failure), nil when it answered.
func CheckKey(ctx context.Context, s Settings, hc *http.Client) error {
	if hc == nil {
		hc = &http.Client{Timeout: 20 * time.Second}
	}
	url := strings.TrimSuffix(s.BaseURL, "/") + "/models"
	if s.Provider == "anthropic" {
		url = strings.TrimSuffix(s.BaseURL, "/") + "/v1/models"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	if s.Provider == "anthropic" {
		req.Header.Set("x-api-key", s.Key)
		req.Header.Set("anthropic-version", "2023-06-01")
	} else if s.Key != "" {
		req.Header.Set("Authorization", "Bearer "+s.Key)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("could not reach %s: %w", url, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return fmt.Errorf("%w (HTTP %d from %s): %s", ErrAuth, resp.StatusCode, url, snippet(body))
	case resp.StatusCode/100 != 2:
		return fmt.Errorf("%s answered HTTP %d: the key could not be checked", url, resp.StatusCode)
	}
	return nil
}
