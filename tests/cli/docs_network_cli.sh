#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The docs that state measured figures name the network they were measured with, and it must be
# the one built into the binary: a new network makes this fail until the figures are measured
# again (or the doc says plainly which older network they belong to).
#   docs/strength.md   the block bench/strength.sh generates ("network `HASH`")
#   docs/nets.md       the first "content hash" row: the default network's section comes first
#   docs/release-notes.md  "content hash `HASH`": the network a release ships
# Usage: docs_network_cli.sh AXON REPOSITORY_ROOT
set -euo pipefail
axon=$1
root=$2

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

embedded=$("$axon" --version | sed -n 's/^network \([0-9a-f]\{16\}\)$/\1/p')
[[ -n $embedded ]] || fail "axon --version names no network hash"
echo "embedded network: $embedded"

block=$(sed -n '/^<!-- bench\/strength.sh: begin -->$/,/^<!-- bench\/strength.sh: end -->$/p' "$root/docs/strength.md")
[[ -n $block ]] || fail "docs/strength.md has no bench/strength.sh block"
named=$({ grep -o 'network `[0-9a-f]\{16\}`' <<<"$block" || true; } | grep -o '[0-9a-f]\{16\}' | sort -u || true)
[[ -n $named ]] || fail "docs/strength.md's generated block names no network (run bench/strength.sh)"
[[ $named == "$embedded" ]] ||
    fail "docs/strength.md's generated block was measured with network $named, the binary embeds $embedded: run bench/strength.sh again"

first=$({ grep -m1 -o '^| content hash | `[0-9a-f]\{16\}`' "$root/docs/nets.md" || true; } | grep -o '[0-9a-f]\{16\}' || true)
[[ $first == "$embedded" ]] ||
    fail "docs/nets.md's first network section is ${first:-none}, the binary embeds $embedded: document the new network first"

grep -q "content hash \`$embedded\`" "$root/docs/release-notes.md" ||
    fail "docs/release-notes.md does not name the embedded network $embedded"
echo "docs name the embedded network"
