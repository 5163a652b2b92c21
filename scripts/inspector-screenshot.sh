#!/usr/bin/env bash
# Regenerates the README's picture of the inspector (docs/inspector.png): records TouchSchool's
# scripted scenario with --record, makes the page with cascade-inspect, and photographs step 12
# (a ranking snapshot arriving while the game screen is on the stack: the shared ranking
# changes at the root and on the pushed screen) with headless Chromium.
# Needs chromium (apt-get install chromium fonts-nanum fonts-noto-color-emoji).
set -euo pipefail
cd "$(dirname "$0")/.."
output="${1:-docs/inspector.png}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

swift build --product touch-school
swift build --product cascade-inspect
bin="$(swift build --show-bin-path)"
"$bin/touch-school" --record "$work/session.json" >/dev/null
"$bin/cascade-inspect" "$work/session.json" -o "$work/session.html" --title "TouchSchool"
chromium --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
  --user-data-dir="$work/profile" --window-size=1400,820 \
  --screenshot="$PWD/$output" "file://$work/session.html#step=12" 2>/dev/null
echo "wrote $output"
