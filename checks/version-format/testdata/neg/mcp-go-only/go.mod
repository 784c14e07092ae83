module github.com/acme/weather

go 1.24
