#!/bin/sh
# Scores the raster/OCR path on ICDAR 2013 (EU set): every PDF is rendered to 200 dpi PNG pages
# (poppler's pdftoppm), each page image is extracted with `tablemill extract --out` (no text
# layer: only what OCR reads), a document's pages' tables are merged into NAME.json, and the
# shared scorer compares them with the ground truth. The digital-PDF figure (scripts/icdar.sh)
# is the ceiling.
# Measured 2026-12-04 (libtesseract in-process, the default where the addon is built; 200 dpi,
# 111 pages, 2 cores): F1 0.8579 (P 0.828, R 0.891); 0.8285 (P 0.782, R 0.881) the day before,
# 0.7253 at the start of the image work. scripts/icdar-loss.py splits what is still lost
# against the PDF result.
# usage: scripts/icdar-ocr.sh [OUT_DIR]   (DATA overrides the data set; ENGINE=auto|js|native|program, default auto;
#        DPI overrides 200; ONLY="eu-001 eu-002" limits the documents; KEEP=DIR keeps the page images and
#        per-page results there, to compare two runs page by page)
set -eu
cd "$(dirname "$0")/.."
npm run build --silent >/dev/null   # bin/tablemill runs the compiled dist/
SHARED=${SHARED:-../shared}   # shared/ beside the repository, as CI lays it
DATA=${DATA:-$SHARED/data/icdar2013-eu}
OUT=${1:-$(mktemp -d)}
ENGINE=${ENGINE:-auto}
DPI=${DPI:-200}
WORK=${KEEP:-$(mktemp -d)}
[ -n "${KEEP:-}" ] || trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/png" "$WORK/pages" "$OUT"

names=${ONLY:-$(for f in "$DATA"/*.pdf; do basename "$f" .pdf; done)}
for name in $names; do
  pdftoppm -r "$DPI" -png "$DATA/$name.pdf" "$WORK/png/$name"
done
echo "pages: $(ls "$WORK/png" | wc -l)"

start=$(date +%s.%N)
node bin/tablemill extract --ocr-engine "$ENGINE" --out "$WORK/pages" "$WORK"/png/*.png || true   # failures are in the JSON
end=$(date +%s.%N)

# pdftoppm names pages NAME-1.png … or NAME-01.png …; merge each document's pages in page order.
python3 - "$WORK/pages" "$OUT" $names <<'EOF'
import json, os, re, sys
pages_dir, out = sys.argv[1], sys.argv[2]
for name in sys.argv[3:]:
    found = []
    for f in os.listdir(pages_dir):
        m = re.fullmatch(re.escape(name) + r"-(\d+)\.json", f)
        if m:
            found.append((int(m.group(1)), f))
    tables = []
    for page, f in sorted(found):
        data = json.load(open(os.path.join(pages_dir, f)))
        for t in data.get("tables") or []:
            t["page"] = page
            tables.append(t)
    json.dump({"page_count": len(found), "tables": tables}, open(os.path.join(out, name + ".json"), "w"))
EOF
python3 "$SHARED/eval/icdar2013.py" "$DATA" "$OUT" --list
echo "extract seconds: $(echo "$end - $start" | bc)  engine: $ENGINE  dpi: $DPI  out: $OUT"
