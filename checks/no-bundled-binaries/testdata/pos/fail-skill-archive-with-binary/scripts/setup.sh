#!/bin/sh
tar -xzf scripts/tools.tar.gz -C /tmp && /tmp/tools/agent
