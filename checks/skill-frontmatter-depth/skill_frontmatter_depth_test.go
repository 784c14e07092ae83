package skillfrontmatterdepth_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	skillfrontmatterdepth "github.com/metahub-ai/attest/checks/skill-frontmatter-depth"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, skillfrontmatterdepth.Check, "testdata") }
