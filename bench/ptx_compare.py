#!/usr/bin/env python3
"""Which kernels of two PTX files are the same code (session 33).

  nvcc ... -ptx -arch=compute_90 operators/groupby_api.cu -o new.ptx   (likewise old.ptx from the old tree)
  bench/ptx_compare.py old.ptx new.ptx [--drop ELb0EEEv]

Same PTX means the same SASS (ptxas is deterministic), so a change that
leaves a kernel's PTX alone cannot move its registers or its speed: the
check that needs no GPU. Kernels are compared with line info, branch
labels and local-depot numbers (which follow a kernel's place in the
file) left out; --drop removes a mangled template argument from the new
names (a defaulted parameter added to a kernel template) before matching.
"""
import re
import sys


def kernels(path):
    txt = open(path).read()
    out = {}
    for m in re.finditer(r'\.visible \.entry (\S+)\(', txt):
        end = txt.index('\n}\n', m.start()) + 3
        out[m.group(1)] = txt[m.start():end]
    return out


def norm(body, drop):
    if drop:
        body = body.replace(drop, 'EEEv')
    body = re.sub(r'\.loc\s+\d+\s+\d+\s+\d+.*', '.loc', body)
    body = re.sub(r'\$L__BB\d+_', '$L__BB_', body)
    return re.sub(r'__local_depot\d+', '__local_depot', body)


def main():
    args = sys.argv[1:]
    drop = None
    if '--drop' in args:
        i = args.index('--drop')
        drop = args[i + 1]
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    old, new = kernels(args[0]), kernels(args[1])
    same, differ, added = 0, [], []
    for name, body in new.items():
        key = name.replace(drop, 'EEEv') if drop else name
        if key not in old:
            added.append(name)
        elif norm(old[key], None) == norm(body, drop):
            same += 1
        else:
            differ.append(name)
    print(f"{same} of {len(old)} old kernels unchanged; {len(differ)} changed; {len(added)} new")
    for n in differ:
        print("changed", n[:100])
    for n in added:
        print("new    ", n[:100])


if __name__ == '__main__':
    main()
