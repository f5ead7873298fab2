#!/usr/bin/env bash
# Runs a timing measurement (a match, a time-to-depth run, a bench) so that
# the machine's niced work really yields to it:
#
#   scripts/timing-run.sh COMMAND [ARGS...]
#
# Linux with `kernel.sched_autogroup_enabled = 1` (the default of most
# distributions) shares the CPU first between sessions (autogroups), and a
# process's nice value only counts inside its own session. A build at
# `nice -n 19` started from another terminal or session then still takes
# its session's whole share: on a 2-core machine with one such build
# running, a measurement at nice 0 gets one core, not two, and a search on
# two threads runs each of them at about half speed (docs/ENGINE.md,
# "Threads on a shared machine"). This script starts COMMAND in a session
# of its own (`setsid`) and gives that session's autogroup the highest
# priority (nice -20, which needs root or CAP_SYS_NICE), so the other
# sessions' work runs only on what the measurement leaves. Where that is
# not possible (no autogroups, no permission) it says so on stderr and
# runs COMMAND anyway. It does not change any other process, and the
# priority ends with COMMAND and its children.
set -euo pipefail
if [ $# -eq 0 ]; then
    echo "usage: scripts/timing-run.sh COMMAND [ARGS...]" >&2
    exit 2
fi
exec setsid --wait bash -c '
if ! { echo -20 > /proc/self/autogroup; } 2>/dev/null; then
    echo "timing-run.sh: cannot raise this session'"'"'s autogroup priority; running at the usual one" >&2
fi
exec "$@"' timing-run "$@"
