#!/usr/bin/env python3
"""calibration.py [--eval DIR] [--by-field] GT_DIR:OUT_DIR:SCORER ...

Whether field confidences mean something: for every field Tablemill returned (non-null) that a
dev set's ground truth holds, the band of its confidence and whether it is right, judged by the
set's own scorer (`sroie` = sroie.py, `invoice` = invoice-fields.py, from --eval, by default
../shared/eval). Prints, per confidence band, how many fields and the share right, over all the
sets given together. Run from the project's root, e.g.

  python3 scripts/calibration.py ../shared/data/sroie-dev:OUT_S:sroie ../shared/data/einvoices-dev:OUT_E:invoice

--by-field adds, per field name, how many were returned and right, how many of the right ones stand
at >= 0.9, the wrong ones at >= 0.9 (with their documents), and the confidences the right ones got.
"""
import importlib.util, json, os, sys

BANDS = [(0.0, 0.5), (0.5, 0.7), (0.7, 0.8), (0.8, 0.9), (0.9, 1.01)]


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def judged(gt_dir, out_dir, scorer, mods):
    """(confidence, right) for each returned field the ground truth holds."""
    out = []
    for name in sorted(os.listdir(gt_dir)):
        if not name.endswith(".json"):
            continue
        stem = name[:-5]
        got_path = os.path.join(out_dir, stem + ".json")
        if not os.path.exists(got_path):
            continue
        exp = json.load(open(os.path.join(gt_dir, name)))
        # The e-invoice ground truth is a list of one document, as invoice-fields.py reads it.
        exp = exp[0] if isinstance(exp, list) and exp else exp
        fields = (json.load(open(got_path)).get("fields") or {})
        if scorer == "sroie":
            mod = mods["sroie"]
            for theirs, ours, kind in mod.MAP:
                f = fields.get(ours)
                if not isinstance(f, dict) or theirs not in exp or f.get("value") in (None, ""):
                    continue
                ok, _ = mod.compare(kind, f["value"], exp[theirs])
                out.append((f.get("confidence", 0), bool(ok), ours, stem))
        else:
            mod = mods["invoice"]
            for ours, theirs, kind in mod.MAP:
                keys = theirs if isinstance(theirs, tuple) else (theirs,)
                key = next((k for k in keys if exp.get(k) not in (None, "")), None)
                f = fields.get(ours)
                if key is None or not isinstance(f, dict) or f.get("value") is None:
                    continue
                out.append((f.get("confidence", 0), bool(mod.same(kind, f["value"], exp[key])), ours, stem))
    return out


def main():
    args = sys.argv[1:]
    eval_dir = "../shared/eval"
    if "--eval" in args:
        at = args.index("--eval")
        eval_dir, args = args[at + 1], args[:at] + args[at + 2:]
    mods = {"sroie": load(os.path.join(eval_dir, "sroie.py"), "sroie"), "invoice": load(os.path.join(eval_dir, "invoice-fields.py"), "invoice_fields")}
    by_field = "--by-field" in args
    args = [a for a in args if a != "--by-field"]
    rows = []
    for spec in args:
        gt, out, scorer = spec.rsplit(":", 2)
        rows += judged(gt, out, scorer, mods)
    print("confidence band   fields   right   share right")
    for lo, hi in BANDS:
        inside = [ok for c, ok, *_ in rows if lo <= c < hi]
        share = sum(inside) / len(inside) if inside else float("nan")
        print(f"[{lo:.1f}, {min(hi, 1.0):.1f}{']' if hi > 1 else ')'}       {len(inside):6d}  {sum(inside):6d}   {share:.3f}")
    right = sum(ok for _, ok, *_ in rows)
    sure_right = sum(ok for c, ok, *_ in rows if c >= 0.9)
    print(f"all               {len(rows):6d}  {right:6d}   {right / max(1, len(rows)):.3f}")
    print(f"right fields at >= 0.9: {sure_right} of {right} ({sure_right / max(1, right):.0%})")
    if by_field:
        print("\nfield                 returned  right  right>=0.9  wrong>=0.9  confidences of the right ones")
        for name in sorted({r[2] for r in rows}):
            mine = [r for r in rows if r[2] == name]
            ok = [r for r in mine if r[1]]
            sure = [r for r in ok if r[0] >= 0.9]
            bad = [r for r in mine if not r[1] and r[0] >= 0.9]
            hist = {}
            for r in ok:
                hist[round(r[0], 2)] = hist.get(round(r[0], 2), 0) + 1
            spread = " ".join(f"{c:.2f}x{n}" for c, n in sorted(hist.items()))
            wrong = " ".join(f"{r[0]:.2f}" for r in sorted(mine) if not r[1])
            print(f"{name:22s} {len(mine):8d} {len(ok):6d} {len(sure):11d} {len(bad):11d}  {spread}")
            if wrong:
                print(f"{'':24s}wrong ones at: {wrong}")
            for r in bad:
                print(f"{'':24s}wrong at {r[0]:.2f}: {r[3]}")


if __name__ == "__main__":
    main()
