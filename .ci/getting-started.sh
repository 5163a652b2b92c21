#!/usr/bin/env bash
# The Getting Started article, followed as a newcomer would: its package is written from the
# article's code blocks (each marked `<!-- file: PATH -->`) into an empty folder beside a
# checkout of Cascade, then the commands of its `<!-- commands -->` block are run there. Fails
# if any block does not compile, the program does not print what the article says, or the test
# does not pass.
# Usage: .ci/getting-started.sh (from anywhere; uses a temporary folder, removed at the end).
set -euo pipefail
cascade="$(cd "$(dirname "$0")/.." && pwd)"
article="$cascade/Sources/Cascade/Cascade.docc/GettingStarted.md"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The article's layout: MyApp/ beside a checkout named Cascade.
ln -s "$cascade" "$work/Cascade"
mkdir -p "$work/MyApp"

awk -v root="$work/MyApp" '
  /^<!-- file: .* -->$/ { path = $3; next }
  /^<!-- commands -->$/ { path = "commands.sh"; next }
  /^```/ {
    if (inside) { inside = 0; close(target); path = ""; next }
    if (path != "") {
      inside = 1; target = root "/" path
      dir = target; sub(/\/[^\/]*$/, "", dir); system("mkdir -p \"" dir "\"")
      printf "" > target
      next
    }
  }
  inside { print >> target }
' "$article"

cd "$work/MyApp"
for file in Package.swift Sources/Counter/Counter.swift Sources/Counter/main.swift \
  Tests/CounterTests/CounterTests.swift commands.sh; do
  if [ ! -s "$file" ]; then
    echo "error: the article has no block for $file" >&2
    exit 1
  fi
done
echo "-- the article's package:"
find . -type f -not -path './.build/*' | sort

echo "-- its commands, as written:"
cat commands.sh
while read -r command; do
  [ -n "$command" ] || continue
  echo "\$ $command"
  case "$command" in
    "swift run Counter")
      output=$($command 2>&1 | tee /dev/stderr)
      if ! grep -q "^count: 1$" <<<"$output" || ! grep -q "^count after the timer: [0-9]" <<<"$output"; then
        echo "error: 'swift run Counter' did not print what the article says" >&2
        exit 1
      fi
      ;;
    "swift test")
      output=$($command 2>&1 | tee /dev/stderr)
      if ! grep -q "Test run with 1 test .*passed" <<<"$output"; then
        echo "error: 'swift test' did not end as the article says" >&2
        exit 1
      fi
      ;;
    *) $command ;;
  esac
done <commands.sh
echo "-- Getting Started works as written"
