#!/usr/bin/env bash
#
# SPDX-License-Identifier: GPL-2.0-only
#
# Formats the repository's C++ files with clang-format and the repository's .clang-format
# (ns-3's style).
#
# Usage: utils/format.sh [--check] [FILE ...]
#   no FILE     every tracked and untracked (not ignored) *.cc / *.h in the repository
#   --check     change nothing; list the files that differ and exit 1 if there are any
# Environment: CLANG_FORMAT (default: clang-format, else the newest clang-format-NN found).

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO"

check=0
files=()
for arg in "$@"; do
    case "$arg" in
    --check) check=1 ;;
    -h | --help)
        sed -n '5,11p' "$0" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    -*)
        echo "format.sh: unknown option '$arg' (use --check)" >&2
        exit 2
        ;;
    *) files+=("$arg") ;;
    esac
done

find_clang_format() {
    if [ -n "${CLANG_FORMAT:-}" ]; then
        echo "$CLANG_FORMAT"
        return
    fi
    if command -v clang-format >/dev/null; then
        echo clang-format
        return
    fi
    compgen -c clang-format- | grep -E '^clang-format-[0-9]+$' | sort -t- -k3 -n | tail -n1
}

CF=$(find_clang_format)
if [ -z "$CF" ] || ! command -v "$CF" >/dev/null; then
    echo "format.sh: clang-format not found (Debian/Ubuntu: apt-get install clang-format)" >&2
    exit 2
fi

if [ ${#files[@]} -eq 0 ]; then
    # Outside git (an exported tarball) fall back to find, skipping build folders.
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        mapfile -t files < <(git ls-files --cached --others --exclude-standard -- '*.cc' '*.h' |
            while read -r f; do [ -f "$f" ] && echo "$f"; done)
    else
        mapfile -t files < <(find . -path './build*' -prune -o -type f \( -name '*.cc' -o -name '*.h' \) \
            -print | sed 's|^\./||' | sort)
    fi
fi
[ ${#files[@]} -gt 0 ] || {
    echo "format.sh: no C++ files"
    exit 0
}

# ns-3's file header: copyright, SPDX licence and author lines (doc/contributing.md).
HEADER=$'/*\n * Copyright (c) 2026 The aicluster authors\n *\n * SPDX-License-Identifier: GPL-2.0-only\n *\n * Authors: The aicluster developers (see AUTHORS)\n */'

if [ "$check" = 1 ]; then
    missing=()
    for f in "${files[@]}"; do
        [ "$(head -n 7 "$f")" = "$HEADER" ] || missing+=("$f")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        printf 'without the file header (%d of %d files; copy it from any other file):\n' \
            "${#missing[@]}" "${#files[@]}"
        printf '  %s\n' "${missing[@]}"
        exit 1
    fi
    bad=()
    for f in "${files[@]}"; do
        if ! "$CF" --style=file "$f" | cmp -s - "$f"; then
            bad+=("$f")
        fi
    done
    if [ ${#bad[@]} -gt 0 ]; then
        printf 'not formatted (%d of %d files; fix with utils/format.sh):\n' "${#bad[@]}" "${#files[@]}"
        printf '  %s\n' "${bad[@]}"
        exit 1
    fi
    echo "all ${#files[@]} C++ files formatted"
else
    "$CF" --style=file -i "${files[@]}"
    echo "formatted ${#files[@]} C++ files with $CF"
fi
