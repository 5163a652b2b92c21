#!/usr/bin/env bash
# Fails when a file of Cascade or CascadeTesting other than its target's platform file uses the
# operating system directly: imports Glibc, Musl, Darwin, Android, WinSDK or WASILibc, or calls
# a pthread or dynamic-loader function. Every such use lives in the platform file, with a branch
# for each platform and a portable fallback (`-D CASCADE_PORTABLE` builds it; see README).
set -euo pipefail
cd "$(dirname "$0")/.."

platform_files=(Sources/Cascade/Internal/Platform.swift)
modules='Glibc|Musl|Darwin|Android|WinSDK|WASILibc'
found=0
while IFS= read -r file; do
  for allowed in "${platform_files[@]}"; do
    [ "$file" = "$allowed" ] && continue 2
  done
  # Comments may name these functions; code may not. Line comments are cut off first.
  if sed -E 's#//.*$##' "$file" | grep -nE \
    "(^|[^[:alnum:]_])import[[:space:]]+([a-z]+[[:space:]]+)?($modules)([^[:alnum:]_]|$)|(^|[^[:alnum:]_])(pthread_[[:alnum:]_]+|dl(open|sym|close|error|addr|iterate_phdr))([^[:alnum:]_]|$)" \
    | sed "s#^#$file:#"; then
    found=1
  fi
done < <(find Sources/Cascade Sources/CascadeTesting -name '*.swift' | sort)

if [ "$found" -ne 0 ]; then
  echo "error: the lines above use the operating system outside ${platform_files[*]};" \
    "move them there, with a branch per platform and a portable fallback" >&2
  exit 1
fi
echo "platform check: no OS module or pthread/dl call outside ${platform_files[*]}"
