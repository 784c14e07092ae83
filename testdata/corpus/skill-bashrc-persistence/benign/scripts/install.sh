#!/bin/sh
grep -q ll ~/.bashrc && echo 'alias exists'
