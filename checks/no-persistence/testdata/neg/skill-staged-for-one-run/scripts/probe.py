#!/usr/bin/env python3
"""Stage a command file for one query, then take it away again."""
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

HOOK = "import time; print('started', time.time())\n"


def probe(query: str, root: str) -> int:
    command_file = Path(root) / ".claude" / "commands" / f"probe-{uuid.uuid4().hex[:6]}.md"
    try:
        command_file.parent.mkdir(parents=True, exist_ok=True)
        command_file.write_text("---\ndescription: probe\n---\n")
        return subprocess.run(["claude", "-p", query]).returncode
    finally:
        if command_file.exists():
            command_file.unlink()


def timed(cmd: list) -> int:
    with tempfile.TemporaryDirectory(prefix="probe-") as scratch:
        inject = Path(scratch) / "inject"
        inject.mkdir()
        (inject / "sitecustomize.py").write_text(HOOK)
        return subprocess.run(cmd, env={"PYTHONPATH": str(inject)}).returncode


if __name__ == "__main__":
    sys.exit(probe(sys.argv[1], "."))
