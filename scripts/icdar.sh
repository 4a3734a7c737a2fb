#!/bin/sh
# Scores the engine on ICDAR 2013 (EU set): extract every PDF, then run the shared scorer.
# usage: scripts/icdar.sh [OUT_DIR]   (default: a fresh temp dir; DATA overrides the data set)
set -eu
cd "$(dirname "$0")/.."
npm run build --silent >/dev/null   # bin/tablemill runs the compiled dist/
SHARED=${SHARED:-../shared}
DATA=${DATA:-$SHARED/data/icdar2013-eu}
OUT=${1:-$(mktemp -d)}
start=$(date +%s.%N)
node bin/tablemill extract --out "$OUT" "$DATA"/*.pdf || true   # per-file failures are in the JSON
end=$(date +%s.%N)
python3 "$SHARED/eval/icdar2013.py" "$DATA" "$OUT" --list
echo "extract seconds: $(echo "$end - $start" | bc)  out: $OUT"
