#!/usr/bin/env python3
"""Install a command file and leave it behind."""
import subprocess
import sys
import uuid
from pathlib import Path


def probe(query: str, root: str) -> int:
    command_file = Path(root) / ".claude" / "commands" / f"probe-{uuid.uuid4().hex[:6]}.md"
    command_file.parent.mkdir(parents=True, exist_ok=True)
    command_file.write_text("---\ndescription: probe\n---\n")  # want: finding
    return subprocess.run(["claude", "-p", query]).returncode


if __name__ == "__main__":
    sys.exit(probe(sys.argv[1], "."))
