#!/usr/bin/env python3
"""Trains the engine's evaluation network (oware_engine::nn) with numpy.

Reads files written by `oware tune nn-gen` (one position a line: position,
game result, search value, exact table result or '-', active inputs, and in
newer files the exact final margin or '-') and
writes the quantised network file and a reference file of float-model
values that the Rust tests compare with the integer inference.

Target for each position, as a probability of winning for the mover: the
tables' exact result when known, else a blend of the search value (through
a logistic of fitted scale S centi-seeds) and the game's result. The
network's output is a logit; times S it is centi-seeds. With --margin W,
a position whose final margin the tables know exactly is aimed at
(1 - W) × its result + W × the logistic of that margin, so the network also
learns by how much a won game is won. With --buckets B the output weights
and bias come in B buckets by the seeds on the board (oware_engine::nn::bucket).

Everything is seeded: the same data and arguments give the same file.
"""

import argparse
import struct
import sys
import zlib

import numpy as np

INPUTS = 12 * 17 + 2 * 26 + 16
ACTIVE = 15
HIDDEN = 32
Q1 = 2048
Q2 = 64
MAGIC = b"OWARENN\n"
PROVEN = 20000
NO_MARGIN = -1000


def bucket_of(pos, buckets):
    """oware_engine::nn::bucket: the seeds on the board cut into equal parts."""
    seeds = sum(int(x) for x in pos.split("-")[:12])
    return min(seeds * buckets // 49, buckets - 1)


def read(files):
    pos, res, score, exact, idx, margin = [], [], [], [], [], []
    for f in files:
        with open(f) as fh:
            for line in fh:
                fields = line.split()
                p, r, s, e, a = fields[:5]
                m = fields[5] if len(fields) > 5 else "-"
                pos.append(p)
                res.append(float(r))
                score.append(int(s))
                exact.append(-1.0 if e == "-" else float(e))
                idx.append([int(x) for x in a.split(",")])
                margin.append(NO_MARGIN if m == "-" else int(m))
    return (
        pos,
        np.array(res),
        np.array(score, dtype=np.float64),
        np.array(exact),
        np.array(idx, dtype=np.int64),
        np.array(margin, dtype=np.float64),
    )


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def logloss(p, t):
    p = np.clip(p, 1e-7, 1 - 1e-7)
    return float(np.mean(-(t * np.log(p) + (1 - t) * np.log(1 - p))))


def fit_scale(score, res):
    """The S that best predicts the game result from the search value."""
    ok = np.abs(score) < PROVEN
    best = None
    for s in np.arange(40.0, 1500.0, 5.0):
        l = logloss(sigmoid(score[ok] / s), res[ok])
        if best is None or l < best[0]:
            best = (l, s)
    return best[1], best[0]


def search_prob(score, scale):
    p = sigmoid(np.clip(score, -3000, 3000) / scale)
    p = np.where(score >= PROVEN, 1.0, p)
    p = np.where(score <= -PROVEN, 0.0, p)
    return p


class Net:
    def __init__(self, rng, buckets, hidden):
        self.w1 = rng.normal(0.0, 0.15, (INPUTS, hidden))
        self.b1 = np.full(hidden, 0.3)
        w2 = rng.normal(0.0, 0.3, hidden)
        # Every bucket starts from the same output (one bucket: as before).
        self.w2 = np.tile(w2, (buckets, 1))
        self.b2 = np.zeros(buckets)
        self.lin = np.zeros(INPUTS)

    def params(self):
        return [self.w1, self.b1, self.w2, self.b2, self.lin]

    def forward(self, idx, bk):
        pre = self.b1 + self.w1[idx].sum(axis=1)
        h = np.clip(pre, 0.0, 1.0)
        z = self.b2[bk] + np.einsum("nh,nh->n", h, self.w2[bk]) + self.lin[idx].sum(axis=1)
        return pre, h, z

    def grads(self, idx, bk, t):
        pre, h, z = self.forward(idx, bk)
        n = len(t)
        dz = (sigmoid(z) - t) / n
        g_b2 = np.zeros_like(self.b2)
        np.add.at(g_b2, bk, dz)
        g_w2 = np.zeros_like(self.w2)
        np.add.at(g_w2, bk, h * dz[:, None])
        g_lin = np.zeros(INPUTS)
        np.add.at(g_lin, idx.ravel(), np.repeat(dz, ACTIVE))
        dh = dz[:, None] * self.w2[bk] * ((pre > 0) & (pre < 1))
        g_b1 = dh.sum(axis=0)
        g_w1 = np.zeros_like(self.w1)
        np.add.at(g_w1, idx.ravel(), np.repeat(dh, ACTIVE, axis=0))
        return [g_w1, g_b1, g_w2, g_b2, g_lin]


def train(net, idx, bk, t, vidx, vbk, vt, epochs, lr, batch, decay, rng, log):
    ps = net.params()
    m = [np.zeros_like(p) for p in ps]
    v = [np.zeros_like(p) for p in ps]
    step = 0
    n = len(t)
    for ep in range(epochs):
        order = rng.permutation(n)
        rate = lr * (0.5 * (1 + np.cos(np.pi * ep / epochs)))
        for at in range(0, n, batch):
            b = order[at : at + batch]
            gs = net.grads(idx[b], bk[b], t[b])
            step += 1
            for k, (p, g) in enumerate(zip(ps, gs)):
                if k in (0, 4):
                    g = g + decay * p
                m[k] = 0.9 * m[k] + 0.1 * g
                v[k] = 0.999 * v[k] + 0.001 * g * g
                mh = m[k] / (1 - 0.9**step)
                vh = v[k] / (1 - 0.999**step)
                p -= rate * mh / (np.sqrt(vh) + 1e-8)
        tl = logloss(sigmoid(net.forward(idx, bk)[2]), t)
        vl = logloss(sigmoid(net.forward(vidx, vbk)[2]), vt)
        log(f"epoch {ep + 1}/{epochs}: loss train {tl:.5f} held out {vl:.5f}")


def quantise(net, scale):
    def q(a, unit, lo, hi):
        return np.clip(np.rint(a * unit), lo, hi).astype(np.int64)

    w1 = q(net.w1, Q1, -32768, 32767)
    b1 = q(net.b1, Q1, -32768, 32767)
    big = 2**31 - 1
    w2 = q(net.w2 * scale, Q2, -big, big)
    b2 = q(net.b2 * scale, Q2, -big, big)
    lin = q(net.lin * scale, Q2, -big, big)
    return w1, b1, w2, b2, lin


def int_eval(qn, idx, bk):
    w1, b1, w2, b2, lin = qn
    acc = b1 + w1[idx].sum(axis=1)
    out = (b2[bk] + lin[idx].sum(axis=1)) * Q1 + np.einsum("nh,nh->n", np.clip(acc, 0, Q1), w2[bk])
    unit = Q1 * Q2
    return (out + unit // 2) // unit


def to_bytes(qn):
    w1, b1, w2, b2, lin = qn
    buckets = len(b2)
    # One bucket: format version 1, as before buckets; else version 2.
    version, field = (1, 0) if buckets == 1 else (2, buckets)
    out = MAGIC + struct.pack("<IHHHHI", version, INPUTS, w1.shape[1], Q1, Q2, field)
    out += w1.astype("<i2").tobytes() + b1.astype("<i2").tobytes()
    out += w2.astype("<i4").tobytes() + b2.astype("<i4").tobytes()
    out += lin.astype("<i4").tobytes()
    return out + struct.pack("<I", zlib.crc32(out))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--reference", required=True)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--lr", type=float, default=0.003)
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--decay", type=float, default=1e-4)
    ap.add_argument("--blend", type=float, default=0.75,
                    help="weight of the search value against the game result")
    ap.add_argument("--margin", type=float, default=0.0,
                    help="weight of the tables' exact final margin against their result")
    ap.add_argument("--buckets", type=int, default=1,
                    help="output buckets by the seeds on the board (1 to 16)")
    ap.add_argument("--hidden", type=int, default=HIDDEN,
                    help="hidden units (a multiple of 8; the engine reads the number its build has, "
                         "oware_engine::nn::HIDDEN)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if a.hidden <= 0 or a.hidden % 8:
        ap.error(f"--hidden {a.hidden}: a positive multiple of 8")
    log = lambda s: print(s, file=sys.stderr, flush=True)

    pos, res, score, exact, idx, margin = read(a.files)
    assert idx.shape[1] == ACTIVE and idx.max() < INPUTS
    assert 1 <= a.buckets <= 16
    bk = np.array([bucket_of(p, a.buckets) for p in pos], dtype=np.int64)
    scale, sl = fit_scale(score, res)
    log(f"{len(res)} positions, {int((exact >= 0).sum())} with exact table results")
    log(f"scale S = {scale:.0f} centi-seeds per logit (search value vs result: log-loss {sl:.5f})")
    t = a.blend * search_prob(score, scale) + (1 - a.blend) * res
    t = np.where(exact >= 0, exact, t)
    known = (exact >= 0) & (margin != NO_MARGIN)
    log(f"{int(known.sum())} with the exact final margin; margin weight {a.margin}, "
        f"{a.buckets} output bucket(s)")
    if a.margin > 0:
        t = np.where(known, (1 - a.margin) * exact + a.margin * sigmoid(margin * 100.0 / scale), t)

    # The last tenth of the positions (the last games) is held out.
    cut = len(t) * 9 // 10
    rng = np.random.default_rng(a.seed)
    net = Net(rng, a.buckets, a.hidden)
    train(net, idx[:cut], bk[:cut], t[:cut], idx[cut:], bk[cut:], t[cut:], a.epochs, a.lr,
          a.batch, a.decay, rng, log)

    z = net.forward(idx[cut:], bk[cut:])[2]
    log(f"held out: log-loss vs target {logloss(sigmoid(z), t[cut:]):.5f}, "
        f"vs game result {logloss(sigmoid(z), res[cut:]):.5f}; "
        f"search value vs game result {logloss(search_prob(score[cut:], scale), res[cut:]):.5f}")

    log(f"largest first-layer weight {np.abs(net.w1).max():.3f} (i16 holds {32767 / Q1:.3f})")
    qn = quantise(net, scale)
    fl = z * scale
    it = int_eval(qn, idx[cut:], bk[cut:])
    log(f"quantised vs float on held out: max |diff| {np.max(np.abs(it - fl)):.2f} cp, "
        f"mean {np.mean(np.abs(it - fl)):.2f} cp")
    data = to_bytes(qn)
    with open(a.out, "wb") as fh:
        fh.write(data)
    with open(a.reference, "w") as fh:
        fh.write("# position, float-model value in centi-seeds (scripts/train-nn.py)\n")
        step = max(1, (len(t) - cut) // 200)
        for k in range(cut, len(t), step)[:200]:
            fh.write(f"{pos[k]} {z[k - cut] * scale:.3f}\n")
    log(f"wrote {a.out} ({len(data)} bytes) and {a.reference}")


if __name__ == "__main__":
    main()
