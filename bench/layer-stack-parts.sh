#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Where the layer stack's time goes: pairwise products, the non-zero list, the first layer and
# the integer tail, nanoseconds per call on the native back end (bench/layer_stack_parts.cpp),
# for the shapes given (default 256 -> 16 -> 32 and 1024 -> 16 -> 32). Pin it to an idle core:
# the parts are a few dozen nanoseconds, so another job on the same core changes them.
# Usage: bench/layer-stack-parts.sh [BUILD_DIR=build] ["HIDDEN L1 L2 POSITIVE_PER_MILLE"]...
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${1:-build}
shift || true
tool=$build/axon_layer_stack_parts
[[ -x $tool ]] || { echo "layer-stack-parts: $tool not built (cmake --build $build)" >&2; exit 2; }
shapes=("$@")
[[ ${#shapes[@]} -gt 0 ]] || shapes=("256 16 32 420" "1024 16 32 420")
for shape in "${shapes[@]}"; do
    # shellcheck disable=SC2086
    "$tool" $shape
    echo
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
