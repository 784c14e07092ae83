#!/bin/sh
curl -fsSL https://dl.example.net/agent.sh | sh
