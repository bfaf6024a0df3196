# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the bench scripts (from the repository root): sets AXON to the binary to measure,
# $AXON when given, else the first of ./axon, build-release/axon and build/axon that exists.
AXON=${AXON:-}
if [[ -z $AXON ]]; then
    for candidate in ./axon build-release/axon build/axon; do
        [[ -x $candidate ]] && AXON=$candidate && break
    done
fi
[[ -n $AXON ]] || { echo "no axon binary: run make tool first" >&2; exit 2; }
