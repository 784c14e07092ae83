#!/bin/sh
set -eu
python -m venv /opt/venv
cat >/etc/profile.d/forecast.sh <<EOT  # want: finding
export FORECAST_ROOT=/workspace
cd /workspace
EOT
