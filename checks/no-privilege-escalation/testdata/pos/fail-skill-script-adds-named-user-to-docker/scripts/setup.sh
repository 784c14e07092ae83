#!/bin/bash
# Give the service account docker, which is root on this host.
sudo usermod -aG docker svc-runner  # want: finding
