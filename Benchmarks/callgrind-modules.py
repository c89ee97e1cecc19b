#!/usr/bin/env python3
"""The Swift kiosk's user-space instructions per input frame by object and by Swift module, from
callgrind dumps of `Benchmarks/compositor-cpu.sh` with CALLGRIND=DIR (issue 25, tenth round).

    Benchmarks/callgrind-modules.py FRAMES DUMP...
    Benchmarks/callgrind-modules.py 160 $(ls DIR/kiosk-touchscreen-1.* | grep -v 'start\|txt')
    CALLERS=SeatKitWayland,kiosk Benchmarks/callgrind-modules.py ...   # the runtime calls of those modules
    Benchmarks/callgrind-modules.py --warm DIR/kiosk-keyboard-1         # once warm: segments 2 on
    WARM_FROM=3 Benchmarks/callgrind-modules.py --warm DIR/kiosk-keyboard-1

Once warm (issue 25, twelfth round): with `--warm PREFIX` the frames and dumps are taken from
the run's own record, PREFIX.segments (input frames per segment, written by the driver), and
only the dumps of segment WARM_FROM (2 unless given) on count: play-K, idle-K, gap-play-K,
gap-idle-K for K >= WARM_FROM. Every loop of a recording is the same input, so what is done
once (first-use type metadata, a keymap's first lookups, lazily made tables) falls in the
first segment and the idle window after it, where the rest of its playback spills.

Give the kiosk every dump but `start`: the kiosk does nothing when idle (133 instructions per
idle window, vgdb's wake-up), and under load it can still be working through a segment's
events when the driver takes the playback dump, so that part of the playback lands in the
next `gap-idle` dump (the driver's own per-frame figure counts only `play` dumps). Self cost
of the kiosk binary is split by the Swift module of each function's mangled name (SeatKit,
SeatKitWayland, SeatKitLibinput, SeatKitHeadlessShell, SeatKitXKB, kiosk, stdlib for the
standard library's specializations); the calls from each module into libswiftCore are listed
with their inclusive cost (retains, releases, exclusivity checks: the runtime's share by caller).

The kiosk's own calloc (examples/kiosk-calloc: glibc's malloc and memset in place of glibc 2.36's
calloc, for every library in the process; issue 25, thirteenth round) is C in the kiosk binary
but the allocator's work, which libc's calloc did before: it is counted apart ("calloc"), not in
"SeatKit + Swift runtime", so that figure means what it meant in earlier rounds.
"""
import collections, os, re, sys
if sys.argv[1] == '--warm':
    prefix = sys.argv[2]; warm_from = int(os.environ.get('WARM_FROM', '2'))
    segments = [l.split() for l in open(prefix + '.segments') if l.strip()]
    frames = float(sum(int(n) for k, n in segments if int(k) >= warm_from))
    directory, base = os.path.split(prefix)
    dumps = []
    for f in sorted(os.listdir(directory or '.')):
        if not f.startswith(base + '.'): continue
        m = re.search(r'-(\d+)$', f[len(base) + 1:])
        if m and int(m.group(1)) >= warm_from: dumps.append(os.path.join(directory, f))
    sys.argv[2:] = dumps
    print('once warm: segments %d on, %d frames, %d dumps' % (warm_from, frames, len(dumps)))
else:
    frames = float(sys.argv[1])
own = collections.Counter(); edges = collections.Counter(); ncalls = collections.Counter()
ALLOCATOR = ('kiosk_calloc', 'calloc')
def module(fn):
    if fn in ALLOCATOR: return 'calloc'
    m = re.match(r'\$s(\d+)([A-Za-z_]\w*)', fn)
    if m:
        return m.group(2)[:int(m.group(1))]
    if fn.startswith('$s'): return 'stdlib'
    return 'other'
for path in sys.argv[2:]:
    objects, functions = {}, {}
    def name(value, table):
        m = re.match(r'\((\d+)\)\s*(.*)', value)
        if not m: return value
        if m.group(2): table[m.group(1)] = m.group(2)
        return table.get(m.group(1), m.group(1))
    ob = fn = cob = cfn = ''; pending = None
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if not line: continue
        if line[0].isdigit() or line[0] in '+-*':
            f = line.split()
            if len(f) < 2: continue
            ir = int(f[-1])  # the last field: Ir after the positions (line, or instr and line)
            if pending is not None:
                edges[(os.path.basename(ob), fn, os.path.basename(cob), cfn)] += ir
                ncalls[(os.path.basename(ob), fn, os.path.basename(cob), cfn)] += pending
                pending = None; cob = ob
            else:
                own[(os.path.basename(ob), fn)] += ir
        elif line.startswith('ob='): ob = cob = name(line[3:], objects)
        elif line.startswith('cob='): cob = name(line[4:], objects)
        elif line.startswith('fn='): fn = name(line[3:], functions); cob = ob
        elif line.startswith('cfn='): cfn = name(line[4:], functions)
        elif line.startswith('calls='): pending = int(line[6:].split()[0])
byob = collections.Counter()
for (o, f), v in own.items(): byob[o] += v
total = sum(byob.values())
print('total per frame %.0f' % (total / frames))
print('  ' + ', '.join('%s %.0f' % (o, v / frames) for o, v in byob.most_common() if v / frames >= 1))
isk = lambda o: o.startswith('kiosk')
mods = collections.Counter(); fns = collections.defaultdict(collections.Counter)
for (o, f), v in own.items():
    if isk(o): mods[module(f)] += v; fns[module(f)][f] += v
rt = collections.Counter(); rtf = collections.defaultdict(collections.Counter)
for (o, f, co, cf), v in edges.items():
    if isk(o) and 'libswiftCore' in co: rt[module(f)] += v; rtf[module(f)][f + ' -> ' + cf] += v
swift = sum(v for (o, f), v in own.items() if 'libswiftCore' in o)
swiftkit = sum(v for m, v in mods.items() if m != 'calloc')
print('SeatKit + Swift runtime (kiosk binary but its calloc + libswiftCore own) %.0f: kiosk binary %.0f, libswiftCore %.0f; the kiosk\'s calloc apart %.0f'
      % ((swiftkit + swift) / frames, swiftkit / frames, swift / frames, mods['calloc'] / frames))
print('by module: own | calls into libswiftCore (inclusive) | top functions (own)')
for m, v in mods.most_common():
    top = ', '.join('%s %.0f' % (re.sub(r'^\$s\d+', '', f)[:60], x / frames) for f, x in fns[m].most_common(int(os.environ.get('TOP', '4'))))
    print('  %-22s %6.0f | %5.0f | %s' % (m, v / frames, rt[m] / frames, top))
if os.environ.get('CALLERS'):
    for m in os.environ['CALLERS'].split(','):
        print('runtime calls from', m)
        for k, v in rtf[m].most_common(12): print('   %6.1f %s' % (v / frames, k[:170]))
