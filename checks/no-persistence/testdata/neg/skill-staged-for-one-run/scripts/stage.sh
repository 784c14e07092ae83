#!/bin/sh
# Stage the skill into a scratch project and ask the CLI what it sees.
work=$(mktemp -d)
mkdir -p "$work/.claude/skills"
cp -R ./ "$work/.claude/skills/trigger-eval"
(cd "$work" && claude -p "list your skills")
rm -rf "$work"
