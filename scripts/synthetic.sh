#!/bin/sh
# Scores the engine and tabula-java 0.9 in one run on the seeded synthetic table set
# (scripts/make-synthetic.ts), written first when missing.
# usage: scripts/synthetic.sh [DIR]   (default .tmp/synthetic; SEED, DOCS override the set)
set -eu
cd "$(dirname "$0")/.."
DIR=${1:-.tmp/synthetic}
SEED=${SEED:-1}
DOCS=${DOCS:-60}
[ -f "$DIR/syn-001.pdf" ] || node bin/run-ts.js scripts/make-synthetic.ts "$DIR" --seed="$SEED" --docs="$DOCS"
npm run --silent bench -- extract --reps=1 --data="$DIR"
