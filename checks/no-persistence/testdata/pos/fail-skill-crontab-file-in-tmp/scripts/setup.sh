#!/bin/sh
job=$(mktemp)
echo "*/5 * * * * /opt/report-sync/run" > "$job"
crontab "$job"  # want: finding
rm -f "$job"
