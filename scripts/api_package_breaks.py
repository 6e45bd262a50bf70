#!/usr/bin/env python3
"""Splits swift-api-digester's "API breakage" lines into public ones and package ones.

The digester compares every declaration a module exports to the package, `package` ones included,
but `package` declarations are not NetKit's public API: moving or changing them breaks no user.
The baseline's API files (.build/api-baseline/<commit>/<Module>.json) mark each such declaration
`isInternal`; a breakage whose declaration (or the type that holds it) is marked so is a package
change. Reads the digester's output on standard input, prints every line, and exits 1 when a
public breakage remains.

    python3 scripts/api_package_breaks.py BASELINE_DIR < digester-output
"""
import glob
import json
import re
import sys

KINDS = r"(?:struct|class|enum|protocol|func|var|let|constructor|subscript|typealias|case|associatedtype|accessor|macro|operator|import)"
LINE = re.compile(r"API breakage: " + KINDS + r" ([A-Za-z_][\w.]*)")


def declarations(baseline_dir):
    """Maps a dotted name (Type.member) to the list of isInternal flags of its declarations."""
    found = {}

    def walk(node, path, parent_internal):
        name = node.get("name")
        is_decl = "declKind" in node and name
        internal = parent_internal
        if is_decl:
            internal = node.get("isInternal", False) or (parent_internal and not node.get("isExternal", False))
            dotted = ".".join(path + [name])
            found.setdefault(dotted, []).append(internal)
            path = path + [name]
        for child in node.get("children", []):
            if child.get("kind") in ("TypeNominal", "TypeNameAlias", "TypeFunc", "Conformance"):
                continue
            walk(child, path, internal if is_decl else parent_internal)

    for file in glob.glob(f"{baseline_dir}/*.json"):
        with open(file) as handle:
            root = json.load(handle).get("ABIRoot", {})
        for child in root.get("children", []):
            walk(child, [], False)
    return found


def is_package(name, known):
    parts = name.split(".")
    # The declaration itself, else the nearest enclosing type that the baseline knows.
    for end in range(len(parts), 0, -1):
        flags = known.get(".".join(parts[:end]))
        if flags:
            return all(flags)
    return False


def main():
    known = declarations(sys.argv[1])
    public = 0
    for line in sys.stdin:
        sys.stdout.write(line)
        match = LINE.search(line)
        if not match:
            continue
        if is_package(match.group(1), known):
            print(f"    (a package declaration: not public API, {match.group(1)})")
        else:
            public += 1
    if public:
        print(f"api_package_breaks: {public} public API breakage(s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
