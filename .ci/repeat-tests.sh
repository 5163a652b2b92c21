#!/usr/bin/env bash
# Runs the whole plain test suite and the whole ThreadSanitizer suite N times each and prints
# how many runs passed, so anyone can check the suite's stability on their machine:
#
#   .ci/repeat-tests.sh [N] [--busy]
#
# N defaults to 5. --busy keeps one core spinning for the whole time (the other loads of a
# shared CI machine). Each run's output is kept in .build/repeat-tests/ (a failed run's log is
# named on the line that reports it). Exits non-zero if any run failed. Not part of .ci/run.
set -uo pipefail
cd "$(dirname "$0")/.."

runs=5
busy=false
for arg in "$@"; do
  case "$arg" in
    --busy) busy=true ;;
    *[!0-9]* | "")
      echo "usage: $0 [N] [--busy]" >&2
      exit 2
      ;;
    *) runs=$arg ;;
  esac
done

logs=.build/repeat-tests
mkdir -p "$logs"

spinner=""
if $busy; then
  (while :; do :; done) &
  spinner=$!
  trap 'kill "$spinner" 2>/dev/null' EXIT
  echo "one core kept busy (pid $spinner)"
fi

echo "== building (plain and ThreadSanitizer), not timed"
swift build --build-tests >"$logs/build-plain.log" 2>&1 || {
  echo "plain build failed: $logs/build-plain.log" >&2
  exit 1
}
swift build --build-tests --sanitize=thread >"$logs/build-tsan.log" 2>&1 || {
  echo "ThreadSanitizer build failed: $logs/build-tsan.log" >&2
  exit 1
}

failed=0
for kind in plain tsan; do
  passed=0
  for ((i = 1; i <= runs; i++)); do
    log="$logs/$kind-$i.log"
    flags=()
    # As .ci/run runs them: under the sanitizer one test at a time, without the explorations
    # and the test that needs two tests running together.
    [ "$kind" = tsan ] && flags=(--sanitize=thread --no-parallel --skip "$(cat .ci/tsan-skip)")
    start=$(date +%s)
    sanitized=0
    [ "$kind" = tsan ] && sanitized=1
    if CASCADE_THREAD_SANITIZER=$sanitized swift test "${flags[@]}" >"$log" 2>&1; then
      passed=$((passed + 1))
      echo "$kind run $i: passed in $(($(date +%s) - start)) s"
    else
      echo "$kind run $i: FAILED in $(($(date +%s) - start)) s ($log)"
      grep -E '✘ Test .* (recorded an issue|failed after)|error:' "$log" | grep -v '✘ Test run with' | head -5
    fi
  done
  echo "$kind: $passed of $runs passed"
  [ "$passed" -eq "$runs" ] || failed=1
done
exit $failed
