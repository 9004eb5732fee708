"""Search, offline, for the starting structures of the large designs and keep them as data.

Writes pairing/algorithms/data/whist.json (a starting round per whist size) and
pairing/algorithms/data/rotational.json (base blocks of 1-rotational Kirkman triple
systems and resolvable designs with blocks of four). Sizes already in a file are kept;
each new result is checked by developing it before it is written. Figures (which
search found what, in how many CPU seconds) are printed.

    .venv/bin/python scripts/precompute_designs.py whist [--budget 60] [SIZE ...]
    .venv/bin/python scripts/precompute_designs.py rotational [--budget 60] [SIZE ...]
    .venv/bin/python scripts/precompute_designs.py keep-whist FILE ...

``keep-whist`` keeps starting rounds found elsewhere, one JSON object per file, such as
the output of the compiled starter search for the larger sizes (see
``scripts/whist_starter.c``): each is developed and checked before it is written.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pairing.algorithms import design_search as ds
from pairing.algorithms import designs

DATA = Path(designs.__file__).parent / "data"


def group_choices(order: int) -> list[tuple[int, ...]]:
    """Abelian groups of this order worth trying: the cyclic one, then Z_p x Z_(order/p)
    for each prime p whose square divides the order."""
    out: list[tuple[int, ...]] = [(order,)]
    for p in (2, 3, 5, 7):
        if order % (p * p) == 0:
            out.append((p, order // p))
    return out


def load(name: str) -> dict[str, object]:
    path = DATA / name
    return json.loads(path.read_text()) if path.exists() else {}


def save(name: str, data: dict[str, object]) -> None:
    ordered = dict(sorted(data.items(), key=lambda kv: int(kv[0])))
    text = "{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in ordered.items())
    (DATA / name).write_text(text + "\n}\n")


def whist(sizes: list[int], budget: float, out: str) -> None:
    data = load(out)
    searches = (
        ("symmetric", ds.symmetric_whist_start),
        ("starter", ds.starter_whist_start),
        ("backtracking", ds.backtrack_whist_start),
    )
    for v in sizes:
        if str(v) in data:
            continue
        fixed = v % 4 == 0
        found = None
        # Every group with the quick symmetric search first, then the slow one.
        for name, search in searches:
            for moduli in group_choices(v - 1 if fixed else v):
                # The symmetric search either succeeds at once or not at all.
                limit = min(budget, 3.0) if name == "symmetric" else budget
                start = time.process_time()
                tables = search(
                    ds.Group(moduli), with_fixed_point=fixed, seed=1, budget_seconds=limit
                )
                cpu = time.process_time() - start
                print(
                    f"whist {v:3} over Z{moduli}: {name:12} {cpu:7.2f} s  "
                    f"{'found' if tables else '-'}",
                    flush=True,
                )
                if tables:
                    found = {
                        "group": list(moduli),
                        "fixed_point": fixed,
                        "start": [list(t) for t in tables],
                        "found_by": f"{name} search, seed 1, {cpu:.1f} s CPU",
                    }
                    designs.develop_whist(found, v)  # raises if it is not a whist
                    break
            if found:
                break
        if found:
            data[str(v)] = found
            save(out, data)


def keep_whist(paths: list[str], out: str) -> None:
    data = load(out)
    for path in paths:
        found = json.loads(Path(path).read_text())
        v = ds.Group(tuple(found["group"])).order + bool(found["fixed_point"])
        designs.develop_whist(found, v)  # raises if it is not a whist
        data[str(v)] = found
        print(f"whist {v:3} kept: {found.get('found_by', 'found elsewhere')}", flush=True)
    save(out, data)


def rotational(sizes: list[int], budget: float) -> None:
    data = load("rotational.json")
    for v in sizes:
        if str(v) in data:
            continue
        k = 3 if v % 6 == 3 else 4
        for moduli in group_choices(v - 1):
            start = time.process_time()
            base = ds.rotational_base(ds.Group(moduli), k, seed=1, budget_seconds=budget)
            cpu = time.process_time() - start
            print(
                f"rotational {v:3} (k={k}) over Z{moduli}: {cpu:7.2f} s  "
                f"{'found' if base else '-'}",
                flush=True,
            )
            if base:
                found = {"group": list(moduli), "k": k, "base": [list(b) for b in base]}
                designs.develop_rotational(found, v)
                data[str(v)] = found
                save("rotational.json", data)
                break


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=("whist", "rotational", "keep-whist"))
    parser.add_argument("sizes", nargs="*", help="sizes to search, or files to keep")
    parser.add_argument("--out", default="", help="file in data/ to write (default per kind)")
    parser.add_argument("--budget", type=float, default=60.0, help="CPU seconds per search")
    args = parser.parse_args()
    if args.kind == "keep-whist":
        keep_whist(args.sizes, args.out or "whist.json")
    elif args.kind == "whist":
        sizes = [int(v) for v in args.sizes] or [v for v in range(4, 65) if v % 4 in (0, 1)]
        whist(sizes, args.budget, args.out or "whist.json")
    else:
        default = [v for v in range(9, 64, 6)] + [v for v in range(16, 65, 12)]
        rotational([int(v) for v in args.sizes] or default, args.budget)
    return 0


if __name__ == "__main__":
    sys.exit(main())
