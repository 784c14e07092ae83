package suite

import (
	"sync"

	"github.com/metahub-ai/attest/checks"
	agentinstructions "github.com/metahub-ai/attest/checks/agent-instructions"
	agentshapedeclared "github.com/metahub-ai/attest/checks/agent-shape-declared"
	agenttoolscope "github.com/metahub-ai/attest/checks/agent-tool-scope"
	behavesasdocumented "github.com/metahub-ai/attest/checks/behaves-as-documented"
	behavessafely "github.com/metahub-ai/attest/checks/behaves-safely"
	ciconfigured "github.com/metahub-ai/attest/checks/ci-configured"
	declaredfilesexist "github.com/metahub-ai/attest/checks/declared-files-exist"
	depsbounded "github.com/metahub-ai/attest/checks/deps-bounded"
	depsnoknownvulns "github.com/metahub-ai/attest/checks/deps-no-known-vulns"
	depsnottyposquatted "github.com/metahub-ai/attest/checks/deps-not-typosquatted"
	descriptionquality "github.com/metahub-ai/attest/checks/description-quality"
	documentationpresent "github.com/metahub-ai/attest/checks/documentation-present"
	entryresolves "github.com/metahub-ai/attest/checks/entry-resolves"
	homepagedeclared "github.com/metahub-ai/attest/checks/homepage-declared"
	licensepresent "github.com/metahub-ai/attest/checks/license-present"
	lockfilepresent "github.com/metahub-ai/attest/checks/lockfile-present"
	manifestpresent "github.com/metahub-ai/attest/checks/manifest-present"
	mcpauthposture "github.com/metahub-ai/attest/checks/mcp-auth-posture"
	mcpconfigsafe "github.com/metahub-ai/attest/checks/mcp-config-safe"
	mcplaunchable "github.com/metahub-ai/attest/checks/mcp-launchable"
	mcpmetadatanotconcealed "github.com/metahub-ai/attest/checks/mcp-metadata-not-concealed"
	mcpmoduletype "github.com/metahub-ai/attest/checks/mcp-module-type"
	mcppromptsnotpoisoned "github.com/metahub-ai/attest/checks/mcp-prompts-not-poisoned"
	mcpresourcesnotpoisoned "github.com/metahub-ai/attest/checks/mcp-resources-not-poisoned"
	mcpsdkpinned "github.com/metahub-ai/attest/checks/mcp-sdk-pinned"
	mcpsurfacedescribed "github.com/metahub-ai/attest/checks/mcp-surface-described"
	mcpsurfacestable "github.com/metahub-ai/attest/checks/mcp-surface-stable"
	mcpsurfacewellformed "github.com/metahub-ai/attest/checks/mcp-surface-well-formed"
	mcptooldescriptions "github.com/metahub-ai/attest/checks/mcp-tool-descriptions"
	mcptoolsnotpoisoned "github.com/metahub-ai/attest/checks/mcp-tools-not-poisoned"
	mcptoolsnotshadowing "github.com/metahub-ai/attest/checks/mcp-tools-not-shadowing"
	namedeclared "github.com/metahub-ai/attest/checks/name-declared"
	noassembledcredentials "github.com/metahub-ai/attest/checks/no-assembled-credentials"
	nobundledbinaries "github.com/metahub-ai/attest/checks/no-bundled-binaries"
	nocryptomining "github.com/metahub-ai/attest/checks/no-cryptomining"
	nodefenceevasion "github.com/metahub-ai/attest/checks/no-defence-evasion"
	nodestruction "github.com/metahub-ai/attest/checks/no-destruction"
	nodownloadandrun "github.com/metahub-ai/attest/checks/no-download-and-run"
	nodynamiccodeexecution "github.com/metahub-ai/attest/checks/no-dynamic-code-execution"
	noescapingsymlinks "github.com/metahub-ai/attest/checks/no-escaping-symlinks"
	noexposedpii "github.com/metahub-ai/attest/checks/no-exposed-pii"
	nohardcodedsecrets "github.com/metahub-ai/attest/checks/no-hardcoded-secrets"
	nohiddeninstructions "github.com/metahub-ai/attest/checks/no-hidden-instructions"
	nohiddenrecipients "github.com/metahub-ai/attest/checks/no-hidden-recipients"
	nohiddenunicode "github.com/metahub-ai/attest/checks/no-hidden-unicode"
	noinstallscripts "github.com/metahub-ai/attest/checks/no-install-scripts"
	noinstructioninjection "github.com/metahub-ai/attest/checks/no-instruction-injection"
	noobfuscatedpayloads "github.com/metahub-ai/attest/checks/no-obfuscated-payloads"
	nopersistence "github.com/metahub-ai/attest/checks/no-persistence"
	noprivilegeescalation "github.com/metahub-ai/attest/checks/no-privilege-escalation"
	noremoteshell "github.com/metahub-ai/attest/checks/no-remote-shell"
	noresourceexhaustion "github.com/metahub-ai/attest/checks/no-resource-exhaustion"
	nosecretexfiltration "github.com/metahub-ai/attest/checks/no-secret-exfiltration"
	nosensitivefiles "github.com/metahub-ai/attest/checks/no-sensitive-files"
	notrojansource "github.com/metahub-ai/attest/checks/no-trojan-source"
	noundeclaredegress "github.com/metahub-ai/attest/checks/no-undeclared-egress"
	pluginbundledeclared "github.com/metahub-ai/attest/checks/plugin-bundle-declared"
	pluginbundleresolves "github.com/metahub-ai/attest/checks/plugin-bundle-resolves"
	pluginbundlesafe "github.com/metahub-ai/attest/checks/plugin-bundle-safe"
	pluginhooksnotprivileged "github.com/metahub-ai/attest/checks/plugin-hooks-not-privileged"
	pluginmanifest "github.com/metahub-ai/attest/checks/plugin-manifest"
	publishersignature "github.com/metahub-ai/attest/checks/publisher-signature"
	recentlymaintained "github.com/metahub-ai/attest/checks/recently-maintained"
	skillallowedtools "github.com/metahub-ai/attest/checks/skill-allowed-tools"
	skillbody "github.com/metahub-ai/attest/checks/skill-body"
	skilldistinctiveness "github.com/metahub-ai/attest/checks/skill-distinctiveness"
	skillfrontmatter "github.com/metahub-ai/attest/checks/skill-frontmatter"
	skillfrontmatterdepth "github.com/metahub-ai/attest/checks/skill-frontmatter-depth"
	skillresourcesresolve "github.com/metahub-ai/attest/checks/skill-resources-resolve"
	skilltokenfootprint "github.com/metahub-ai/attest/checks/skill-token-footprint"
	skilltriggers "github.com/metahub-ai/attest/checks/skill-triggers"
	testspresent "github.com/metahub-ai/attest/checks/tests-present"
	usageexamples "github.com/metahub-ai/attest/checks/usage-examples"
	versionformat "github.com/metahub-ai/attest/checks/version-format"
)

// ID and Version name the suite in reports.
const (
	ID      = "attest-default"
	Version = "1.5.0"
)

// All lists every check of the suite, sorted by id. Adding a check is one
// line here.
func All() []*checks.Check {
	return []*checks.Check{
		agentinstructions.Check,
		agentshapedeclared.Check,
		agenttoolscope.Check,
		behavesasdocumented.Check,
		behavessafely.Check,
		ciconfigured.Check,
		declaredfilesexist.Check,
		depsbounded.Check,
		depsnoknownvulns.Check,
		depsnottyposquatted.Check,
		descriptionquality.Check,
		documentationpresent.Check,
		entryresolves.Check,
		homepagedeclared.Check,
		licensepresent.Check,
		lockfilepresent.Check,
		manifestpresent.Check,
		mcpauthposture.Check,
		mcpconfigsafe.Check,
		mcplaunchable.Check,
		mcpmetadatanotconcealed.Check,
		mcpmoduletype.Check,
		mcppromptsnotpoisoned.Check,
		mcpresourcesnotpoisoned.Check,
		mcpsdkpinned.Check,
		mcpsurfacedescribed.Check,
		mcpsurfacestable.Check,
		mcpsurfacewellformed.Check,
		mcptooldescriptions.Check,
		mcptoolsnotpoisoned.Check,
		mcptoolsnotshadowing.Check,
		namedeclared.Check,
		noassembledcredentials.Check,
		nobundledbinaries.Check,
		nocryptomining.Check,
		nodefenceevasion.Check,
		nodestruction.Check,
		nodownloadandrun.Check,
		nodynamiccodeexecution.Check,
		noescapingsymlinks.Check,
		noexposedpii.Check,
		nohardcodedsecrets.Check,
		nohiddeninstructions.Check,
		nohiddenrecipients.Check,
		nohiddenunicode.Check,
		noinstallscripts.Check,
		noinstructioninjection.Check,
		noobfuscatedpayloads.Check,
		nopersistence.Check,
		noprivilegeescalation.Check,
		noremoteshell.Check,
		noresourceexhaustion.Check,
		nosecretexfiltration.Check,
		nosensitivefiles.Check,
		notrojansource.Check,
		noundeclaredegress.Check,
		pluginbundledeclared.Check,
		pluginbundleresolves.Check,
		pluginbundlesafe.Check,
		pluginhooksnotprivileged.Check,
		pluginmanifest.Check,
		publishersignature.Check,
		recentlymaintained.Check,
		skillallowedtools.Check,
		skillbody.Check,
		skilldistinctiveness.Check,
		skillfrontmatter.Check,
		skillfrontmatterdepth.Check,
		skillresourcesresolve.Check,
		skilltokenfootprint.Check,
		skilltriggers.Check,
		testspresent.Check,
		usageexamples.Check,
		versionformat.Check,
	}
}

// Default returns the validated catalog of the suite.
var Default = sync.OnceValues(func() (*checks.Catalog, error) {
	return checks.NewCatalog(ID, Version, All())
})
