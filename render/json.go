package render

import (
	"encoding/json"
	"io"

	"github.com/metahub-ai/attest/attest"
)

func renderJSON(w io.Writer, r *attest.Report) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
