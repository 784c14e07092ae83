// Package ledger holds the record of one network exchange, shared by the
// allow-listed client that writes it and the reports that carry it; it
// imports nothing, so light packages can name it.
package ledger

// Exchange is one request and a digest of its response.
type Exchange struct {
	Method string `json:"method"`
	URL    string `json:"url"`
	Status int    `json:"status,omitempty"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256,omitempty"`
	Error  string `json:"error,omitempty"`
}
