#!/bin/sh
echo aWQ= | base64 -d | sh
