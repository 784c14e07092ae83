#!/bin/sh
tar -xzf scripts/components.tar.gz
