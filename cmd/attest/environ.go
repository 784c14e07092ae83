package main

// envVar is one environment variable attest reads.
type envVar struct{ Name, Effect string }

// environment lists every variable attest reads, for the manual;
// TestEnvironmentListed fails when the code reads one it does not name.
var environment = []envVar{
	{"NO_COLOR", "no colour in the text report (with --color auto, the default)"},
	{"TERM", "TERM=dumb: no colour in the text report (with --color auto)"},
	{"ATTEST_ASCII", "1: ASCII glyphs only in the text report"},
	{"ATTEST_HOME", "where attest setup keeps config.json (default ~/.attest)"},
	{"XDG_CONFIG_HOME", "read for the user's configuration directory where ATTEST_HOME is unset"},
	{"APPDATA", "the configuration directory on Windows"},
	{"HOME", "the home directory, for ~/.attest and the installed clients' configuration (attest scan --installed)"},
	{"ATTEST_CACHE_DIR", "the batch report cache (default $XDG_CACHE_HOME/attest)"},
	{"XDG_CACHE_HOME", "the cache's parent directory where ATTEST_CACHE_DIR is unset"},
	{"ATTEST_OSV_URL", "an HTTPS mirror of the OSV API for --net (its host joins the allowlist)"},
	{"SSL_CERT_FILE", "trusted CA certificates for HTTPS (Go's own variable; a mirror's private CA)"},
	{"ATTEST_REGISTRY", "the registry that registry: targets resolve through (docs/REGISTRY.md)"},
	{"ATTEST_NPM_REGISTRY", "the npm registry for npm: targets (default https://registry.npmjs.org)"},
	{"ATTEST_PYPI_URL", "the PyPI JSON API for pypi: targets (default https://pypi.org)"},
	{"SIGSTORE_ID_TOKEN", "the OIDC token for attest sign --keyless"},
	{"ACTIONS_ID_TOKEN_REQUEST_URL", "GitHub Actions' token service, for attest sign --keyless in a job with id-token: write"},
	{"ACTIONS_ID_TOKEN_REQUEST_TOKEN", "its bearer token, set by GitHub Actions"},
	{"ANTHROPIC_API_KEY", "the Anthropic key of behavioral runs (wins over attest setup)"},
	{"ANTHROPIC_BASE_URL", "the Anthropic endpoint (a gateway or a local fake)"},
	{"OPENAI_API_KEY", "the OpenAI key of behavioral runs"},
	{"OPENAI_BASE_URL", "the OpenAI endpoint"},
	{"OPENROUTER_API_KEY", "the OpenRouter key of behavioral runs"},
	{"OPENROUTER_BASE_URL", "the OpenRouter endpoint"},
	{"LOCAL_LLM_BASE_URL", "a local OpenAI-compatible model server for behavioral runs"},
	{"LOCAL_LLM_API_KEY", "its key, when it wants one"},
	{"LOCAL_LLM_MODEL", "its model, when no --model is given"},
	{"E2B_API_KEY", "the E2B key, for --sandbox e2b"},
	{"E2B_API_URL", "the E2B platform API (default E2B's)"},
	{"E2B_SANDBOX_URL", "the E2B sandbox endpoint (default E2B's)"},
	{"E2B_DOMAIN", "the E2B domain (default E2B's)"},
	{"ATTEST_E2B_TEMPLATE", "the E2B template sandboxes start from"},
	{"ATTEST_SANDBOX_IMAGE", "the container image of the podman, docker and gvisor sandboxes"},
	{"NPM_CONFIG_REGISTRY", "an npm registry the sandboxed install of an MCP server's packages may use (npm_config_registry too)"},
	{"npm_config_registry", "the same, as npm spells it"},
	{"PIP_INDEX_URL", "a Python index the sandboxed install may use"},
	{"PATH", "where bubblewrap, strace, podman, docker, runsc and git are found"},
	{"GOGC", "set: the Go garbage collector keeps it instead of attest's own setting for a short process"},
	{"GOMEMLIMIT", "set: the Go runtime keeps it instead of attest's 448 MiB soft heap limit for one run"},
}

// testEnvironment lists the variables only the test suite reads.
var testEnvironment = []envVar{
	{"CI", "set: a test that would skip for a missing tool fails instead"},
	{"ATTEST_COSIGN", "the cosign binary the bundle compatibility test runs"},
	{"ATTEST_SARIF_SCHEMA", "the official sarif-2.1.0.json the SARIF test validates against"},
	{"ATTEST_REKOR_TILES_SERVER", "the rekor-tiles POSIX server the log compatibility test runs"},
	{"ATTEST_CHROMIUM", "the Chromium the HTML report test drives"},
	{"ATTEST_PUBLIC_SKILLS", "a directory of public skills for the detection sweep"},
	{"ATTEST_TEST_ARTIFACTS", "a directory of artifacts for the corpus tests"},
	{"ATTEST_BENCH_DIR", "a directory of artifacts for the benchmarks"},
	{"ATTEST_LOG_FLAGS", "extra flags for the log server under test"},
	{"ATTEST_DUMP_FACTS", "a directory whose analysis model TestDump prints (a development aid)"},
	{"ATTEST_DUMP_FACTS_SINKS", "set: TestDump prints every sink, not only instructions"},
}
