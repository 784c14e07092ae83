package behave

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// MaxTranscript bounds a stored transcript as read.
const MaxTranscript = 32 << 20

// ParseTranscript reads a stored transcript and checks it is the canonical
// form of itself with the digest it was stored under: a file edited by
// hand, even to something that means the same, does not pass.
func ParseTranscript(data []byte, want string) (*Transcript, error) {
	if len(data) > MaxTranscript {
		return nil, fmt.Errorf("over %d bytes", MaxTranscript)
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); want != "" && got != want {
		return nil, fmt.Errorf("%w: its sha256 is %s, the report says %s", ErrTampered, got, want)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var t Transcript
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("not a transcript: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("not a transcript: data after the object")
	}
	if t.Schema != TranscriptSchema {
		return nil, fmt.Errorf("not a transcript: schema %q", t.Schema)
	}
	canon, _, err := t.Canonical()
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(canon, data) {
		return nil, fmt.Errorf("%w: it is not in canonical form", ErrTampered)
	}
	return &t, nil
}

// ErrTampered says a transcript is not what the report recorded.
var ErrTampered = errors.New("the transcript was altered")
