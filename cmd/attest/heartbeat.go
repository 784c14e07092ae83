package main

import (
	"fmt"
	"io"
	"time"
)

// heartbeatEvery is how long a wait goes before attest says it is still
// working.
const heartbeatEvery = 15 * time.Second

// heartbeat writes "attest: still <what> (45 s)" to w every interval until
// stop is called, so a CI log shows a long fetch, lookup or behavioral run
// is alive. It writes nothing for a wait shorter than interval.
func heartbeat(w io.Writer, what string, interval time.Duration) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(finished)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				fmt.Fprintf(w, "attest: still %s (%.0f s)\n", what, now.Sub(start).Seconds())
			}
		}
	}()
	return func() { close(done); <-finished }
}
