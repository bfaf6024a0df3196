#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# The "mix" label of the label-choice study (docs/nets.md): for two record files holding the
# same positions in the same order (a datagen chunk with the engine's own search scores and its
# `axon label` output), writes the records with each score replaced by the mean of the two.
# Usage: bench/mix-labels.py OWN.bin TEACHER.bin OUT.bin
import os
import sys

HEADER, RECORD, SCORE = 32, 32, 24  # docs/training-data.md: the score is the int16 at byte 24


def main() -> int:
    if len(sys.argv) != 4:
        print("usage: mix-labels.py OWN.bin TEACHER.bin OUT.bin", file=sys.stderr)
        return 2
    own = open(sys.argv[1], "rb").read()
    teacher = open(sys.argv[2], "rb").read()
    if own[:8] != b"AXONDATA" or teacher[:8] != b"AXONDATA" or len(own) != len(teacher):
        print("mix-labels: not two record files of the same length", file=sys.stderr)
        return 1
    out = bytearray(own)
    for off in range(HEADER, len(own) - RECORD + 1, RECORD):
        if own[off:off + SCORE] != teacher[off:off + SCORE]:
            print(f"mix-labels: record at byte {off} differs in its position", file=sys.stderr)
            return 1
        a = int.from_bytes(own[off + SCORE:off + SCORE + 2], "little", signed=True)
        b = int.from_bytes(teacher[off + SCORE:off + SCORE + 2], "little", signed=True)
        out[off + SCORE:off + SCORE + 2] = int((a + b) / 2).to_bytes(2, "little", signed=True)
    tmp = sys.argv[3] + ".tmp"
    with open(tmp, "wb") as f:
        f.write(out)
    os.replace(tmp, sys.argv[3])
    return 0


if __name__ == "__main__":
    sys.exit(main())
