#!/usr/bin/env bash
# Pack what the device calls of session 18 run: bin/gjadvise, the test
# binaries with libcmocka.so.0 beside them, join_bench, into build/NAME.tgz
# (carry it; the call unpacks it into build/vt).
set -eu
name=${1:?name}
make -j16 all bench-tools $(ls tests/test_*.c | sed 's|^tests/\(.*\)\.c$|build/tests/\1|') > /dev/null
rm -rf build/vt && mkdir -p build/vt
cp bin/gjadvise build/tests/test_* build/tests/libcmocka.so.0 build/bench/join_bench build/vt/
tar czf "build/$name.tgz" -C build vt
ls -la "build/$name.tgz"
