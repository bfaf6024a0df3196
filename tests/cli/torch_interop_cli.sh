#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# scripts/torch_train.py against `axon`: tiny MLP, CNN and perspective networks trained for a
# moment on synthetic data, exported, and evaluated by Axon on positions PyTorch evaluated too
# (--verify-with fails on any disagreement beyond 0.5 cp; the perspective net is also imported
# into a .nnue); a truncated data file and a float model that does not match are refused.
# Exits 77 (SKIP) when no python3 here imports torch and numpy (apt-get install python3-torch),
# outside CI; in CI (CI set) scripts/install-deps.sh has installed them, and their absence fails.
set -euo pipefail
axon=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "torch_interop_cli: $*"; exit 1; }

python=""
for candidate in ${PYTHON:-} python3 /usr/bin/python3; do
    if "$candidate" -c "import torch, numpy" 2>/dev/null; then python=$candidate; break; fi
done
if [[ -z $python ]]; then
    [[ -n ${CI:-} ]] && fail "no python3 with torch and numpy (scripts/install-deps.sh installs them)"
    echo "SKIP: no python3 with torch and numpy (apt-get install python3-torch python3-numpy)"
    exit 77
fi
train() { "$python" "$root/scripts/torch_train.py" "$dir/data.axd" --batch 256 --epochs 2 \
    --val-fraction 0.1 --max-seconds 3 --verify-positions 12 "$@"; }

"$axon" train-synth "$dir/data.axd" --positions 3000 --seed 5 >/dev/null

train --model mlp --encoding planes8x8x14+6 --layers 32,16 --out "$dir/mlp.safetensors" \
    --verify-with "$axon" >"$dir/mlp.log" 2>&1 || fail "mlp: $(cat "$dir/mlp.log")"
grep -q "agree within 0.5 cp" "$dir/mlp.log" || fail "mlp not verified: $(cat "$dir/mlp.log")"
grep -q "mlp over planes8x8x14+6: 902 -> 32" "$dir/mlp.log" || fail "axon did not load the mlp"

train --model cnn --encoding onehot768+ --channels 4 --layers 16 --out "$dir/cnn.safetensors" \
    --verify-with "$axon" >"$dir/cnn.log" 2>&1 || fail "cnn: $(cat "$dir/cnn.log")"
grep -q "agree within 0.5 cp" "$dir/cnn.log" || fail "cnn not verified: $(cat "$dir/cnn.log")"

train --model perspective --hidden 32 --lr 0.01 --out "$dir/p.safetensors" \
    --verify-with "$axon" >"$dir/p.log" 2>&1 || fail "perspective: $(cat "$dir/p.log")"
grep -q "agree within 0.5 cp" "$dir/p.log" || fail "perspective not verified: $(cat "$dir/p.log")"
"$axon" net info "$dir/p.nnue" >/dev/null || fail "the imported p.nnue does not load"

# The checks can fail: a fresh random model against the MLP's file must disagree, and a truncated
# data file is refused.
head -c 1000 "$dir/data.axd" >"$dir/cut.axd"
"$python" - "$root/scripts" "$dir" "$axon" >"$dir/neg.log" 2>&1 <<'EOF' ||
import sys
sys.path.insert(0, sys.argv[1])
import torch_train as tt
try:
    tt.open_records(sys.argv[2] + "/cut.axd")
    sys.exit("a truncated data file was accepted")
except tt.DataError as e:
    print(e)
records = tt.open_records(sys.argv[2] + "/data.axd")
model = tt.FloatModel("mlp", "planes8x8x14+6", [], [32, 16])  # fresh random weights
class Args: scale, quantised_tolerance = 400, 50
try:
    tt.verify(sys.argv[3], sys.argv[2] + "/mlp.safetensors", model.eval(),
              tt.Batch(records[:12], 10000), Args)
except SystemExit as e:
    print(e)
    sys.exit(0)
sys.exit("verify accepted a model that is not the file's")
EOF
    fail "$(cat "$dir/neg.log")"
grep -q MISMATCH "$dir/neg.log" || fail "no mismatch reported: $(cat "$dir/neg.log")"
grep -q "truncated or corrupt" "$dir/neg.log" || fail "unclear data error: $(cat "$dir/neg.log")"
echo "torch_interop_cli: ok ($python)"
