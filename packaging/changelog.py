#!/usr/bin/env python3
"""Writes CHANGELOG.md (Keep a Changelog) as a Debian changelog on standard output.

One entry per `## [version]` section, newest first as in the Markdown. `[Unreleased]`
becomes the package's version (src-tauri/tauri.conf.json), dated by SOURCE_DATE_EPOCH or
else by the last commit that touched CHANGELOG.md (so the same tree gives the same bytes).
`### Added` and the like become `* Added:` items with the entries as `-` sub-items; the
Markdown's emphasis, code spans and links are reduced to their text. The maintainer is
the first of `authors` in src-tauri/Cargo.toml.

    python3 packaging/changelog.py [CHANGELOG.md] > changelog
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "weir"
WIDTH = 79  # lintian: debian-changelog-line-too-long past 80


def plain(markdown: str) -> str:
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", markdown)  # [text](url)
    text = re.sub(r"\*\*([^*]+)\*\*", r"\1", text)  # **bold**
    text = re.sub(r"(?<!\w)[*_]([^*_]+)[*_](?!\w)", r"\1", text)  # *em*
    text = text.replace("`", "")
    return " ".join(text.split())


def sections(markdown: str) -> list[tuple[str, str | None, list[tuple[str, list[str]]]]]:
    """[(version, date or None, [(heading, [entries])])] in the file's order."""
    found: list[tuple[str, str | None, list[tuple[str, list[str]]]]] = []
    entry: list[str] | None = None
    for line in markdown.splitlines():
        if m := re.match(r"^## \[([^\]]+)\](?:\s*-\s*(\d{4}-\d{2}-\d{2}))?", line):
            found.append((m.group(1), m.group(2), []))
            entry = None
        elif m := re.match(r"^### (.+)", line):
            if found:
                found[-1][2].append((m.group(1).strip(), []))
            entry = None
        elif line.startswith("- ") and found and found[-1][2]:
            entry = [line[2:]]
            found[-1][2][-1][1].append(entry)  # type: ignore[arg-type]
        elif line.startswith("  ") and entry is not None:
            entry.append(line.strip())
        elif not line.strip():
            entry = None
    return [
        (version, date, [(head, [plain(" ".join(e)) for e in items]) for head, items in groups])
        for version, date, groups in found
    ]


def package_version() -> str:
    return json.loads((ROOT / "src-tauri" / "tauri.conf.json").read_text())["version"]


def maintainer() -> str:
    manifest = tomllib.loads((ROOT / "src-tauri" / "Cargo.toml").read_text())
    return manifest["package"]["authors"][0]


def unreleased_timestamp(changelog: Path) -> int:
    if epoch := os.environ.get("SOURCE_DATE_EPOCH"):
        return int(epoch)
    try:
        out = subprocess.run(
            ["git", "log", "-1", "--format=%ct", "--", changelog.name],
            cwd=changelog.parent,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        if out:
            return int(out)
    except (OSError, subprocess.CalledProcessError, ValueError):
        pass
    return int(changelog.stat().st_mtime)


def rfc2822(timestamp: int) -> str:
    return time.strftime("%a, %d %b %Y %H:%M:%S +0000", time.gmtime(timestamp))


def render(changelog: Path) -> str:
    out: list[str] = []
    for version, date, groups in sections(changelog.read_text(encoding="utf-8")):
        if version.lower() == "unreleased":
            version, stamp = package_version(), unreleased_timestamp(changelog)
        else:
            stamp = int(time.mktime(time.strptime(date or "1970-01-01", "%Y-%m-%d")))
        out.append(f"{PACKAGE} ({version}) unstable; urgency=medium")
        out.append("")
        for heading, entries in groups:
            out.append(f"  * {heading}:")
            for text in entries:
                out.extend(
                    textwrap.wrap(
                        text,
                        WIDTH,
                        initial_indent="    - ",
                        subsequent_indent="      ",
                        break_on_hyphens=False,
                    )
                )
        out.append("")
        out.append(f" -- {maintainer()}  {rfc2822(stamp)}")
        out.append("")
    if not out:
        sys.exit(f"{changelog}: no '## [version]' section")
    return "\n".join(out)


if __name__ == "__main__":
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "CHANGELOG.md"
    sys.stdout.write(render(source.resolve()))
