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

With --only IMPL,... only those implementations take the exported fits (an
implementation the export leaves untuned becomes untuned); the others keep
the corrections the source has (a model change that touches only the
joins: refit the joins, leave the group-bys). --notes and --fit-error then
say what the mixed profile is (the notes at most 255 characters; the
held-out median of `validate --replay --holdout` with it).

usage: bench/tuned_builtin.py EXPORTED.json [--source model/builtin_json.c]
                              [--only IMPLS --notes TEXT --fit-error X]
"""
import argparse
import json
import re
import sys

IMPLS = ["PHJ-UR", "PHJ-TR", "SMJ-UR", "SMJ-TR", "NPHJ", "HGB", "SGB-UR", "SGB-TR", "SGB-DE-TR", "PGB-UR",
         "PGB-TR", "HASH-GLOBAL"]
BEGIN = "/* BEGIN h200-tuned (bench/tuned_builtin.py) */\n"
END = "/* END h200-tuned */\n"


def literal(text):
    lines = text.rstrip("\n").split("\n")
    out = ["static const char h200_tuned[] ="]
    for l in lines:
        out.append('    "%s\\n"' % l.replace("\\", "\\\\").replace('"', '\\"'))
    out[-1] += ";"
    return "\n".join(out) + "\n"


def current(src):
    """The h200-tuned JSON between the markers of the source."""
    i, j = src.find(BEGIN), src.find(END)
    body = src[i + len(BEGIN): j]
    parts = re.findall(r'^\s*"(.*)\\n";?\s*$', body, re.M)
    return json.loads("\n".join(p.replace('\\"', '"').replace("\\\\", "\\") for p in parts))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("exported")
    ap.add_argument("--source", default="model/builtin_json.c")
    ap.add_argument("--only", help="comma-separated implementations to take from the export")
    ap.add_argument("--notes")
    ap.add_argument("--fit-error", type=float)
    a = ap.parse_args()
    if a.only and (a.notes is None or a.fit_error is None):
        print("--only needs --notes and --fit-error", file=sys.stderr)
        return 2
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
    if a.only:
        only = a.only.split(",")
        old = current(src)
        fits = {k: v for k, v in old["fits"].items() if k not in only}
        fits.update({k: v for k, v in d["fits"].items() if k in only})
        d["fits"] = {k: fits[k] for k in sorted(fits, key=lambda k: IMPLS.index(k) if k in IMPLS else 99)}
        d["notes"], d["fit_error"] = a.notes, a.fit_error
    if len(d["notes"]) > 255:
        print(f"notes of {len(d['notes'])} characters: at most 255", file=sys.stderr)
        return 2
    src = src[: i + len(BEGIN)] + literal(json.dumps(d, indent=1)) + src[j:]
    open(a.source, "w").write(src)
    print(f"{a.source}: h200-tuned updated ({len(d['fits'])} implementations, held-out "
          f"{100 * d['fit_error']:.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
