package e2b

import (
	"bytes"
	"io"
	"testing"
)

// FuzzEvents reads a Connect stream of process events as the VM sends it
// (what the artifact prints is inside): bounded, never a panic.
func FuzzEvents(f *testing.F) {
	var seed bytes.Buffer
	seed.Write(envelope(0, []byte(`{"event":{"start":{"pid":7}}}`)))
	seed.Write(envelope(0, []byte(`{"event":{"data":{"stdout":"aGk="}}}`)))
	seed.Write(envelope(0, []byte(`{"event":{"keepalive":{}}}`)))
	seed.Write(envelope(0, []byte(`{"event":{"end":{"exitCode":3,"exited":true}}}`)))
	seed.Write(envelope(2, []byte(`{"error":{"code":"internal","message":"x"}}`)))
	f.Add(seed.Bytes())
	f.Add([]byte{0, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		p := &proc{body: io.NopCloser(bytes.NewReader(data))}
		for i := 0; i < 1000; i++ {
			if _, end, err := p.next(); end || err != nil {
				return
			}
		}
	})
}
