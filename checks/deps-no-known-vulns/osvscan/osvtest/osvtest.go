// Package osvtest is a fake OSV API for tests.
package osvtest

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
)

// FakeOSV is an OSV API stand-in for tests: it answers /v1/querybatch and
// /v1/vulns/{id} in the real wire format (proto JSON field names), from a
// table of advisories. A package with more than one advisory is answered
// one advisory a page, so clients must follow next_page_token.
type FakeOSV struct {
	// Advisories by id, as OSV serves them.
	Advisories map[string]map[string]any
	// Affects maps "ecosystem/name@version" to advisory ids.
	Affects map[string][]string

	mu       sync.Mutex
	Requests []string // "METHOD path" in arrival order
}

func (f *FakeOSV) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.Requests = append(f.Requests, r.Method+" "+r.URL.Path)
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/querybatch":
		var req struct {
			Queries []struct {
				Package struct {
					Name      string `json:"name"`
					Ecosystem string `json:"ecosystem"`
				} `json:"package"`
				Version    string `json:"version"`
				PageToken  string `json:"pageToken"`
				PageToken2 string `json:"page_token"`
			} `json:"queries"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Queries) > 1000 {
			http.Error(w, `{"code":3,"message":"invalid request"}`, http.StatusBadRequest)
			return
		}
		results := make([]map[string]any, len(req.Queries))
		for i, q := range req.Queries {
			ids := f.Affects[q.Package.Ecosystem+"/"+q.Package.Name+"@"+q.Version]
			page := 0
			if tok := q.PageToken + q.PageToken2; tok != "" {
				page = int(tok[0] - '0')
			}
			res := map[string]any{}
			if page < len(ids) {
				res["vulns"] = []map[string]any{{"id": ids[page], "modified": "2026-01-01T00:00:00Z"}}
				if page+1 < len(ids) {
					res["next_page_token"] = string(rune('0' + page + 1))
				}
			}
			results[i] = res
		}
		json.NewEncoder(w).Encode(map[string]any{"results": results})
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v1/vulns/"):
		a, ok := f.Advisories[strings.TrimPrefix(r.URL.Path, "/v1/vulns/")]
		if !ok {
			http.Error(w, `{"code":5,"message":"Bug not found."}`, http.StatusNotFound)
			return
		}
		json.NewEncoder(w).Encode(a)
	default:
		http.Error(w, `{"code":5,"message":"not found"}`, http.StatusNotFound)
	}
}

// Advisory builds an advisory affecting one package, with a CVSS vector
// (or none) and a fixed version.
func Advisory(id, ecosystem, name, vector, fixed string) map[string]any {
	a := map[string]any{
		"id": id, "modified": "2026-01-01T00:00:00Z", "summary": "test advisory " + id,
		"affected": []map[string]any{{
			"package": map[string]any{"ecosystem": ecosystem, "name": name},
			"ranges":  []map[string]any{{"type": "ECOSYSTEM", "events": []map[string]any{{"introduced": "0"}, {"fixed": fixed}}}},
		}},
	}
	if vector != "" {
		typ := "CVSS_V3"
		if strings.HasPrefix(vector, "CVSS:4.0") {
			typ = "CVSS_V4"
		}
		a["severity"] = []map[string]any{{"type": typ, "score": vector}}
	}
	return a
}
