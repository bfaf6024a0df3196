#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Trains a network on Axon data files with PyTorch and exports it in a format Axon plays.

Reads the data files of src/data/record_file.h with numpy (memory-mapped, header validated),
trains with the loss of Axon's own trainer (docs/training.md) and writes a safetensors file
(docs/float-nets.md) by hand, without the safetensors package:
  --model perspective  (768 -> H) x 2 -> 1, SCReLU, the features of src/nn/arch.h (no king
                       buckets, no mirroring); exported as `axon-perspective`, so EvalFile plays
                       it in float and `axon net import` quantises it into a .nnue
  --model mlp          dense layers over a plain board encoding (`axon-float-model`)
  --model cnn          3x3 convolutions over the encoding's planes, then dense layers
Records hold castling rights (data format version 2; version 1 files hold none) but no
en-passant square, so the encodings' en-passant input is always 0 here; the positions Axon is
asked to check (--verify-with) carry the same rights and no en-passant square.

  scripts/torch_train.py data.axd --model mlp --epochs 4 --out mlp.safetensors \\
      --verify-with build/axon
Needs numpy and torch (Debian: apt-get install python3-numpy python3-torch).
"""
import argparse
import ctypes
import json
import math
import os
import re
import struct
import subprocess
import sys
import time

import numpy as np
import torch
from torch import nn

HEADER = struct.Struct("<8sIIQQ")  # magic, version, record size, count, reserved
RECORD = np.dtype([("occ", "<u8"), ("pieces", "u1", 16), ("score", "<i2"), ("result", "u1"),
                   ("flags", "u1"), ("move", "<u2"), ("ply", "<u2")])
assert HEADER.size == 32 and RECORD.itemsize == 32
PIECE_LETTERS = "PNBRQKpnbrqk"  # code = colour * 6 + type


class DataError(Exception):
    pass


def open_records(path):
    """The records of an Axon data file as a read-only structured memmap."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        head = f.read(HEADER.size)
    if len(head) < HEADER.size:
        raise DataError(f"{path}: shorter than the 32-byte header")
    magic, version, record_size, count, reserved = HEADER.unpack(head)
    if magic != b"AXONDATA":
        raise DataError(f"{path}: not an Axon training-data file (bad magic)")
    if version not in (1, 2):  # 2 added castling rights to the flags
        raise DataError(f"{path}: unsupported data format version {version}")
    if record_size != RECORD.itemsize:
        raise DataError(f"{path}: record size {record_size} is not 32")
    if reserved != 0:
        raise DataError(f"{path}: reserved header bytes are not zero")
    if size != HEADER.size + count * RECORD.itemsize:
        raise DataError(f"{path}: header says {count} records but the file has {size} bytes "
                        "(truncated or corrupt)")
    if count == 0:
        raise DataError(f"{path}: no records")
    return np.memmap(path, dtype=RECORD, mode="r", offset=HEADER.size, shape=(count,))


class Batch:
    """Records decoded into flat piece lists: piece i stands on square[i] in record row[i];
    records[n]'s pieces are the slice starts[n]:starts[n]+counts[n], in ascending square order."""

    def __init__(self, recs, score_limit):
        recs = np.asarray(recs)
        occ = np.ascontiguousarray(recs["occ"]).view(np.uint8).reshape(-1, 8)
        popcount = np.unpackbits(occ, axis=1).sum(1)
        usable = ((popcount >= 2) & (popcount <= 32) & (recs["result"] <= 2) &
                  (recs["flags"] <= 31) & (np.abs(recs["score"].astype(np.int32)) <= score_limit))
        self._decode(recs[usable])
        bad = np.unique(self.row[self.code >= 12])
        if bad.size:  # a nibble beyond Black king: drop those records too
            self._decode(np.delete(self.recs, bad))

    def _decode(self, recs):
        self.recs = recs
        bits = np.unpackbits(np.ascontiguousarray(recs["occ"]).view(np.uint8).reshape(-1, 8),
                             axis=1, bitorder="little")  # bit s of the little-endian word
        self.row, self.square = np.nonzero(bits)  # row-major: ascending squares per record
        self.counts = bits.sum(1, dtype=np.int64)
        self.starts = np.cumsum(self.counts) - self.counts
        nth = np.arange(self.row.size) - np.repeat(self.starts, self.counts)
        nibbles = recs["pieces"][self.row, nth >> 1]
        self.code = (nibbles >> ((nth & 1) * 4).astype(np.uint8)) & 15
        self.black = (recs["flags"] & 1).astype(np.int64)  # 1: Black to move
        self.castling = (recs["flags"] >> 1) & 15  # bits: K, Q, k, q

    def __len__(self):
        return len(self.recs)

    def targets(self, K, wdl):
        score = torch.from_numpy(self.recs["score"].astype(np.float32))
        result = torch.from_numpy(self.recs["result"].astype(np.float32)) / 2
        return (1 - wdl) * torch.sigmoid(score / K) + wdl * result

    def fen(self, n):
        board = ["1"] * 64
        for i in range(self.starts[n], self.starts[n] + self.counts[n]):
            board[self.square[i]] = PIECE_LETTERS[self.code[i]]
        ranks = ["".join(board[r * 8:r * 8 + 8]) for r in range(7, -1, -1)]
        placement = re.sub("1+", lambda m: str(len(m.group())), "/".join(ranks))
        rights = "".join(c for bit, c in enumerate("KQkq") if self.castling[n] >> bit & 1)
        return f"{placement} {'b' if self.black[n] else 'w'} {rights or '-'} - 0 1"


# ---- plain board encodings (docs/float-nets.md), with bitboard attacks in numpy ----

U64 = np.uint64
NOT_A, NOT_H = U64(0xFEFEFEFEFEFEFEFE), U64(0x7F7F7F7F7F7F7F7F)
NOT_AB, NOT_GH = U64(0xFCFCFCFCFCFCFCFC), U64(0x3F3F3F3F3F3F3F3F)
ALL = U64(0xFFFFFFFFFFFFFFFF)
ROOK_DIRS = [(8, ALL), (-8, ALL), (1, NOT_A), (-1, NOT_H)]  # (shift, mask against wrapping)
BISHOP_DIRS = [(9, NOT_A), (7, NOT_H), (-7, NOT_A), (-9, NOT_H)]
KNIGHT_DIRS = [(17, NOT_A), (15, NOT_H), (10, NOT_AB), (6, NOT_GH), (-6, NOT_AB), (-10, NOT_GH),
               (-15, NOT_A), (-17, NOT_H)]


def step(b, direction):
    shift, mask = direction
    return ((b << U64(shift)) if shift > 0 else (b >> U64(-shift))) & mask


def slide(sliders, empty, direction):
    """Squares the sliders attack along one direction, up to and including the first blocker."""
    flood = gen = sliders
    for _ in range(6):
        gen = step(gen, direction) & empty
        flood |= gen
    return step(flood, direction)


def attacked_by(bb, colour, empty):
    """Squares attacked by `colour` (0 White, 1 Black); bb: [N, 12] piece bitboards."""
    p, n, b, r, q, k = (bb[:, colour * 6 + t] for t in range(6))
    pawn_dirs = BISHOP_DIRS[:2] if colour == 0 else BISHOP_DIRS[2:]
    att = step(p, pawn_dirs[0]) | step(p, pawn_dirs[1])
    for d in KNIGHT_DIRS:
        att |= step(n, d)
    for d in ROOK_DIRS + BISHOP_DIRS:
        att |= step(k, d)
    for d in ROOK_DIRS:
        att |= slide(r | q, empty, d)
    for d in BISHOP_DIRS:
        att |= slide(b | q, empty, d)
    return att


ENCODINGS = {"onehot768+": (12, 5), "planes8x8x14+6": (14, 6)}  # planes, scalars


def encode(batch, encoding):
    """[N, planes * 64 + scalars] float32: piece planes (+ attack planes), side to move, castling
    rights (+ en passant, always 0: records hold none)."""
    planes, scalars = ENCODINGS[encoding]
    n = len(batch)
    x = np.zeros((n, planes * 64 + scalars), np.float32)
    x[batch.row, batch.code.astype(np.int64) * 64 + batch.square] = 1
    if planes == 14:
        pieces = x[:, :768].reshape(n, 12, 64).astype(bool)
        bb = np.packbits(pieces, axis=2, bitorder="little").view("<u8")[:, :, 0]
        empty = ~np.bitwise_or.reduce(bb, axis=1)
        for colour in (0, 1):
            att = attacked_by(bb, colour, empty)
            x[:, (12 + colour) * 64:(13 + colour) * 64] = np.unpackbits(
                att.view(np.uint8).reshape(n, 8), axis=1, bitorder="little")
    x[:, planes * 64] = 1 - batch.black  # White to move
    for bit in range(4):  # White king side, White queen side, Black king side, Black queen side
        x[:, planes * 64 + 1 + bit] = (batch.castling >> bit) & 1
    return torch.from_numpy(x)


# ---- models: prepare(batch) -> inputs, forward(*inputs) -> output (cp = output * scale) ----

class Perspective(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.hidden = hidden
        # Sparse first layer: each perspective sums the rows of its <= 32 active features, as one
        # sparse x dense product over both perspectives (torch.sparse.mm; its backward only
        # touches the active rows). nn.EmbeddingBag(mode="sum") computes the same and measured
        # 2.2x slower forward + backward here (Debian's torch 1.13, one thread).
        self.ft_weight = nn.Parameter(torch.empty(768, hidden))
        self.ft_bias = nn.Parameter(torch.zeros(hidden))
        self.out = nn.Linear(2 * hidden, 1)
        with torch.no_grad():  # as Axon's trainer (docs/training.md)
            self.ft_weight.uniform_(-1 / math.sqrt(32), 1 / math.sqrt(32))
            self.out.weight.uniform_(-1 / math.sqrt(2 * hidden), 1 / math.sqrt(2 * hidden))
            self.out.bias.zero_()

    def prepare(self, batch):
        """src/nn/arch.h featureIndex: (own/their * 6 + type) * 64 + square, ranks flipped for
        Black's perspective. Rows 0..N-1: the side to move's view; N..2N-1: the other side's."""
        colour, ptype = batch.code // 6, (batch.code % 6).astype(np.int64)
        black = batch.black[batch.row]
        theirs = (colour != black).astype(np.int64)  # from the side to move's view
        us = (theirs * 6 + ptype) * 64 + (batch.square ^ (56 * black))
        them = ((1 - theirs) * 6 + ptype) * 64 + (batch.square ^ (56 * (1 - black)))
        n = len(batch)
        rows = np.concatenate([batch.row, batch.row + n])
        features = torch.from_numpy(np.stack([rows, np.concatenate([us, them])]))
        return torch.sparse_coo_tensor(features, torch.ones(rows.size), (2 * n, 768)), n

    def forward(self, active, n):
        # SCReLU = clamp(x, 0, 1)^2; hardtanh is the fast clamp (torch.clamp and ** 2 measured
        # several times slower with autograd on this CPU build).
        h = nn.functional.hardtanh(torch.sparse.mm(active, self.ft_weight) + self.ft_bias, 0, 1)
        h = h * h
        return self.out(torch.cat([h[:n], h[n:]], 1)).squeeze(1)

    def clip(self, limit):
        """As Axon: keeps the weights inside what quantisation holds (output bias unclipped)."""
        for p in (self.ft_weight, self.ft_bias, self.out.weight):
            p.clamp_(-limit, limit)

    def export(self, scale):
        tensors = {"ft.weight": self.ft_weight, "ft.bias": self.ft_bias,
                   "out.weight": self.out.weight, "out.bias": self.out.bias}
        meta = {"format": "axon-perspective", "version": "1", "inputs": "768",
                "hidden": str(self.hidden), "activation": "screlu", "mirror": "false",
                "input_buckets": "1", "bucket_map": ",".join(["0"] * 64), "output_buckets": "1",
                "qa": "255", "qb": "64", "scale": f"{scale:g}", "trainer": "scripts/torch_train.py"}
        return tensors, meta


def dense_stack(sizes):
    layers = []
    for i in range(len(sizes) - 1):
        layers += [nn.Linear(sizes[i], sizes[i + 1]), nn.ReLU()]
    return nn.Sequential(*layers[:-1])  # no activation after the output


def describe_dense(seq, prefix):
    linear = [i for i, m in enumerate(seq) if isinstance(m, nn.Linear)]
    return [{"weight": f"{prefix}.{i}.weight", "bias": f"{prefix}.{i}.bias",
             "activation": "relu" if i != linear[-1] else "none"} for i in linear]


class FloatModel(nn.Module):
    """mlp: dense layers over the encoding; cnn: 3x3 convs (ReLU) over its planes, flattened
    channel-major, the scalars appended, then dense layers. Output from the side to move's view."""

    def __init__(self, kind, encoding, channels, layers):
        super().__init__()
        self.kind, self.encoding = kind, encoding
        self.planes, self.scalars = ENCODINGS[encoding]
        if kind == "cnn":
            convs, c = [], self.planes
            for out in channels:
                convs += [nn.Conv2d(c, out, kernel_size=3, padding=1), nn.ReLU()]
                c = out
            self.conv = nn.Sequential(*convs)
            width = c * 64 + self.scalars
        else:
            width = self.planes * 64 + self.scalars
        self.fc = dense_stack([width] + layers + [1])

    def prepare(self, batch):
        return (encode(batch, self.encoding),)

    def forward(self, x):
        if self.kind == "cnn":
            planes = x[:, :self.planes * 64].view(-1, self.planes, 8, 8)
            x = torch.cat([self.conv(planes).flatten(1), x[:, self.planes * 64:]], 1)
        return self.fc(x).squeeze(1)

    def clip(self, limit):
        pass  # float weights: nothing to saturate

    def export(self, scale):
        desc = {"format": "axon-float-model", "version": 1, "model": self.kind,
                "encoding": self.encoding, "scale": scale, "perspective": "side_to_move",
                "layers": describe_dense(self.fc, "fc"), "comment": "scripts/torch_train.py"}
        if self.kind == "cnn":
            desc["conv"] = [{"weight": f"conv.{i}.weight", "bias": f"conv.{i}.bias",
                             "activation": "relu"}
                            for i, m in enumerate(self.conv) if isinstance(m, nn.Conv2d)]
        return dict(self.state_dict()), {"axon": json.dumps(desc)}


def write_safetensors(path, tensors, metadata):
    """8-byte little-endian header length, the JSON header (padded with spaces to a multiple of
    8), then the F32 tensors back to back; written to path.tmp and renamed."""
    header, blobs, offset = {"__metadata__": metadata}, [], 0
    for name, t in tensors.items():
        data = t.detach().cpu().contiguous().numpy().astype("<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(t.shape),
                        "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path + ".tmp", "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))
    os.replace(path + ".tmp", path)


# ---- training ----

def keep_freed_memory():
    """glibc returns every block above its mmap threshold (<= 32 MB) to the kernel when freed, so
    each fresh [batch, 2H] activation page-faults its memory in again: elementwise ops measured
    ~50x slower than in-place ones. Serve everything from the heap and keep it (glibc only)."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-4, 0)  # M_MMAP_MAX: never mmap
        libc.mallopt(-1, 1 << 30)  # M_TRIM_THRESHOLD: keep up to 1 GB of freed heap
    except (OSError, AttributeError):
        pass


def batch_loss(model, batch, args):
    pred = torch.sigmoid(model(*model.prepare(batch)) * args.scale / args.K)
    return (pred - batch.targets(args.K, args.wdl)).abs().pow(args.power).mean()


def train(model, records, val, args):
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.999), eps=1e-8,
                            weight_decay=args.weight_decay)
    rng = np.random.default_rng(args.seed)
    batches = len(records) // args.batch
    if batches == 0:
        raise DataError(f"{len(records)} training records make no batch of {args.batch}")
    start = time.monotonic()
    for epoch in range(args.epochs):
        # Cosine from lr to lr * 0.01 over the epochs, constant within one (as `axon train`).
        t = epoch / (args.epochs - 1) if args.epochs > 1 else 0
        for g in opt.param_groups:
            g["lr"] = args.lr * (0.01 + 0.99 * 0.5 * (1 + math.cos(math.pi * t)))
        order = rng.permutation(len(records))
        epoch_start, epoch_cpu = time.monotonic(), time.process_time()
        loss_sum, seen, kept = 0.0, 0, 0
        for b in range(batches):
            # Sorted indices read the memory map in file order; the batch's order is irrelevant.
            batch = Batch(records[np.sort(order[b * args.batch:(b + 1) * args.batch])],
                          args.score_limit)
            loss = batch_loss(model, batch, args)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            with torch.no_grad():
                model.clip(args.clip)
            loss_sum += loss.item() * len(batch)
            seen, kept = seen + args.batch, kept + len(batch)
            if args.max_seconds and time.monotonic() - start > args.max_seconds:
                break
        seconds, cpu = time.monotonic() - epoch_start, time.process_time() - epoch_cpu
        line = (f"epoch {epoch + 1}/{args.epochs}: {seen} positions in {seconds:.2f} s = "
                f"{seen / seconds:.0f} pos/s (CPU {cpu:.2f} s), train loss {loss_sum / kept:.6f}")
        if val is not None:
            with torch.no_grad():
                line += f", val loss {batch_loss(model, val, args).item():.6f}"
        print(line, flush=True)
        if args.max_seconds and time.monotonic() - start > args.max_seconds:
            print(f"stopping: --max-seconds {args.max_seconds} reached", flush=True)
            break


# ---- checking the exported file against Axon ----

def axon_evals(axon, eval_file, fens):
    """Axon's UCI `eval` for each FEN with EvalFile = eval_file: (description, [cp, ...])."""
    lines = ["uci", f"setoption name EvalFile value {eval_file}", "isready"]
    for fen in fens:
        lines += [f"position fen {fen}", "eval"]
    proc = subprocess.run([axon], input="\n".join(lines + ["quit"]) + "\n", capture_output=True,
                          text=True, timeout=60)
    described = re.findall(r"^evaluation: (.*)$", proc.stdout, re.M)
    cps = [int(v) for v in re.findall(r"^network \(side to move\) (-?\d+) cp", proc.stdout, re.M)]
    if proc.returncode != 0 or len(cps) != len(fens):
        sys.exit(f"torch_train: {axon} did not evaluate every position with {eval_file}:\n"
                 f"{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    return described[0], cps


def verify(axon, path, model, batch, args):
    """Axon prints int(cp), truncated toward zero: it agrees with PyTorch within 0.5 cp when the
    printed value is the truncation of some value within 0.5 cp of PyTorch's."""
    with torch.no_grad():
        want = (model(*model.prepare(batch)) * args.scale).tolist()
    fens = [batch.fen(n) for n in range(len(batch))]
    described, got = axon_evals(axon, path, fens)
    print(f"verify: axon evaluates with {described}")
    failures = 0
    for fen, w, g in zip(fens, want, got):
        ok = g in (math.trunc(w - 0.5), math.trunc(w + 0.5))
        failures += not ok
        print(f"  torch {w:9.2f}  axon {g:6d}  {'ok' if ok else 'MISMATCH'}  {fen}")
    if isinstance(model, Perspective):
        nnue = os.path.splitext(path)[0] + ".nnue"
        proc = subprocess.run([axon, "net", "import", path, "--out", nnue], capture_output=True,
                              text=True)
        if proc.returncode != 0:
            sys.exit(f"torch_train: axon net import failed: {proc.stderr.strip()}")
        _, quantised = axon_evals(axon, nnue, fens)
        err = max(abs(q - w) for q, w in zip(quantised, want))
        print(f"verify: quantised {nnue}: largest difference from PyTorch {err:.1f} cp")
        if err > args.quantised_tolerance:
            failures += 1
    if failures:
        sys.exit(f"torch_train: {failures} check(s) failed against {axon}")
    print(f"verify: {len(fens)} positions agree within 0.5 cp")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data", nargs="+", help="Axon data files (records concatenated)")
    ap.add_argument("--model", choices=["perspective", "mlp", "cnn"], default="perspective")
    ap.add_argument("--hidden", type=int, default=256, help="perspective: accumulator size")
    ap.add_argument("--encoding", choices=list(ENCODINGS), default="planes8x8x14+6")
    ap.add_argument("--layers", default="451,32,32", help="mlp/cnn: hidden dense sizes")
    ap.add_argument("--channels", default="32,32", help="cnn: conv channels")
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--batch", type=int, default=16384)
    ap.add_argument("--lr", type=float, default=0.001)
    ap.add_argument("--weight-decay", type=float, default=0.01)
    ap.add_argument("--clip", type=float, default=1.98, help="perspective weight limit")
    ap.add_argument("--wdl", type=float, default=0.3, help="weight of the game result")
    ap.add_argument("--scale", type=float, default=400, help="centipawns per output unit")
    ap.add_argument("-K", type=float, default=400, help="sigmoid(score / K)")
    ap.add_argument("--power", type=float, default=2)
    ap.add_argument("--score-limit", type=int, default=10000, help="skip |score| above")
    ap.add_argument("--val-fraction", type=float, default=0.01, help="held out: the last part")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-seconds", type=float, default=0, help="stop training after this")
    ap.add_argument("--out", help="the .safetensors file to write")
    ap.add_argument("--verify-with", metavar="AXON", help="check the export against this axon")
    ap.add_argument("--verify-positions", type=int, default=8)
    # Output weights quantised to 1/64 (QB) cost tens of cp; a wrong layout costs hundreds.
    ap.add_argument("--quantised-tolerance", type=float, default=50,
                    help="perspective: largest cp difference allowed after `axon net import`")
    args = ap.parse_args()
    if not 0 <= args.wdl <= 1 or not 0 <= args.val_fraction < 0.5 or args.batch < 1:
        ap.error("--wdl must be in [0, 1], --val-fraction in [0, 0.5), --batch positive")
    if args.verify_with and not args.out:
        ap.error("--verify-with needs --out")

    keep_freed_memory()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    try:
        files = [open_records(p) for p in args.data]
    except (OSError, DataError) as e:
        sys.exit(f"torch_train: {e}")
    records = files[0] if len(files) == 1 else np.concatenate(files)
    held = int(len(records) * args.val_fraction)
    train_records, val_records = records[:len(records) - held], records[len(records) - held:]
    if args.model == "perspective":
        model = Perspective(args.hidden)
    else:
        sizes = lambda s: [int(v) for v in s.split(",") if v]
        model = FloatModel(args.model, args.encoding, sizes(args.channels), sizes(args.layers))
    val = Batch(val_records[:100000], args.score_limit) if held else None
    print(f"training {len(train_records)} records, validation {held}, "
          f"{sum(p.numel() for p in model.parameters())} parameters, {args.threads} thread(s)",
          flush=True)
    try:
        train(model, train_records, val, args)
    except DataError as e:
        sys.exit(f"torch_train: {e}")
    if args.out:
        write_safetensors(args.out, *model.export(args.scale))
        print(f"wrote {args.out}")
    if args.verify_with:
        sample = val_records if held else train_records
        batch = Batch(sample[:args.verify_positions], args.score_limit)
        verify(args.verify_with, args.out, model.eval(), batch, args)


if __name__ == "__main__":
    main()
