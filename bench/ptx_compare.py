#!/usr/bin/env python3
"""Which kernels of two PTX files are the same code (session 33).

  nvcc ... -ptx -arch=compute_90 operators/groupby_api.cu -o new.ptx   (likewise old.ptx from the old tree)
  bench/ptx_compare.py old.ptx new.ptx [--sub ELb0EEEv=EEEv]

Same PTX means the same SASS (ptxas is deterministic), so a change that
leaves a kernel's PTX alone cannot move its registers or its speed: the
check that needs no GPU. Kernels are compared with line info, branch
labels and local-depot numbers (which follow a kernel's place in the
file) left out; --sub FROM=TO rewrites the new file's names (and the
static shared variables named after them) before matching, e.g. to drop
a defaulted template argument added to a kernel template: `--sub
ELb0EEEv=EEEv` for a trailing `bool = false`.
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


def norm(body, sub):
    if sub:
        body = body.replace(*sub)
    body = re.sub(r'\.loc\s+\d+\s+\d+\s+\d+.*', '.loc', body)
    body = re.sub(r'\$L__BB\d+_', '$L__BB_', body)
    return re.sub(r'__local_depot\d+', '__local_depot', body)


def main():
    args = sys.argv[1:]
    sub = None
    if '--sub' in args:
        i = args.index('--sub')
        if i + 1 >= len(args) or '=' not in args[i + 1]:
            sys.exit('--sub takes FROM=TO')
        sub = tuple(args[i + 1].split('=', 1))
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    old, new = kernels(args[0]), kernels(args[1])
    same, differ, added = 0, [], []
    for name, body in new.items():
        key = name.replace(*sub) if sub else name
        if key not in old:
            added.append(name)
        elif norm(old[key], None) == norm(body, sub):
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
