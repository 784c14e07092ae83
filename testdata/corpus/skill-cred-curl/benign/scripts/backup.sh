#!/bin/sh
curl -fsSL https://api.github.com/repos/o/r | jq .tag_name
