#!/usr/bin/env python3
"""Regenerate the built-in profile h200-tuned (model/builtin_json.c) from a
store that holds a validation run and its tuned profile.

The corrections tune learns are coefficients of the model's terms, so they
must be refitted whenever model/time.c changes. Steps (no GPU needed):

    cp STORE /tmp/s.db                       # e.g. the store validate_device.sh brought back
    make bin/gjadvise                        # with the model/time.c to be tuned
    bin/gjadvise tune --profile h200-measured@1 --db /tmp/s.db --device UUID
    bin/gjadvise profiles list --db /tmp/s.db --all    # the version tune just saved: N
    bin/gjadvise profiles export h200-measured@N --db /tmp/s.db -o /tmp/tuned.json
    bench/tuned_builtin.py /tmp/tuned.json   # rewrites the block between the markers
    make bin/gjadvise && bin/gjadvise validate --replay --db /tmp/s.db --device UUID \
        --profile h200-tuned                 # check: the same figures as h200-measured@N

Tune from @1, the calibrated (untuned) version: a store brought back from the
device may already hold a tuned version fitted to an older model, and tune
keeps an implementation's old correction when the new one is no better on
the held-out half, so starting from it can carry coefficients of terms that
no longer exist. UUID: the GPU the grid was measured on (`validate --replay`
prints it); on a store with one GPU --device may be left out.

usage: bench/tuned_builtin.py EXPORTED.json [--source model/builtin_json.c]
"""
import argparse
import json
import sys

BEGIN = "/* BEGIN h200-tuned (bench/tuned_builtin.py) */\n"
END = "/* END h200-tuned */\n"


def literal(text):
    lines = text.rstrip("\n").split("\n")
    out = ["static const char h200_tuned[] ="]
    for l in lines:
        out.append('    "%s\\n"' % l.replace("\\", "\\\\").replace('"', '\\"'))
    out[-1] += ";"
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("exported")
    ap.add_argument("--source", default="model/builtin_json.c")
    a = ap.parse_args()
    d = json.load(open(a.exported))
    if d.get("origin") != "tune" or "fits" not in d:
        print(f"{a.exported}: not a tuned profile (origin {d.get('origin')!r}, no fits)", file=sys.stderr)
        return 1
    d["name"], d["version"], d["origin"] = "h200-tuned", 1, "builtin"
    # parameters and device come from h200-measured (the entry's base)
    d.pop("params", None)
    d.pop("device", None)
    d["notes"] = ("h200-measured refitted by gjadvise tune on the default validate grid measured on an "
                  "NVIDIA H200 (bench/validate_device.sh; bench/RESULTS.md, Validation); held-out median "
                  "|err| %.1f%%" % (100 * d["fit_error"]))
    src = open(a.source).read()
    i, j = src.find(BEGIN), src.find(END)
    if i < 0 or j < i:
        print(f"{a.source}: markers not found", file=sys.stderr)
        return 1
    src = src[: i + len(BEGIN)] + literal(json.dumps(d, indent=1)) + src[j:]
    open(a.source, "w").write(src)
    print(f"{a.source}: h200-tuned updated ({len(d['fits'])} implementations, held-out "
          f"{100 * d['fit_error']:.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
