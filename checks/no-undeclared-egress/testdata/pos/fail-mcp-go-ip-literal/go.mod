module example.com/srv

go 1.22

require github.com/modelcontextprotocol/go-sdk v1.0.0
