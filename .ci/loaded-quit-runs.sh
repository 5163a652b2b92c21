#!/usr/bin/env bash
# The TouchSchool and CleanArea `quit` sessions, run N times in a row (50 by default) under a
# background CPU load (one busy loop per core), each with a 30 s time limit: a run that
# outlives it counts as hung. Checks that each run exits 0 and saved what it was told.
# Not part of CI (it takes a few minutes). Build first: swift build
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-50}
bin=$(swift build --show-bin-path)
for app in touch-school clean-area; do
  [ -x "$bin/$app" ] || { echo "$bin/$app is not built: run swift build first"; exit 1; }
done

load=()
for _ in $(seq "$(nproc)"); do
  (while :; do :; done) &
  load+=($!)
done
work=$(mktemp -d)
trap 'kill "${load[@]}" 2>/dev/null; rm -rf "$work"' EXIT

declare -A ok=([touch-school]=0 [clean-area]=0) hung=([touch-school]=0 [clean-area]=0)
start=$(date +%s)
for i in $(seq "$runs"); do
  for app in touch-school clean-area; do
    data="$work/$app-$i"
    mkdir -p "$data"
    if [ "$app" = touch-school ]; then
      session='pick 7130027\nplay\ntap 5\nquit\n'
    else
      session='open 1\nbookmark\nback\nquit\n'
    fi
    printf "$session" | TMPDIR="$work" timeout -s KILL 30 "$bin/$app" --interactive \
      --data-dir "$data" >"$data.out" 2>&1
    status=$?
    if [ "$status" = 137 ]; then
      hung[$app]=$((hung[$app] + 1))
      echo "run $i: $app HUNG (killed after 30 s)"
    elif [ "$status" != 0 ]; then
      echo "run $i: $app exited $status"; cat "$data.out"
    elif [ "$app" = touch-school ] && ! grep -q '"7130027" : 5' "$data/ranking.json" 2>/dev/null; then
      echo "run $i: touch-school did not save the 5 touches"; cat "$data/ranking.json"
    elif [ "$app" = clean-area ] && [ "$(cat "$data/bookmarks.json" 2>/dev/null)" != "[1]" ]; then
      echo "run $i: clean-area did not save the bookmark"
    else
      ok[$app]=$((ok[$app] + 1))
    fi
  done
done
echo "$runs loaded runs in $(($(date +%s) - start)) s:" \
  "touch-school ${ok[touch-school]} ok, ${hung[touch-school]} hung;" \
  "clean-area ${ok[clean-area]} ok, ${hung[clean-area]} hung"
[ "${ok[touch-school]}" = "$runs" ] && [ "${ok[clean-area]}" = "$runs" ]
