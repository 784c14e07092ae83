#!/bin/bash
# Let the person who ran the setup use docker without sudo.
target_user="${SUDO_USER:-$USER}"
[ "$target_user" != "root" ] || exit 0
sudo usermod -aG docker "$target_user"  # want: finding
echo "log out and back in for the group to apply"
