package behave

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/metahub-ai/attest/resolve"
)

// UserConfig is what 'attest setup' saves (~/.attest/config.json, mode
// 0600): the sandbox and the model to use. Environment variables always
// win over it.
type UserConfig struct {
	Sandbox    string `json:"sandbox"`
	Provider   string `json:"provider"`
	Model      string `json:"model,omitempty"`
	JudgeModel string `json:"judgeModel,omitempty"`
	APIKey     string `json:"apiKey,omitempty"`
	BaseURL    string `json:"baseUrl,omitempty"`
}

// UserConfigPath is $ATTEST_HOME/config.json, or ~/.attest/config.json.
func UserConfigPath() (string, error) {
	if d := os.Getenv("ATTEST_HOME"); d != "" {
		return filepath.Join(d, "config.json"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no home directory for ~/.attest/config.json (set ATTEST_HOME): %w", err)
	}
	return filepath.Join(home, ".attest", "config.json"), nil
}

// LoadUserConfig reads the saved configuration; ok is false when setup
// has not been run.
func LoadUserConfig(path string) (cfg UserConfig, ok bool, err error) {
	f, err := resolve.OpenFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return cfg, false, nil
	}
	if err != nil {
		return cfg, false, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return cfg, false, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return cfg, false, fmt.Errorf("%s: %v (run 'attest setup' again)", path, err)
	}
	return cfg, true, nil
}

// SaveUserConfig writes the configuration with mode 0600 (it may hold an
// API key), replacing any earlier one atomically.
func SaveUserConfig(path string, cfg UserConfig) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	data, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".config-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
