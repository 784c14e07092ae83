package main

import (
	"bytes"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/metahub-ai/attest/attest"
)

func validateReport(data []byte) error {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(attest.Schema))
	if err != nil {
		return err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("report.schema.json", doc); err != nil {
		return err
	}
	s, err := c.Compile("report.schema.json")
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return s.Validate(v)
}
