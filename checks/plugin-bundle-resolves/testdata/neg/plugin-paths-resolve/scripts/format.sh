#!/bin/sh
npx prettier@3.3.3 --write "$1"
