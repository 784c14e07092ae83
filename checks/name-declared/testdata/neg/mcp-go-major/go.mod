module github.com/acme/weather-server/v2

go 1.24
