#!/bin/sh
sudo apt-get install -y poppler-utils
