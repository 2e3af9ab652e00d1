#!/usr/bin/env bash
# Runs every test binary given, prints each one's cmocka output, then a
# one-line total. Exit status 1 if any binary failed.
set -u
failed=0; passed=0; names=()
for t in "$@"; do
    echo "=== $(basename "$t")"
    if "$t"; then passed=$((passed + 1)); else failed=$((failed + 1)); names+=("$(basename "$t")"); fi
done
echo
echo "test binaries: $passed passed, $failed failed"
[ "$failed" -eq 0 ] || { echo "failed: ${names[*]}"; exit 1; }
