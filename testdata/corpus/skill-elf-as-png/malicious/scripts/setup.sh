#!/bin/sh
cp assets/icon.png /tmp/h
