#!/usr/bin/env bash
#
# SPDX-License-Identifier: GPL-2.0-only
#
# Proves that aicluster builds and runs inside an ns-3 source tree (contrib/aicluster),
# the way most ns-3 users install third-party modules.
#
# It fetches an ns-3 source tree: Debian's source package (ns-3.37 on bookworm) with
# `apt-get source`, or, with NS3_GIT set, a snapshot of a git repository (ns-3-dev: see
# utils/check-ns3-dev.sh). It copies this repository in as contrib/aicluster, configures ns-3
# with only the modules aicluster needs plus examples and tests, builds, runs the
# trace-replay example and the Catch2 suite through ns-3's own test runner
# (./test.py -s aicluster, the TestSuite in test/ns3-test-suite.cc).
#
# Slow (20 minutes or more on 2 cores) and not part of CI. The Debian source needs root on
# Debian/Ubuntu for the deb-src line and dpkg-dev; everything else happens under the work
# directory. Nothing is written into this repository.
#
# Usage: utils/check-in-tree-build.sh [WORK_DIR]     (default: /tmp/aicluster-in-tree)
# Environment: JOBS (parallel jobs, default nproc); KEEP_SOURCE=1 reuses an unpacked tree and
# its build (incremental); EXAMPLE_ARGS (default "trace-replay --quiet");
# NS3_GIT (a git URL or a local git directory: take the tree from there instead of
# apt-get source), NS3_REF (the commit, branch or tag of NS3_GIT, default HEAD);
# NS3_PROFILE (ns-3's build profile, default "default"); TESTS=0 skips test.py;
# KEEP_GOING=1 builds on past a compile error, to see every error in one run.

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=${1:-/tmp/aicluster-in-tree}
JOBS=${JOBS:-$(nproc)}
EXAMPLE_ARGS=${EXAMPLE_ARGS:-"trace-replay --quiet"}
NS3_GIT=${NS3_GIT:-}
NS3_REF=${NS3_REF:-HEAD}
NS3_PROFILE=${NS3_PROFILE:-default}
TESTS=${TESTS:-1}

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
    find "$WORK" -maxdepth 3 -type f -name ns3 \( -path '*/ns-3*/ns3' -o -path '*/ns3-*/ns3' \) 2>/dev/null |
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

# A git snapshot of NS3_GIT at NS3_REF, unpacked as $WORK/ns-3-git (no .git inside).
fetch_ns3_git() {
    local dest=$WORK/ns-3-git
    find "$WORK" -mindepth 1 -maxdepth 1 ! -name .aicluster-in-tree -exec rm -rf {} +
    mkdir -p "$dest"
    if [ -d "$NS3_GIT" ]; then
        local gitdir=$NS3_GIT
        [ -d "$gitdir/.git" ] && gitdir=$gitdir/.git
        say "ns-3 from the local git directory $gitdir at $NS3_REF"
        # A partial mirror may lack some large blobs: leave those files out (named here).
        local missing=() path
        mapfile -t missing < <(git --git-dir="$gitdir" ls-tree -r "$NS3_REF" |
            awk '$2 == "blob" { print $3 }' |
            git --git-dir="$gitdir" cat-file --batch-check='%(objectname) %(objecttype)' 2>/dev/null |
            awk '$2 == "missing" { print $1 }' | sort -u)
        local exclude=()
        if [ ${#missing[@]} -gt 0 ]; then
            while read -r path; do
                echo "note: not in the snapshot, left out: $path"
                exclude+=(":(exclude)$path")
            done < <(git --git-dir="$gitdir" ls-tree -r "$NS3_REF" |
                grep -F -f <(printf '%s\n' "${missing[@]}") | cut -f2)
        fi
        # git archive still says "error: invalid object" for an excluded missing blob (and exits
        # 0): keep its other messages only.
        git --git-dir="$gitdir" archive --format=tar "$NS3_REF" -- . ${exclude[@]+"${exclude[@]}"} \
            2>"$WORK/archive.err" |
            tar -C "$dest" -xf - || {
            cat "$WORK/archive.err" >&2
            die "git archive $NS3_REF of $gitdir failed"
        }
        if [ ${#missing[@]} -gt 0 ]; then
            grep -v -F -f <(printf '%s\n' "${missing[@]}") "$WORK/archive.err" >&2 || true
        else
            cat "$WORK/archive.err" >&2
        fi
        git --git-dir="$gitdir" describe --tags --always "$NS3_REF" >"$WORK/ns3-describe" 2>/dev/null || true
    else
        say "ns-3 from $NS3_GIT ($NS3_REF), shallow clone"
        local clone=$WORK/clone
        if [ "$NS3_REF" = HEAD ]; then
            git clone -q --depth 1 "$NS3_GIT" "$clone" || die "git clone $NS3_GIT failed"
        else
            git clone -q --depth 1 --branch "$NS3_REF" "$NS3_GIT" "$clone" ||
                die "git clone $NS3_GIT at $NS3_REF failed"
        fi
        git -C "$clone" describe --tags --always >"$WORK/ns3-describe" 2>/dev/null || true
        git -C "$clone" archive --format=tar HEAD | tar -C "$dest" -xf -
        rm -rf "$clone"
    fi
    echo "ns-3 source: $(cat "$WORK/ns3-describe" 2>/dev/null || echo unknown) ($(head -n1 "$dest/VERSION" 2>/dev/null))"
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
    if [ -n "$NS3_GIT" ]; then
        fetch_ns3_git
        tree=$(find_ns3_tree)
        [ -n "$tree" ] || die "no ns-3 tree (ns3 script + src/core) in the snapshot of $NS3_GIT"
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
    # ns-3's configure copies module headers into build/include/ns3 and keeps a copy whose
    # timestamp it already has: on a kept tree an older copy of an aicluster header can outlive
    # its change (seen: a test calling a function the stale copy lacked). Remove ours so that
    # configure copies them afresh.
    local h
    find "$dest/model" "$dest/helper" -name '*.h' -printf '%f\n' 2>/dev/null | while read -r h; do
        rm -f "$tree/build/include/ns3/$h"
    done
}

build_and_run() {
    local tree=$1
    cd "$tree"
    say "configuring ns-3 in $tree (modules: aicluster and what it depends on)"
    # A fresh build unless iterating on a kept tree (KEEP_SOURCE=1 rebuilds incrementally).
    [ "${KEEP_SOURCE:-0}" = 1 ] || rm -rf build cmake-cache
    # --enable-modules keeps the build to aicluster's own dependency closure, and
    # --filter-module-examples-and-tests leaves out the examples and tests of ns-3's modules.
    local tests=--disable-tests
    [ "$TESTS" = 0 ] || tests=--enable-tests
    # The copy in contrib/ has no ../shared beside it: the tests that read the public traces
    # are told where they are (CMakeLists.txt, AICLUSTER_SHARED_TRACES).
    local traces=()
    [ ! -d "$REPO/../shared/traces" ] ||
        traces=(-- "-DAICLUSTER_SHARED_TRACES=$(cd "$REPO/../shared/traces" && pwd)")
    ./ns3 configure -d "$NS3_PROFILE" --enable-examples "$tests" --enable-modules=aicluster \
        --filter-module-examples-and-tests=aicluster "${traces[@]}" \
        >"$WORK/configure.log" 2>&1 ||
        {
            tail -n 40 "$WORK/configure.log"
            die "ns-3 configure failed (full log: $WORK/configure.log)"
        }
    grep -E 'aicluster|Modules configured|Modules that cannot' -A3 "$WORK/configure.log" | head -n 20 || true

    say "building (-j$JOBS)"
    local t0=$SECONDS
    # What `./ns3 build` runs; called directly because ns-3.37's script caps -j at nproc - 1.
    # KEEP_GOING=1: build everything that can be built past a failure (lists every error at once).
    local keep=()
    if [ "${KEEP_GOING:-0}" = 1 ]; then
        if grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja' cmake-cache/CMakeCache.txt; then
            keep=(-- -k 0)
        else
            keep=(-- -k)
        fi
    fi
    cmake --build cmake-cache -j "$JOBS" ${keep[@]+"${keep[@]}"} >"$WORK/build.log" 2>&1 ||
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

    if [ "$TESTS" != 0 ]; then
        say "./test.py --no-build -s aicluster (the Catch2 suite as an ns-3 TestSuite)"
        rc=0
        local t1=$SECONDS
        ./test.py --no-build -s aicluster --verbose-failed >"$WORK/test.log" 2>&1 || rc=$?
        tail -n 15 "$WORK/test.log"
        echo "test.py exit code: $rc ($((SECONDS - t1)) s; full log: $WORK/test.log)"
        [ "$rc" -eq 0 ] || die "./test.py -s aicluster failed in the ns-3 tree"
        grep -q 'PASS.*aicluster' "$WORK/test.log" || die "test.py did not report the aicluster suite as passed"
    fi
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
