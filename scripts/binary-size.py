#!/usr/bin/env python3
"""What each module adds to the release binary, from the linker's map (ld.lld -Map).

    python3 scripts/binary-size.py MAP BINARY [--all]

scripts/build-release.sh runs it after the link and prints its table to stderr. A row is what the
linker kept of a module's object files (after --gc-sections and --icf): its code (.text), its Swift
metadata (swift5_*: types, conformances, reflection), its data (.rodata, .data, .data.rel.ro) and its
unwind tables (.eh_frame). Modules are ours (Sources/), a Swift package's (.build/checkouts/NAME) or
the toolchain's static libraries (the Swift runtime and stdlib, Foundation, ICU, Dispatch). What
the linker makes itself (the index of the unwind tables, relocations, the dynamic symbols, the PLT
and GOT) is a row of its own; the rest of the file is alignment padding, the ELF headers and the
section table.
"""
import json
import os
import re
import sys

LINE = re.compile(r"^\s*([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+(\d+) (.*)$")
# Output sections that take no room in the file.
NOBITS = {".bss", ".tbss", ".lbss"}
# Object files that are no module: the C start files and the Swift runtime's registration object.
STARTUP = ("crt1.o", "Scrt1.o", "crti.o", "crtn.o", "crtbeginS.o", "crtendS.o", "crtbegin.o", "crtend.o")


def kind(section):
    """Which column an output section counts in."""
    if section.startswith(".text") or section in (".init", ".fini", ".plt", ".plt.got", ".iplt"):
        return "code"
    if section.startswith("swift5_") or section == ".swift_modhash":
        return "metadata"
    if section.startswith(".eh_frame"):
        return "unwind"
    return "data"


def package_of(build_dir, module, cache={}):
    """The Swift package a module of the build comes from: its sources' checkout, or recorder's own."""
    if module in cache:
        return cache[module]
    package = "recorder"
    listing = os.path.join(build_dir, module + ".build")
    candidates = []
    if os.path.exists(os.path.join(listing, "sources")):
        with open(os.path.join(listing, "sources")) as f:
            candidates = f.read().split()
    elif os.path.exists(os.path.join(listing, "output-file-map.json")):
        with open(os.path.join(listing, "output-file-map.json")) as f:
            candidates = list(json.load(f))
    elif os.path.isdir(listing):
        for root, _, files in os.walk(listing):
            for name in files:
                if name.endswith(".d"):
                    with open(os.path.join(root, name)) as f:
                        candidates = f.read().split()[:3]
                    break
            if candidates:
                break
    for path in candidates:
        match = re.search(r"/checkouts/([^/]+)/", path)
        if match:
            package = match.group(1)
            break
    cache[module] = package
    return package


def owner(path):
    """(module, package) of an input file of the link."""
    if path.startswith("<internal>") or path == "":
        return None
    match = re.search(r"/([^/]+)\.build/[^:]*$", path)
    if match:
        build_dir = path[: match.start()]
        return match.group(1), package_of(build_dir, match.group(1))
    match = re.search(r"/lib([^/(]+)\.a\(", path)
    if match:
        library = match.group(1)
        if "swift_static" in path or "/opt/swift" in path or "/usr/lib/swift" in path:
            if library.startswith("swift"):
                return library[5:] or library, "Swift runtime and stdlib"
            if "Foundation" in library or library.startswith("_CF") or library == "CoreFoundation":
                return library, "Foundation"
            return library, "toolchain (" + library + ")"
        return library, "system (" + library + ")"
    name = os.path.basename(path.split("(")[0])
    if name == "swiftrt.o":
        return "swiftrt", "Swift runtime and stdlib"
    if name in STARTUP:
        return "C start files", "system (crt)"
    return name, "other"


def parse(map_path):
    rows = {}          # (module, package) -> {kind: bytes}
    internal = {}      # output section -> bytes the linker made itself
    sections = {}      # output section -> bytes (in the file)
    current = None
    with open(map_path, errors="replace") as f:
        header = f.readline()
        if "VMA" not in header or "Symbol" not in header:
            sys.exit(f"binary-size: {map_path} is not an ld.lld map (-Map): link with -use-ld=lld")
        for line in f:
            match = LINE.match(line)
            if not match:
                continue
            size = int(match.group(3), 16)
            rest = match.group(5)
            if not rest.startswith(" "):
                current = rest.strip()
                if current not in NOBITS:
                    sections[current] = sections.get(current, 0) + size
                continue
            if current in NOBITS or rest.startswith(" " * 16) or size == 0:
                continue  # a symbol's line, or nothing in the file
            text = rest.strip()
            if ":(" not in text:
                continue  # a linker script's assignment
            path = text[: text.rindex(":(")]
            who = owner(path)
            if who is None:
                internal[current] = internal.get(current, 0) + size
                continue
            row = rows.setdefault(who, {})
            column = kind(current)
            row[column] = row.get(column, 0) + size
    return rows, internal, sections


def mib(n):
    return f"{n / 1048576:.2f}"


def main(argv):
    show_all = "--all" in argv
    args = [a for a in argv if a != "--all"]
    if len(args) != 2:
        sys.exit(__doc__.strip().splitlines()[2].strip().replace("python3 ", "usage: "))
    map_path, binary = args
    for path, what in ((map_path, "the linker's map"), (binary, "the binary")):
        if not os.path.isfile(path):
            sys.exit(f"binary-size: {path} ({what}) does not exist: build with scripts/build-release.sh, "
                     "whose linker (scripts/release-ld) writes the map beside the binary")
    rows, internal, sections = parse(map_path)
    size = os.path.getsize(binary)
    columns = ("code", "metadata", "data", "unwind")
    total = lambda row: sum(row.values())
    out = []
    head = f"{'module':<36} {'package':<26}" + "".join(f" {c:>10}" for c in columns) + f" {'total':>11}"
    out.append(f"binary-size: {binary}: {size:,} bytes ({mib(size)} MiB), by module from {map_path}")
    out.append(head)
    ranked = sorted(rows.items(), key=lambda item: -total(item[1]))
    shown, rest = (ranked, []) if show_all else (
        [r for r in ranked if total(r[1]) >= 32768], [r for r in ranked if total(r[1]) < 32768])
    for (module, package), row in shown:
        out.append(f"{module:<36} {package[:26]:<26}" + "".join(f" {row.get(c, 0):>10,}" for c in columns)
                   + f" {total(row):>11,}")
    if rest:
        summed = {c: sum(r[1].get(c, 0) for r in rest) for c in columns}
        out.append(f"{f'({len(rest)} modules under 32 KiB each)':<63}" + "".join(f" {summed[c]:>10,}" for c in columns)
                   + f" {sum(summed.values()):>11,}")
    packages = {}
    for (module, package), row in rows.items():
        packages[package] = packages.get(package, 0) + total(row)
    out.append("")
    out.append(f"{'by package':<63} {'modules':>10} {'total':>11}")
    for package, bytes_ in sorted(packages.items(), key=lambda item: -item[1]):
        count = sum(1 for (m, p) in rows if p == package)
        out.append(f"{package:<63} {count:>10} {bytes_:>11,}")
    modules = sum(packages.values())
    made = sum(internal.values())
    out.append(f"{'modules (sum of the rows)':<74} {modules:>11,}")
    detail = ", ".join(f"{name} {bytes_:,}" for name, bytes_ in sorted(internal.items(), key=lambda i: -i[1])[:6])
    out.append(f"{'made by the linker (' + detail + ')':<74} {made:>11,}"
               if len(detail) < 60 else f"{'made by the linker':<74} {made:>11,}\n    {detail}")
    in_sections = sum(sections.values())
    out.append(f"{'alignment padding between the pieces of a section':<74} {in_sections - modules - made:>11,}")
    out.append(f"{'ELF headers, section table, gaps between sections':<74} {size - in_sections:>11,}")
    out.append(f"{'the binary':<74} {size:>11,}")
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1:])
