#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# A reader of Axon game files written from docs/training-data.md alone (the viriformat body
# included), so cli.datagen can check the document against the code: prints each game's start
# placement and side to move, then every ply as "MOVE SCORE" (UCI, classical castling; score
# from the side to move's view, "none" for the sentinel), as `axon data dump` gives them.
import struct
import sys

NO_SCORE = -32768
data = open(sys.argv[1], "rb").read()
if data[:8] != b"AXONGAME":
    sys.exit("bad magic")
version, reserved, games, plies = struct.unpack_from("<IIQQ", data, 8)
if version != 1 or len(data) != 32 + 36 * games + 4 * plies:
    sys.exit("bad header")


def square(s):
    return "abcdefgh"[s % 8] + str(s // 8 + 1)


offset = 32
for game in range(games):
    (occupancy,) = struct.unpack_from("<Q", data, offset)
    nibbles = data[offset + 8 : offset + 24]
    side_and_ep = data[offset + 24]
    board, index = {}, 0
    for s in range(64):
        if occupancy >> s & 1:
            code = nibbles[index // 2] >> (4 * (index % 2)) & 15
            letter = "pnbrqkr"[code & 7]  # 6: a rook with its castling right
            board[s] = letter if code & 8 else letter.upper()
            index += 1
    ranks = []
    for rank in range(7, -1, -1):
        text, empty = "", 0
        for file in range(8):
            piece = board.get(rank * 8 + file)
            if piece:
                text += (str(empty) if empty else "") + piece
                empty = 0
            else:
                empty += 1
        ranks.append(text + (str(empty) if empty else ""))
    black = side_and_ep >> 7
    print("game %d %s %s" % (game, "/".join(ranks), "b" if black else "w"))
    offset += 32
    ply = 0
    while True:
        move, score = struct.unpack_from("<Hh", data, offset)
        offset += 4
        if move == 0:
            break
        start, to, promotion, kind = move & 63, move >> 6 & 63, move >> 12 & 3, move >> 14
        if kind == 2:  # king takes rook; UCI names the king's classical target
            to = (to & ~7) | (6 if to % 8 > start % 8 else 2)
        black_to_move = (black + ply) % 2
        if score != NO_SCORE and black_to_move:
            score = -score
        print("%s%s%s %s" % (square(start), square(to), "nbrq"[promotion] if kind == 3 else "",
                             "none" if score == NO_SCORE else score))
        ply += 1
