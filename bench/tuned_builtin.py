#!/usr/bin/env python3
"""Regenerate a built-in profile of model/builtin_json.c (h200-tuned by
default; --name h100-tuned, or a measured one such as --name h100-measured)
from a profile exported from a store.

A tuned built-in (the export's origin is "tune") keeps only its identity
and corrections: its parameters and device are those of its base, the
built-in named in the table at the end of builtin_json.c (--base names it
in the notes). A measured built-in (origin "calibrate") keeps its
parameters and device. The block rewritten is the one between the lines
"/* BEGIN NAME (bench/tuned_builtin.py) */" and "/* END NAME */".

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
                              [--name NAME] [--base NAME]
                              [--only IMPLS --notes TEXT --fit-error X]
"""
import argparse
import json
import re
import sys

IMPLS = ["PHJ-UR", "PHJ-TR", "SMJ-UR", "SMJ-TR", "NPHJ", "HGB", "SGB-UR", "SGB-TR", "SGB-DE-TR", "PGB-UR",
         "PGB-TR", "HASH-GLOBAL"]


def markers(name):
    return "/* BEGIN %s (bench/tuned_builtin.py) */\n" % name, "/* END %s */\n" % name


def literal(text, name):
    lines = text.rstrip("\n").split("\n")
    out = ["static const char %s[] =" % name.replace("-", "_")]
    for l in lines:
        out.append('    "%s\\n"' % l.replace("\\", "\\\\").replace('"', '\\"'))
    out[-1] += ";"
    return "\n".join(out) + "\n"


def current(src, name):
    """The JSON of built-in NAME between its markers in the source."""
    begin, end = markers(name)
    i, j = src.find(begin), src.find(end)
    body = src[i + len(begin): j]
    parts = re.findall(r'^\s*"(.*)\\n";?\s*$', body, re.M)
    return json.loads("\n".join(p.replace('\\"', '"').replace("\\\\", "\\") for p in parts))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("exported")
    ap.add_argument("--source", default="model/builtin_json.c")
    ap.add_argument("--name", default="h200-tuned", help="the built-in to rewrite")
    ap.add_argument("--base", default="h200-measured", help="a tuned built-in's base, for its notes")
    ap.add_argument("--only", help="comma-separated implementations to take from the export")
    ap.add_argument("--notes")
    ap.add_argument("--fit-error", type=float)
    a = ap.parse_args()
    if a.only and (a.notes is None or a.fit_error is None):
        print("--only needs --notes and --fit-error", file=sys.stderr)
        return 2
    d = json.load(open(a.exported))
    tuned = d.get("origin") == "tune" and "fits" in d
    if not tuned and (d.get("origin") != "calibrate" or a.only):
        print(f"{a.exported}: neither a tuned profile with fits nor a calibrated one (origin "
              f"{d.get('origin')!r}; --only takes a tuned one)", file=sys.stderr)
        return 1
    d["name"], d["version"], d["origin"] = a.name, 1, "builtin"
    if tuned:  # parameters and device come from the entry's base
        gpu = d.get("device", {}).get("name", "GPU")
        d.pop("params", None)
        d.pop("device", None)
        d["notes"] = ("%s refitted by gjadvise tune on the default validate grid measured on an %s "
                      "(bench/RESULTS.md); held-out median |err| %.1f%%"
                      % (a.base, gpu, 100 * d["fit_error"]))
    src = open(a.source).read()
    begin, end = markers(a.name)
    i, j = src.find(begin), src.find(end)
    if i < 0 or j < i:
        print(f"{a.source}: markers of {a.name} not found", file=sys.stderr)
        return 1
    if a.only:
        only = a.only.split(",")
        old = current(src, a.name)
        fits = {k: v for k, v in old["fits"].items() if k not in only}
        fits.update({k: v for k, v in d["fits"].items() if k in only})
        d["fits"] = {k: fits[k] for k in sorted(fits, key=lambda k: IMPLS.index(k) if k in IMPLS else 99)}
        d["notes"], d["fit_error"] = a.notes, a.fit_error
    if len(d["notes"]) > 255:
        print(f"notes of {len(d['notes'])} characters: at most 255", file=sys.stderr)
        return 2
    src = src[: i + len(begin)] + literal(json.dumps(d, indent=1), a.name) + src[j:]
    open(a.source, "w").write(src)
    if tuned:
        print(f"{a.source}: {a.name} updated ({len(d['fits'])} implementations, held-out "
              f"{100 * d['fit_error']:.1f}%)")
    else:
        print(f"{a.source}: {a.name} updated ({len(d['params'])} parameters of {d['device']['name']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
