#!/usr/bin/env bash
#
# SPDX-License-Identifier: GPL-2.0-only
#
# Proves that aicluster builds and runs inside an ns-3 source tree (contrib/aicluster),
# the way most ns-3 users install third-party modules.
#
# It fetches Debian's ns-3 source package (ns-3.37 on bookworm) with `apt-get source`,
# copies this repository in as contrib/aicluster, configures ns-3 with only the modules
# aicluster needs, builds, and runs the trace-replay example.
#
# Slow (about 20 minutes on 2 cores) and not part of CI. Needs root on Debian/Ubuntu for
# the deb-src line and dpkg-dev; everything else happens under the work directory.
#
# Usage: utils/check-in-tree-build.sh [WORK_DIR]     (default: /tmp/aicluster-in-tree)
# Environment: JOBS (parallel jobs, default nproc); KEEP_SOURCE=1 reuses an unpacked tree and
# its build (incremental); EXAMPLE_ARGS (default "trace-replay --quiet").

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=${1:-/tmp/aicluster-in-tree}
JOBS=${JOBS:-$(nproc)}
EXAMPLE_ARGS=${EXAMPLE_ARGS:-"trace-replay --quiet"}

say() { printf '\n==> %s\n' "$*"; }
die() {
    printf 'check-in-tree-build: error: %s\n' "$*" >&2
    exit 1
}

case "$WORK" in
"$REPO" | "$REPO"/*) die "work dir $WORK is inside the repository; pick one outside it" ;;
esac

as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null; then
        sudo "$@"
    else
        die "need root for: $*"
    fi
}

# The codename (bookworm, ...) and the mirror the machine already uses for it.
codename() {
    # shellcheck source=/dev/null
    . /etc/os-release && echo "${VERSION_CODENAME:-bookworm}"
}

mirror_uri() {
    local suite=$1 f uri=""
    # deb822 style (*.sources): take the URIs of the stanza whose Suites has $suite.
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        uri=$(awk -v s="$suite" '
            /^[[:space:]]*$/ { if (u != "" && hit) { print u; exit } u = ""; hit = 0; next }
            /^URIs:/   { u = $2 }
            /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == s) hit = 1 }
            END        { if (u != "" && hit) print u }' "$f" | head -n1)
        [ -n "$uri" ] && break
    done
    # one-line style (sources.list, *.list).
    if [ -z "$uri" ]; then
        uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
            awk -v s="$suite" '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i == s) { print ($2 ~ /^\[/ ? $3 : $2); exit } }')
    fi
    echo "${uri:-http://deb.debian.org/debian}"
}

has_deb_src() {
    local suite=$1
    grep -Eqs "^[[:space:]]*deb-src[[:space:]].*[[:space:]]${suite}([[:space:]]|$)" \
        /etc/apt/sources.list /etc/apt/sources.list.d/*.list && return 0
    # deb822: a stanza with deb-src in Types and $suite in Suites.
    awk -v s="$suite" '
        /^[[:space:]]*$/ { if (t && hit) found = 1; t = 0; hit = 0; next }
        /^Types:/  { for (i = 2; i <= NF; i++) if ($i == "deb-src") t = 1 }
        /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == s) hit = 1 }
        END        { exit !(found || (t && hit)) }' /etc/apt/sources.list.d/*.sources 2>/dev/null
}

ensure_source_tools() {
    local suite
    suite=$(codename)
    if ! has_deb_src "$suite"; then
        local uri
        uri=$(mirror_uri "$suite")
        say "adding deb-src for $suite ($uri) in /etc/apt/sources.list.d/aicluster-deb-src.list"
        echo "deb-src $uri $suite main" | as_root tee /etc/apt/sources.list.d/aicluster-deb-src.list >/dev/null
        as_root apt-get update -qq
    fi
    if ! command -v dpkg-source >/dev/null; then
        say "installing dpkg-dev (for dpkg-source)"
        as_root apt-get install -y --no-install-recommends dpkg-dev
    fi
}

# The unpacked ns-3 tree: the folder holding the ns3 script and src/core.
find_ns3_tree() {
    find "$WORK" -maxdepth 3 -type f -name ns3 -path '*/ns-3*/ns3' 2>/dev/null |
        while read -r f; do
            d=$(dirname "$f")
            [ -d "$d/src/core" ] && [ -f "$d/CMakeLists.txt" ] && echo "$d" && break
        done
}

# The work folder is emptied before each fetch: only one this script made (it holds a marker
# file) or an empty one, never a folder of the user's.
prepare_work_dir() {
    if [ -d "$WORK" ] && [ -n "$(ls -A "$WORK")" ] && [ ! -f "$WORK/.aicluster-in-tree" ]; then
        die "$WORK is not empty and was not made by this script; pass another folder"
    fi
    mkdir -p "$WORK"
    touch "$WORK/.aicluster-in-tree"
}

fetch_ns3_source() {
    prepare_work_dir
    local tree
    tree=$(find_ns3_tree)
    if [ -n "$tree" ] && [ "${KEEP_SOURCE:-0}" = 1 ]; then
        say "reusing unpacked ns-3 tree $tree"
        echo "$tree" >"$WORK/.tree"
        return
    fi
    ensure_source_tools
    say "apt-get source ns3 into $WORK"
    find "$WORK" -mindepth 1 -maxdepth 1 ! -name .aicluster-in-tree -exec rm -rf {} +
    (cd "$WORK" && apt-get source -q ns3 >"$WORK/source.log" 2>&1) ||
        {
            tail -n 20 "$WORK/source.log"
            die "apt-get source ns3 failed (log: $WORK/source.log)"
        }
    tail -n 3 "$WORK/source.log"
    tree=$(find_ns3_tree)
    [ -n "$tree" ] || die "no ns-3 tree (ns3 script + src/core) found under $WORK"
    echo "$tree" >"$WORK/.tree"
}

install_module() {
    local tree=$1 dest=$1/contrib/aicluster
    say "copying $REPO to $dest"
    rm -rf "$dest"
    mkdir -p "$dest"
    # Only the files a user would have: no build folders, no git metadata.
    tar -C "$REPO" --exclude='./build*' --exclude='./.git' --exclude='./results' \
        --exclude='./cmake-cache' -cf - . | tar -C "$dest" -xf -
}

build_and_run() {
    local tree=$1
    cd "$tree"
    say "configuring ns-3 in $tree (modules: aicluster and what it depends on)"
    # A fresh build unless iterating on a kept tree (KEEP_SOURCE=1 rebuilds incrementally).
    [ "${KEEP_SOURCE:-0}" = 1 ] || rm -rf build cmake-cache
    # --enable-modules keeps the build to aicluster's own dependency closure.
    ./ns3 configure --enable-examples --enable-modules=aicluster \
        >"$WORK/configure.log" 2>&1 ||
        {
            tail -n 40 "$WORK/configure.log"
            die "ns-3 configure failed (full log: $WORK/configure.log)"
        }
    grep -E 'aicluster|Modules configured|Modules that cannot' -A3 "$WORK/configure.log" | head -n 20 || true

    say "building (-j$JOBS)"
    local t0=$SECONDS
    # What `./ns3 build` runs; called directly because ns-3.37's script caps -j at nproc - 1.
    cmake --build cmake-cache -j "$JOBS" >"$WORK/build.log" 2>&1 ||
        {
            grep -E 'error|Error' -A5 "$WORK/build.log" | head -n 60
            die "ns-3 build failed (full log: $WORK/build.log)"
        }
    echo "built in $((SECONDS - t0)) s"

    say "./ns3 run \"$EXAMPLE_ARGS\" (in $tree)"
    local rc=0
    ./ns3 run --no-build "$EXAMPLE_ARGS" || rc=$?
    echo "exit code: $rc"
    [ "$rc" -eq 0 ] || die "the example failed in the ns-3 tree"
}

main() {
    fetch_ns3_source
    local tree
    tree=$(cat "$WORK/.tree")
    install_module "$tree"
    build_and_run "$tree"
    say "in-tree build OK: $tree/contrib/aicluster"
}

# On one line, so that bash never reads on into a file edited meanwhile.
main "$@"; exit
