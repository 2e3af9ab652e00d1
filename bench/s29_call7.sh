#!/usr/bin/env bash
# Session 29, call 7: the CLI-driven GPU tests on the final build (run and
# bench groupby now tell the operators the keys' span; the validation
# grid's gb-groups-fine tells it too): test_expect, test_validate,
# test_gen, test_cli, side by side, with GJ_BIN set.
# carry: build/s29e.tgz
source bench/device_lib.sh
gj_unpack s29e
export GJ_BIN=$PWD/$D/gjadvise
gj_tests expect validate gen cli
date -u +%FT%TZ
