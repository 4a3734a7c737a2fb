#!/usr/bin/env python3
"""Where the raster path loses against the digital one, on ICDAR 2013 data.

usage: scripts/icdar-loss.py DATASET_DIR PDF_PRED_DIR IMAGE_PRED_DIR [--dpi 200] [--list]

Both prediction folders hold NAME.json as scripts/icdar.sh and scripts/icdar-ocr.sh write them
(the image one in pixels of DPI-dpi page renderings, each table with its 1-based `page`). The
metric is the shared scorer's: adjacency relations between neighbouring non-empty cells. Every
ground-truth relation the PDF result finds and the image result does not is put in one class:

  table      the image result has no table overlapping the ground-truth table's region on its page
  ocr        the image result has the relation with the same direction between cells whose texts
             are near both ends (similarity >= 0.6 each): the structure is right, the words differ
  layout     anything else: the cells are there but missed, merged or split

False relations of the image result (in neither the ground truth) are split the same way: `ocr`
when a ground-truth relation in the same direction is near both ends, else `layout`. The shares
are of the relations lost; the per-document table gives the counts.
"""
import json, os, re, subprocess, sys, unicodedata
import xml.etree.ElementTree as ET
from difflib import SequenceMatcher

NEAR = 0.6


def norm(s):
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", s or ""))


def grid_relations(grid):
    """grid: (r, c) -> (cell id, text). Relations (a, b, dir) between neighbouring non-empty cells."""
    rel = set()
    if not grid:
        return rel
    rows = max(r for r, _ in grid) + 1
    cols = max(c for _, c in grid) + 1
    for outer, inner, d in ((rows, cols, "h"), (cols, rows, "v")):
        for i in range(outer):
            prev = None
            for j in range(inner):
                cell = grid.get((i, j) if d == "h" else (j, i))
                if cell is None or cell[1] == "":
                    continue
                if prev is not None and prev[0] != cell[0]:
                    rel.add((prev[1], cell[1], d))
                prev = cell
    return rel


def gt_tables(path):
    """[(page, bbox in PDF points bottom-left origin, relations)] per table region."""
    out = []
    n = 0
    for table in ET.parse(path).getroot().iter("table"):
        for region in table.iter("region"):
            grid, boxes = {}, []
            for cell in region.iter("cell"):
                n += 1
                sr, sc = int(cell.get("start-row")), int(cell.get("start-col"))
                er, ec = int(cell.get("end-row", sr)), int(cell.get("end-col", sc))
                key = (n, norm(cell.findtext("content")))
                for r in range(sr, er + 1):
                    for c in range(sc, ec + 1):
                        grid[(r, c)] = key
                b = cell.find("bounding-box")
                if b is not None:
                    boxes.append([float(b.get(k)) for k in ("x1", "y1", "x2", "y2")])
            bbox = [min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)] if boxes else None
            out.append((int(region.get("page", "1")), bbox, grid_relations(grid)))
    return out


def pred_tables(path):
    """[(page, bbox as written, relations)] per predicted table; a missing file has none."""
    try:
        data = json.load(open(path))
    except Exception:
        return []
    out = []
    n = 0
    for t in data.get("tables") or []:
        grid = {}
        for cell in t.get("cells") or []:
            n += 1
            key = (n, norm(str(cell.get("text") or "")))
            r0, c0 = int(cell.get("row", 0)), int(cell.get("col", 0))
            for r in range(r0, r0 + int(cell.get("row_span") or 1)):
                for c in range(c0, c0 + int(cell.get("col_span") or 1)):
                    grid[(r, c)] = key
        out.append((int(t.get("page", 1)), t.get("bbox"), grid_relations(grid)))
    return out


def page_geometry(pdf):
    """page -> (width, height, rotation) in points, from pdfinfo."""
    info = subprocess.run(["pdfinfo", "-f", "1", "-l", "9999", pdf], capture_output=True, text=True).stdout
    sizes, rots = {}, {}
    for m in re.finditer(r"Page\s+(\d+) size:\s+([\d.]+) x ([\d.]+)", info):
        sizes[int(m.group(1))] = (float(m.group(2)), float(m.group(3)))
    for m in re.finditer(r"Page\s+(\d+) rot:\s+(\d+)", info):
        rots[int(m.group(1))] = int(m.group(2)) % 360
    return {p: (w, h, rots.get(p, 0)) for p, (w, h) in sizes.items()}


def to_display(bbox, geom, scale):
    """A ground-truth box (points, bottom-left origin, unrotated page) in the rendered image's
    top-left pixels: pdftoppm applies the page's /Rotate."""
    w, h, rot = geom
    x0, y0, x1, y1 = bbox
    corners = [(x, h - y) for x in (x0, x1) for y in (y0, y1)]
    if rot == 90:
        corners = [(h - v, u) for u, v in corners]
    elif rot == 180:
        corners = [(w - u, h - v) for u, v in corners]
    elif rot == 270:
        corners = [(v, w - u) for u, v in corners]
    xs = [u * scale for u, _ in corners]
    ys = [v * scale for _, v in corners]
    return [min(xs), min(ys), max(xs), max(ys)]


def overlaps(a, b):
    ix = min(a[2], b[2]) - max(a[0], b[0])
    iy = min(a[3], b[3]) - max(a[1], b[1])
    if ix <= 0 or iy <= 0:
        return False
    area = (a[2] - a[0]) * (a[3] - a[1])
    return area <= 0 or ix * iy >= 0.2 * area


def near(a, b):
    if a == b:
        return True
    if not a or not b:
        return False
    m = SequenceMatcher(None, a, b, autojunk=False)
    return m.real_quick_ratio() >= NEAR and m.quick_ratio() >= NEAR and m.ratio() >= NEAR


def has_near(rel, pool):
    a, b, d = rel
    return any(d == e and near(a, x) and near(b, y) for x, y, e in pool)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    dpi = 200
    if "--dpi" in sys.argv:
        dpi = float(sys.argv[sys.argv.index("--dpi") + 1])
        args = [a for a in args if a != sys.argv[sys.argv.index("--dpi") + 1]]
    ds, pdf_dir, img_dir = args[:3]
    scale = dpi / 72
    names = sorted(f[:-8] for f in os.listdir(ds) if f.endswith("-str.xml") and os.path.exists(os.path.join(ds, f[:-8] + ".pdf")))
    total = {"gt": 0, "pdf_hit": 0, "img_hit": 0, "table": 0, "ocr": 0, "layout": 0, "gained": 0, "false_ocr": 0, "false_layout": 0, "img_pred": 0}
    rows = []
    for name in names:
        gts = gt_tables(os.path.join(ds, name + "-str.xml"))
        geom = page_geometry(os.path.join(ds, name + ".pdf"))
        g = set().union(*(t[2] for t in gts)) if gts else set()
        p_pdf = set().union(*(t[2] for t in pred_tables(os.path.join(pdf_dir, name + ".json"))) or [set()])
        imgs = pred_tables(os.path.join(img_dir, name + ".json"))
        p_img = set().union(*(t[2] for t in imgs)) if imgs else set()
        c = dict.fromkeys(total, 0)
        c["gt"], c["pdf_hit"], c["img_hit"], c["img_pred"] = len(g), len(g & p_pdf), len(g & p_img), len(p_img)
        c["gained"] = len((g & p_img) - p_pdf)
        for page, bbox, rels in gts:
            lost = (rels & p_pdf) - p_img
            if not lost:
                continue
            found = bbox is None or page not in geom or any(
                p == page and b and overlaps(to_display(bbox, geom[page], scale), b) for p, b, _ in imgs
            )
            if not found:
                c["table"] += len(lost)
                continue
            for r in lost:
                c["ocr" if has_near(r, p_img - g) else "layout"] += 1
        for r in p_img - g:
            c["false_ocr" if has_near(r, g - p_img) else "false_layout"] += 1
        for k in total:
            total[k] += c[k]
        rows.append((name, c))
    if "--list" in sys.argv:
        print("%-8s %5s %5s %5s | lost: %5s %5s %6s | gained %4s | false: %4s %6s" % ("doc", "gt", "pdf", "img", "table", "ocr", "layout", "", "ocr", "layout"))
        for name, c in rows:
            print("%-8s %5d %5d %5d | lost: %5d %5d %6d | gained %4d | false: %4d %6d" % (
                name, c["gt"], c["pdf_hit"], c["img_hit"], c["table"], c["ocr"], c["layout"], c["gained"], c["false_ocr"], c["false_layout"]))
    lost = total["table"] + total["ocr"] + total["layout"]
    false = total["false_ocr"] + total["false_layout"]
    pct = lambda k, n: "%5.1f %%" % (100 * total[k] / n) if n else "   - "
    print("ground-truth relations %d; found by the PDF result %d, by the image result %d (%d of them not by the PDF result)" % (
        total["gt"], total["pdf_hit"], total["img_hit"], total["gained"]))
    print("lost by the image result, of the PDF's: %d" % lost)
    print("  tables not found          %5d  %s" % (total["table"], pct("table", lost)))
    print("  layout (missed/merged/split) %2d  %s" % (total["layout"], pct("layout", lost)))
    print("  OCR text differs          %5d  %s" % (total["ocr"], pct("ocr", lost)))
    print("false relations of the image result: %d of %d" % (false, total["img_pred"]))
    print("  layout                    %5d  %s" % (total["false_layout"], pct("false_layout", false)))
    print("  OCR text differs          %5d  %s" % (total["false_ocr"], pct("false_ocr", false)))


if __name__ == "__main__":
    main()
