package main

import "net/http"

func latest() {
	http.Get("https://proxy.golang.org/github.com/org/tool/@latest")
}

func main() { latest() }
