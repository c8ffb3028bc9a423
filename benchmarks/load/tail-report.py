"""Sets each slow request of one-connection.py beside what ran on the gateway's core meanwhile.

Input: the file one-connection.py wrote, and `perf script -F time,trace` of sched_switch events
recorded on that core (perf record -k mono, so both use CLOCK_MONOTONIC). For each slow request
it adds up how long each task held the core between the request's start and its end; a request
held while the core ran "swapper" (idle) was waiting on the other core (the caller, the upstream)
or on the host.

Usage: tail-report.py SLOW_REQUESTS SCHED_SCRIPT
"""
import bisect
import collections
import re
import sys

SWITCH = re.compile(r"([\d.]+):\s+prev_comm=(.*?) prev_pid=\d+ .*?==> next_comm=(.*?) next_pid=\d+")

with open(sys.argv[1]) as slow_file:
    summary = slow_file.readline().strip()
    slow = [tuple(map(float, line.split())) for line in slow_file if line.strip()]

switches = []  # (time, the task that runs from then on)
with open(sys.argv[2]) as sched_file:
    for line in sched_file:
        match = SWITCH.search(line)
        if match:
            switches.append((float(match.group(1)), match.group(3)))
times = [time for time, _ in switches]
if not switches:
    sys.exit("no sched_switch events in " + sys.argv[2])

held_ms = collections.Counter()
requests = collections.Counter()
worst = []
for started, latency_ms in slow:
    end = started + latency_ms / 1000
    if started < times[0] or end > times[-1]:
        continue
    i = bisect.bisect_right(times, started)
    running, since = switches[i - 1][1], started
    on_core = collections.Counter()
    while i < len(switches) and times[i] < end:
        on_core[running] += times[i] - since
        running, since = switches[i][1], times[i]
        i += 1
    on_core[running] += end - since
    for task, seconds in on_core.items():
        held_ms[task] += seconds * 1000
        requests[task] += 1
    worst.append((latency_ms, on_core.most_common(3)))

print(summary)
print(f"time on the gateway's core during the {len(worst)} slow requests, by task (ms, requests it delayed):")
total = sum(held_ms.values())
for task, ms in held_ms.most_common(15):
    print(f"  {task:20s} {ms:8.1f} ms {100 * ms / total:5.1f} %  {requests[task]:5d}")
print("the ten slowest:")
for latency_ms, tasks in sorted(worst, reverse=True)[:10]:
    print(f"  {latency_ms:7.3f} ms: " + ", ".join(f"{task} {seconds * 1000:.2f}" for task, seconds in tasks))
