package harness

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/metahub-ai/attest/behave"
	"github.com/metahub-ai/attest/behave/model"
)

// Replayed is the outcome for one stored run.
type Replayed struct {
	Case       string `json:"case"`
	Transcript string `json:"transcript"`
	// Status: agrees, disagrees, tampered, missing, error.
	Status   string   `json:"status"`
	Detail   string   `json:"detail,omitempty"`
	Recorded *bool    `json:"recordedPass"`
	Now      *bool    `json:"pass"`
	Score    *float64 `json:"score,omitempty"`
}

// Replay statuses.
const (
	Agrees    = "agrees"
	Disagrees = "disagrees"
	Tampered  = "tampered"
	Missing   = "missing"
	Failed    = "error"
)

// Replay re-hashes every stored transcript a behavioral observation names
// and re-judges each graded run with judge. ok is false when a transcript
// is missing or altered, or a verdict differs.
func Replay(ctx context.Context, obs *behave.Observation, dir string, judge *model.Role) (out []Replayed, ok bool) {
	ok = true
	load := func(sum string) (*behave.Transcript, string, string) {
		data, err := readBounded(filepath.Join(dir, sum+".json"))
		if errors.Is(err, os.ErrNotExist) {
			return nil, Missing, "no file " + sum + ".json in " + dir
		}
		if err != nil {
			return nil, Failed, err.Error()
		}
		t, err := behave.ParseTranscript(data, sum)
		if errors.Is(err, behave.ErrTampered) {
			return nil, Tampered, err.Error()
		}
		if err != nil {
			return nil, Tampered, err.Error()
		}
		return t, "", ""
	}
	for _, c := range obs.Cases {
		for _, run := range c.Runs {
			r := Replayed{Case: c.ID, Transcript: run.Transcript, Recorded: run.Pass}
			if run.Transcript == "" {
				continue
			}
			t, status, detail := load(run.Transcript)
			if t == nil {
				r.Status, r.Detail, ok = status, detail, false
				out = append(out, r)
				continue
			}
			g := Judge(ctx, judge, t)
			r.Now, r.Score = g.pass, g.score
			switch {
			case g.err != "" && run.Pass == nil:
				r.Status, r.Detail = Agrees, "ungraded then and now: "+g.err
			case g.err != "":
				r.Status, r.Detail, ok = Failed, g.err, false
			case run.Pass == nil:
				r.Status, r.Detail, ok = Disagrees, "ungraded when recorded ("+run.Error+"), graded now", false
			case *run.Pass != *g.pass:
				r.Status, r.Detail, ok = Disagrees, fmt.Sprintf("recorded pass=%v (score %.3f), now pass=%v (score %.3f)", *run.Pass, deref(run.Score), *g.pass, *g.score), false
			default:
				r.Status = Agrees
			}
			out = append(out, r)
		}
	}
	for _, p := range obs.Probes {
		if p.Transcript == "" {
			continue
		}
		r := Replayed{Case: "probe:" + p.ID, Transcript: p.Transcript, Status: Agrees, Detail: "probe outcomes are deterministic; the transcript is re-hashed, not re-judged"}
		if t, status, detail := load(p.Transcript); t == nil {
			r.Status, r.Detail, ok = status, detail, false
		}
		out = append(out, r)
	}
	return out, ok
}

func deref(f *float64) float64 {
	if f == nil {
		return 0
	}
	return *f
}

func readBounded(p string) ([]byte, error) {
	st, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", p)
	}
	if st.Size() > behave.MaxTranscript {
		return nil, fmt.Errorf("%s is over %d bytes", p, behave.MaxTranscript)
	}
	return os.ReadFile(p)
}
