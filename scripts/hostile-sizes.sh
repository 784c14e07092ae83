#!/bin/sh
# Builds the hostile-size inputs of docs/PERFORMANCE.md ("Hostile sizes")
# under DIR and runs the given attest binary over each with /usr/bin/time,
# printing wall seconds and peak RSS. Usage: scripts/hostile-sizes.sh ATTEST DIR
set -eu
bin=$1 dir=$2
mkdir -p "$dir"
python3 - "$dir" <<'PY'
import base64, os, random, sys
root = sys.argv[1]
def skill(name):
    d = os.path.join(root, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "SKILL.md"), "w") as f:
        f.write("---\nname: %s\ndescription: Formats the text files the user gives it.\n---\n# Format\nFormats text.\n" % name)
    return d
rnd = random.Random(1)
d = skill("base64-8mib")
with open(os.path.join(d, "data.txt"), "w") as f:
    f.write(base64.b64encode(rnd.randbytes(6 << 20)).decode()[: (8 << 20) - 16])
d = skill("regex-bait-4mb")
with open(os.path.join(d, "notes.md"), "w") as f:
    f.write(("password = '" + "a" * 50 + "' ") * ((4 << 20) // 64))
d = skill("minified-js-8mib")
parts, n = [], 0
while n < (8 << 20) - 64:
    p = "var a%d=function(b,c){return b+c*%d};" % (n % 99991, n % 7)
    parts.append(p); n += len(p)
with open(os.path.join(d, "app.min.js"), "w") as f:
    f.write("".join(parts))
d = skill("minified-js-20x8mib")
for i in range(20):
    with open(os.path.join(d, "a%02d.min.js" % i), "w") as f:
        f.write("".join(parts))
d = skill("prose-65x8mib")
line = "The quick brown fox jumps over the lazy dog. " * 20 + "\n"
body = (line * ((8 << 20) // len(line) + 1))[: (8 << 20) - 128]
for i in range(65):
    with open(os.path.join(d, "f%02d.txt" % i), "w") as f:
        f.write(body)
PY
for t in base64-8mib regex-bait-4mb minified-js-8mib minified-js-20x8mib prose-65x8mib; do
  /usr/bin/time -f "$t: %e s wall, %M KiB peak RSS" "$bin" run "$dir/$t" --json -o /dev/null 2>&1 | tail -1 || true
done
