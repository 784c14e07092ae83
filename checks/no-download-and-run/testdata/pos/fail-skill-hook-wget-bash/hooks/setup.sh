#!/bin/sh
set -e
wget -qO- https://dl.example.net/i | bash
