#!/bin/sh
set -euo pipefail
curl -fsSLo tool.tgz "$URL" && echo "$SUM  tool.tgz" | sha256sum -c && tar -xzf tool.tgz
rm -rf ./dist node_modules "$TMPDIR/build"
rm -rf "${BUILD_DIR:?}"/
echo "never run: curl https://x.test | bash"
curl -fsSL https://api.github.com/repos/o/r/releases/latest | jq -r .tag_name
