#!/usr/bin/env python3
"""Microseconds a request, side by side, from cpu-per-request.sh's PROFILE_DIR.

    stacks.py DIR/1-1.collapsed DIR/1-2.collapsed [--under REGEX] [--depth N] [--min US]

Each file is async-profiler's collapsed output (one stack a line, its samples last, one sample a
millisecond of CPU); its request count comes from requests.txt beside it. Without --under, the CPU
by thread (carriers, the writers, the JIT, GC). With --under, the tree below the first frame of each
stack that matches REGEX, DEPTH levels deep, where comparing two builds names what costs more.
Lambda and thread ids are folded, so that two builds' frames line up.
"""
import argparse
import collections
import os
import re


def fold(frame):
    frame = re.sub(r'_\[[a-z0-9]\]$', '', frame)
    frame = re.sub(r'\$\$Lambda[./]0x[0-9a-f]+', '$$Lambda', frame)
    if frame.startswith('['):
        frame = re.sub(r'tid=\d+', '', re.sub(r'-\d+', '-#', frame))
    return frame


def requests_of(path):
    folder, name = os.path.split(path)
    with open(os.path.join(folder, 'requests.txt')) as listing:
        for line in listing:
            fields = line.split()
            if fields[0] == name:
                return int(fields[1]), fields[2] if len(fields) > 2 else name
    raise SystemExit(f'{name} is not in {folder}/requests.txt')


def tally(path, under, depth):
    requests, build = requests_of(path)
    sums = collections.Counter()
    with open(path) as stacks:
        for line in stacks:
            stack, samples = line.rsplit(' ', 1)
            frames = [fold(frame) for frame in stack.split(';')]
            if under is None:
                sums[(frames[0],)] += int(samples)
                continue
            for i, frame in enumerate(frames):
                if under.fullmatch(frame):
                    below = frames[i + 1:i + 1 + depth] or ['<self>']
                    for level in range(1, len(below) + 1):
                        sums[tuple(below[:level])] += int(samples)
                    break
    # One sample is a millisecond of CPU: 1000 us.
    return build, {path_: count * 1000.0 / requests for path_, count in sums.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('files', nargs='+')
    parser.add_argument('--under', help='a regular expression matching a whole (folded) frame')
    parser.add_argument('--depth', type=int, default=3)
    parser.add_argument('--min', type=float, default=0.05, help='hide rows under this many us in every build')
    args = parser.parse_args()
    under = re.compile(args.under) if args.under else None
    builds = [tally(path, under, args.depth) for path in args.files]
    for build, _ in builds:
        print(f'# {build}')
    totals = [sum(v for k, v in sums.items() if len(k) == 1) for _, sums in builds]
    print(' '.join(f'{t:8.2f}' for t in totals), '  all')
    rows = set().union(*(sums.keys() for _, sums in builds))
    # A tree reads parent first; threads read largest first.
    rows = sorted(rows) if under else sorted(rows, key=lambda row: -max(sums.get(row, 0.0) for _, sums in builds))
    for row in rows:
        values = [sums.get(row, 0.0) for _, sums in builds]
        if max(values) >= args.min:
            name = row[-1].rsplit('/', 1)[-1]
            print(' '.join(f'{v:8.2f}' for v in values), '  ' * len(row) + name[:110])


if __name__ == '__main__':
    main()
