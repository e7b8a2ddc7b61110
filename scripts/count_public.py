#!/usr/bin/env python3
"""Count the library's public surface from rustdoc JSON (issue 44, item 7).

    cargo +nightly rustdoc -p swaproute --lib --all-features -- \
        -Z unstable-options --output-format json
    python3 scripts/count_public.py target/doc/swaproute.json [--list]

Counts, over the items rustdoc lists as reachable from the crate root
(`paths` entries of the local crate):
- types: public structs and enums;
- error types: those of them that implement `core::error::Error`
  (`std::error::Error` is the same trait) or whose name ends in `Error`;
- items: every path entry (modules, types, variants, traits, functions,
  constants, macros) plus the inherent associated functions and constants
  of the public types (methods of trait impls are not counted).
`--list` prints the error types, one per line.
"""
import json
import sys


def main():
    doc = json.load(open(sys.argv[1]))
    index, paths = doc["index"], doc["paths"]
    local = {k: v for k, v in paths.items() if v["crate_id"] == 0}
    types, errors, items = [], [], len(local)
    for key, entry in local.items():
        if entry["kind"] not in ("struct", "enum"):
            continue
        item = index.get(key)
        if item is None:
            continue
        name = "::".join(entry["path"])
        types.append(name)
        inner = item["inner"][entry["kind"]]
        is_error = entry["path"][-1].endswith("Error")
        for impl_id in inner.get("impls", []):
            imp = index.get(str(impl_id))
            if imp is None:
                continue
            imp = imp["inner"]["impl"]
            trait = imp.get("trait")
            if trait is not None:
                tpath = paths.get(str(trait["id"]), {}).get("path", [])
                if tpath[-1:] == ["Error"] and tpath[:1] in (["core"], ["std"]):
                    is_error = True
            elif not imp.get("is_synthetic") and imp.get("blanket_impl") is None:
                items += sum(
                    1
                    for i in imp["items"]
                    if str(i) in index and index[str(i)]["visibility"] == "public"
                )
        if is_error:
            errors.append(name)
    print(f"public items: {items}")
    print(f"public types (structs and enums): {len(types)}")
    print(f"public error types: {len(errors)} ({100 * len(errors) // max(len(types), 1)} % of the types)")
    if "--list" in sys.argv:
        for name in sorted(errors):
            print(name)


main()
