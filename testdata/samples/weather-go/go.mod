module github.com/acme/weather-go

go 1.24

require github.com/modelcontextprotocol/go-sdk v1.0.0
