#!/usr/bin/env bash
# Fails when the Swift version the package declares and the one its documents state disagree:
# Package.swift's tools version is the minimum (the code uses Swift 6.2's `isolated deinit`, the
# tests its `weak let` and exit tests), and the README, the Getting Started manifest and the
# dependent-package manifest must say the same.
set -euo pipefail
cd "$(dirname "$0")/.."

tools=$(sed -nE '1s#^// swift-tools-version: *([0-9.]+).*#\1#p' Package.swift)
readme=$(sed -nE 's#^Swift ([0-9.]+) or later\..*#\1#p' README.md | head -1)
getting=$(sed -nE 's#^// swift-tools-version: *([0-9.]+).*#\1#p' \
  Sources/Cascade/Cascade.docc/GettingStarted.md | head -1)
dependent=$(sed -nE 's#^// swift-tools-version: *([0-9.]+).*#\1#p' .ci/dependent-package.sh | head -1)

status=0
for pair in "README.md (Requirements):$readme" "GettingStarted.md manifest:$getting" \
  ".ci/dependent-package.sh manifest:$dependent"; do
  where=${pair%:*}
  version=${pair##*:}
  if [ "$version" != "$tools" ]; then
    echo "error: Package.swift says swift-tools-version $tools; $where says '${version:-nothing}'" >&2
    status=1
  fi
done
[ "$status" -eq 0 ] && echo "Swift version check: $tools everywhere"
exit $status
