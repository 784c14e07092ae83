module github.com/metahub-ai/attest/tools/latinskeleton

go 1.26.8

require github.com/mtibben/confusables v0.0.0-20210201002637-9d1b0723b659

require golang.org/x/text v0.44.0 // indirect
