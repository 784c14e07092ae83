module example.com/app

go 1.22

require golang.org/x/net v0.17.0
