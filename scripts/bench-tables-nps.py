#!/usr/bin/env python3
"""Nodes per second of `oware uci` at a fixed move time with endgame tables
(docs/TABLEBASE.md, "Cold and warm page cache"): no tables, tables up to
20 seeds, tables up to MAX warm, and tables up to MAX with the page cache
dropped after the engine opened them (needs root for
/proc/sys/vm/drop_caches). Alternating rounds; one line a search.

    scripts/bench-tables-nps.py --oware target/release/oware --dir D [--movetime 2000] [--rounds 2]

D holds oware-tb-00.otb .. oware-tb-MAX.otb; the 20-seed set is a folder of
links to its first 21 files.
"""
import argparse
import os
import subprocess
import tempfile
import time

POSITIONS = [  # middle-game positions of 26-30 seeds from a self-play game
    "6-0-1-4-0-5-7-0-2-0-4-1-9-9-S",
    "1-3-2-7-0-2-0-0-6-0-7-2-9-9-S",
    "3-1-6-0-0-1-0-3-0-1-10-1-11-11-S",
]


def drop_caches():
    subprocess.run(["sync"], check=True)
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")


def rss_file_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("RssFile"):
                return int(line.split()[1])
    return -1


def search(oware, args, pos, movetime, cold):
    t0 = time.time()
    p = subprocess.Popen([oware, "uci"] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def until(prefix):
        last = None
        for line in p.stdout:
            if line.startswith("info") and " nodes " in line:
                last = line.split()
            if line.startswith(prefix):
                return last
        raise RuntimeError(f"the engine stopped before '{prefix}'")

    send("uci")
    until("uciok")
    send("isready")
    until("readyok")
    opened = time.time() - t0
    if cold:
        drop_caches()
    send(f"position fen {pos}")
    send(f"go movetime {movetime}")
    last = until("bestmove")
    rss = rss_file_kb(p.pid)
    send("quit")
    p.wait()
    info = {last[i]: last[i + 1] for i in range(len(last) - 1)}
    return int(info["nodes"]), int(info["time"]), info.get("depth"), opened, rss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oware", default="target/release/oware")
    ap.add_argument("--dir", required=True)
    ap.add_argument("--movetime", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=2)
    a = ap.parse_args()
    top = max(int(f[9:11]) for f in os.listdir(a.dir) if f.startswith("oware-tb-") and f.endswith(".otb"))
    t20 = tempfile.mkdtemp(prefix="tb20-")
    for i in range(21):
        os.symlink(os.path.abspath(os.path.join(a.dir, f"oware-tb-{i:02}.otb")), os.path.join(t20, f"oware-tb-{i:02}.otb"))
    cases = [
        ("none", ["--no-tablebases"], False),
        ("0..20", ["--tablebases", t20], False),
        (f"0..{top} warm", ["--tablebases", a.dir], False),
        (f"0..{top} cold", ["--tablebases", a.dir], True),
    ]
    for rnd in range(a.rounds):
        for pos in POSITIONS:
            for label, args, cold in cases:
                load = " ".join(open("/proc/loadavg").read().split()[:3])
                n, ms, depth, opened, rss = search(a.oware, args, pos, a.movetime, cold)
                print(
                    f"round {rnd + 1} {pos:34} {label:11} depth {depth:>3} nodes {n:>9} time {ms} ms "
                    f"nps {n * 1000 // max(ms, 1):>8} opened in {opened:.2f} s rss-file {rss} kB load {load}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
