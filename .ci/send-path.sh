#!/usr/bin/env bash
# The files of Sources/Cascade one send runs. SendPathTests' walk (a row of a `forEach` sends an
# action whose `.run` effect sends one back, with an observer on the row's store) is built with
# code coverage and run twice: once stopping before the measured send (CASCADE_SEND_PATH=setup:
# the store, the scoped row store, the observer and a first, warming send), once with it. A file
# is on the send path when one of its lines ran more often in the second run. Prints the files,
# their count and their folders' count, and fails when the Architecture article's walk (its
# "| Step | File |" table) names other files than these.
#
#   bash .ci/send-path.sh            # its own scratch path: .build/send-path
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build/send-path
mkdir -p "$scratch"
# Builds, and runs the test once as a test: the walk does what the article says.
swift test --enable-code-coverage --scratch-path "$scratch" --filter SendPathTests \
  >"$scratch/test.log" 2>&1 || { tail -40 "$scratch/test.log"; exit 1; }

tools="$(dirname "$(readlink -f "$(command -v swift)")")"
binary="$(swift build --scratch-path "$scratch" --show-bin-path)/CascadePackageTests.xctest"
root="$PWD/Sources/Cascade/"
for run in setup send; do
  rm -f "$scratch/$run.profraw"
  env CASCADE_SEND_PATH="$run" LLVM_PROFILE_FILE="$PWD/$scratch/$run.profraw" \
    "$binary" --testing-library swift-testing --filter SendPathTests >"$scratch/$run.log" 2>&1 \
    || { tail -20 "$scratch/$run.log"; exit 1; }
  "$tools/llvm-profdata" merge -o "$scratch/$run.profdata" "$scratch/$run.profraw"
  # file:line count, for the library's lines (lcov's SF and DA records).
  "$tools/llvm-cov" export -format=lcov -instr-profile="$scratch/$run.profdata" "$binary" \
    | awk -v root="$root" '
        /^SF:/ { file = substr($0, 4); keep = index(file, root) == 1; next }
        keep && /^DA:/ { split(substr($0, 4), f, ","); print substr(file, length(root) + 1) ":" f[1], f[2] }
      ' >"$scratch/$run.lines"
done
awk 'NR == FNR { setup[$1] = $2; next } $2 > setup[$1] + 0 { sub(/:[0-9]+$/, "", $1); print $1 }' \
  "$scratch/setup.lines" "$scratch/send.lines" | sort -u >"$scratch/files.txt"

cat "$scratch/files.txt"
files=$(wc -l <"$scratch/files.txt")
folders=$(xargs -n1 dirname <"$scratch/files.txt" | sort -u | wc -l)
echo "send path: $files files in $folders folders"

# The article's walk: the backticked Swift paths of the rows after its "| Step | File |" header.
article=Sources/Cascade/Cascade.docc/Architecture.md
if grep -q '^| Step | File |' "$article"; then
  awk '/^\| Step \| File \|/ { table = 1; next } table && !/^\|/ { exit } table' "$article" \
    | grep -oE '`[^`]+\.swift`' | tr -d '`' | sort -u >"$scratch/article.txt"
  if ! diff -u "$scratch/article.txt" "$scratch/files.txt"; then
    echo "error: Architecture.md's walk (-) is not the files the send ran (+): update the article" >&2
    exit 1
  fi
  echo "Architecture.md's walk names exactly these files"
fi
