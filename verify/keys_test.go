package verify

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
)

// repeatedByTokens is the reference: encoding/json's token walk, each key
// compared with strings.EqualFold to the keys before it in its object.
// deep says the nesting passed maxDepth.
func repeatedByTokens(data []byte) (repeated, deep bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		obj     bool
		keys    []string
		reading bool
	}
	var stack []*frame
	for {
		t, err := dec.Token()
		if err == io.EOF || err != nil {
			return false, false
		}
		if n := len(stack); n > 0 && stack[n-1].obj && !stack[n-1].reading {
			f := stack[n-1]
			if t == json.Delim('}') {
				stack = stack[:n-1]
				if n > 1 && stack[n-2].obj {
					stack[n-2].reading = false
				}
				continue
			}
			k := t.(string)
			for _, p := range f.keys {
				if strings.EqualFold(p, k) {
					return true, false
				}
			}
			f.keys, f.reading = append(f.keys, k), true
			continue
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			if len(stack) == maxDepth {
				return false, true
			}
			stack = append(stack, &frame{obj: t == json.Delim('{')})
			continue
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if n := len(stack); n > 0 && stack[n-1].obj {
			stack[n-1].reading = false
		}
	}
}

func TestRepeatedKey(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":1,"b":{"a":2},"c":[{"a":1},{"a":2}]}`: "",
		`{"a":1,"a":2}`:                      `key "a" appears twice in $`,
		`{"x":[{"y":1},{"y":1,"y":2}]}`:      `key "y" appears twice in $.x[1]`,
		`{"a":1,"\u0061":2}`:                 `key "a" appears twice in $`,
		`{"Score":1,"score":2}`:              `key "score" appears twice in $ (as "Score" and "score"`,
		`{"\u212a":1,"k":2}`:                 `appears twice`, // the Kelvin sign folds to k
		`{"s":{"t":"\"a\":1,\"a\":"},"a":1}`: "",
		`{"a":"x", "b" : {"c":1}, "b" : 2}`:  `key "b" appears twice in $`,
		`[1,{"a":1},"a","a"]`:                "",
		`{"a":1,`:                            "unexpected end of JSON input",
	} {
		err := repeatedKey([]byte(in))
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
	deep := strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1)
	if err := repeatedKey([]byte(deep)); err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Errorf("depth: %v", err)
	}
	for _, f := range []string{"skill-pass", "mcp-typescript", "skill-waived"} {
		b, _ := os.ReadFile("../testdata/report/" + f + ".json")
		if err := repeatedKey(b); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// FuzzRepeatedKey: the scanner never panics, and on valid JSON it finds a
// repeated key exactly when encoding/json's token walk does.
func FuzzRepeatedKey(f *testing.F) {
	f.Add([]byte(`{"subject":{"name":"x","digest":{"sha256":"00"}},"results":[{"check":"a","status":"pass"}],"score":{"overall":9.5}}`))
	f.Add([]byte(`{"a":1,"A":[{"b":"\"b\":"},{"b":1,"B":2}]}`))
	f.Add([]byte(`{"\u00df":1,"\u1e9e":2,"s\u017f":3}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		err := repeatedKey(data)
		if !json.Valid(data) {
			if err == nil {
				t.Fatalf("accepted invalid JSON %q", data)
			}
			return
		}
		repeated, deep := repeatedByTokens(data)
		if deep {
			if err == nil {
				t.Fatalf("accepted nesting past %d", maxDepth)
			}
			return
		}
		if repeated != (err != nil) {
			t.Fatalf("%q: scanner %v, token walk repeated=%v", data, err, repeated)
		}
	})
}
