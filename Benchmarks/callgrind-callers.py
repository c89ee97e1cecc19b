#!/usr/bin/env python3
"""Where one library's instructions come from, in callgrind dumps (such as the playback dumps
`Benchmarks/compositor-cpu.sh` leaves with CALLGRIND=DIR): the library's own instructions by
function, and every call into it from outside it, with the call's inclusive cost, grouped by
calling function and called function. Figures are divided by FRAMES (per input frame).

    Benchmarks/callgrind-callers.py FRAMES LIBRARY DUMP...
    Benchmarks/callgrind-callers.py 160 libc.so /tmp/cg/wlroots-kiosk-touchscreen-1.play-1

LIBRARY matches part of the object's file name (libc.so, libwayland-server, libswiftCore).
The first section lists every object's own instructions. Calls made inside LIBRARY (libc's
calloc into _int_malloc) are in the callee's inclusive cost, not listed apart.
"""
import collections
import os
import re
import sys

if len(sys.argv) < 4:
    sys.exit(__doc__)
frames = float(sys.argv[1])
target = sys.argv[2]
own = collections.Counter()        # (object, function) -> self instructions
by_object = collections.Counter()  # object -> self instructions
edges = collections.Counter()      # (object, function, callee object, callee) -> inclusive
calls = collections.Counter()

for path in sys.argv[3:]:
    objects, functions = {}, {}

    def name(value, table):
        # "(12) name" defines 12, "(12)" refers to it, "name" is uncompressed.
        m = re.match(r'\((\d+)\)\s*(.*)', value)
        if not m:
            return value
        if m.group(2):
            table[m.group(1)] = m.group(2)
        return table.get(m.group(1), m.group(1))

    ob = fn = cob = cfn = ''
    pending = None  # the count of the call whose inclusive cost is the next cost line
    with open(path, errors='replace') as dump:
        for line in dump:
            line = line.rstrip('\n')
            if not line:
                continue
            if line[0].isdigit() or line[0] in '+-*':
                fields = line.split()
                if len(fields) < 2:
                    continue
                ir = int(fields[1])
                if pending is not None:
                    key = (os.path.basename(ob), fn, os.path.basename(cob), cfn)
                    edges[key] += ir
                    calls[key] += pending
                    pending = None
                    cob = ob  # cob= holds for one call only
                else:
                    own[(os.path.basename(ob), fn)] += ir
                    by_object[os.path.basename(ob)] += ir
            elif line.startswith('ob='):
                ob = cob = name(line[3:], objects)
            elif line.startswith('cob='):
                cob = name(line[4:], objects)
            elif line.startswith('fn='):
                fn = name(line[3:], functions)
                cob = ob
            elif line.startswith('cfn='):
                cfn = name(line[4:], functions)
            elif line.startswith('calls='):
                pending = int(line[6:].split()[0])

print('Own instructions by object, per frame:')
for o, v in by_object.most_common():
    if v / frames >= 1:
        print(f'{v / frames:10.1f}  {o}')
print(f'\n{target}: own instructions by function, per frame:')
for (o, f), v in own.most_common():
    if target in o and v / frames >= 2:
        print(f'{v / frames:10.1f}  {f}')
print(f'\nCalls into {target} from outside it: inclusive instructions per frame (calls per frame), caller -> callee:')
grouped, counts = collections.Counter(), collections.Counter()
for (o, f, co, cf), v in edges.items():
    if target in co and target not in o:
        grouped[(o, f, cf)] += v
        counts[(o, f, cf)] += calls[(o, f, co, cf)]
for key, v in grouped.most_common():
    if v / frames < 2:
        break
    print(f'{v / frames:10.1f}  ({counts[key] / frames:5.2f})  {key[0]}: {key[1][:90]} -> {key[2][:60]}')
