#!/usr/bin/env bash
#
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs every `./ns3 run ...` command written in README.md, doc/*.md and traces/README.md, so
# that a documented command cannot silently break: each must exit 0 within a time bound.
#
# What counts as a command: a line of a fenced code block (``` ... ```) or of an indented
# block that starts with `./ns3 run` (a trailing `\` continues it on the next line; a
# trailing `# comment` is dropped), and an inline code span `./ns3 run ...`. Templates are
# not run: commands holding a placeholder (`<name>`, `...`, `…`).
#
# Markers, a line of its own just before the command: an HTML comment outside code blocks
# (invisible when rendered), or a shell comment inside one:
#   <!-- doc-check: reduce --opt=value ... -->   run the command with these options appended
#   # doc-check: reduce --opt=value ...          (after --, so they override): for the
#                                                deliberately long runs (whole traces, benches)
#   <!-- doc-check: skip <reason> -->             do not run it (e.g. interactive: gdb)
#   # doc-check: skip <reason>
# Commands that read ../shared/traces run only when that folder exists beside the repository
# (they are reported as skipped otherwise).
#
# Usage: utils/check-doc-commands.sh [--list] [FILE ...]   (default: the files above)
# Environment: DOC_CHECK_TIMEOUT (seconds per command, default 600).
# Exits 1 when a command fails or times out, and names it with its file and line.

set -euo pipefail

ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
cd "$ROOT"
TIMEOUT=${DOC_CHECK_TIMEOUT:-600}
LIST_ONLY=0
if [ "${1:-}" = --list ]; then
    LIST_ONLY=1
    shift
fi
if [ $# -gt 0 ]; then
    FILES=("$@")
else
    FILES=(README.md doc/*.md traces/README.md)
fi

# Prints one record per command: file, line, marker, command (separated by \\037).
extract() {
    awk '
    function emit(line, cmd,    m) {
        sub(/^[ \t]+/, "", cmd)
        sub(/[ \t]+$/, "", cmd)
        # A trailing shell comment (after whitespace, outside the quoted program string).
        if (match(cmd, /[ \t]+#[^"'"'"']*$/)) cmd = substr(cmd, 1, RSTART - 1)
        m = (marker_line == line - 1 || marker_line == cmd_start - 1) ? marker : ""
        printf "%s\037%d\037%s\037%s\n", FILENAME, line, m, cmd
    }
    FNR == 1 { fence = 0; pending = ""; marker = ""; marker_line = -10 }
    {
        text = $0
        if (text ~ /^[ \t]*<!--[ \t]*doc-check:.*-->[ \t]*$/ || text ~ /^[ \t]*#[ \t]*doc-check:/) {
            marker = text
            sub(/^[ \t]*(<!--|#)[ \t]*doc-check:[ \t]*/, "", marker)
            sub(/[ \t]*(-->)?[ \t]*$/, "", marker)
            marker_line = FNR
            next
        }
        if (text ~ /^[ \t]*(```|~~~)/) {
            # A marker on the line before an opening fence marks the first line of the block.
            if (!fence && marker_line == FNR - 1) marker_line = FNR
            fence = !fence
            next
        }
        if (pending != "") {
            cont = text
            sub(/^[ \t]+/, "", cont)
            pending = pending " " cont
            if (pending ~ /\\$/) { sub(/[ \t]*\\$/, "", pending); next }
            emit(cmd_start, pending); pending = ""; next
        }
        block = fence || text ~ /^(    |\t)[ \t]*(\$ )?\.\/ns3 run/
        if (block && text ~ /^[ \t]*(\$ )?\.\/ns3 run/) {
            cmd = text
            sub(/^[ \t]*(\$ )?/, "", cmd)
            cmd_start = FNR
            if (cmd ~ /\\$/) { sub(/[ \t]*\\$/, "", cmd); pending = cmd; next }
            emit(FNR, cmd)
            next
        }
        if (!fence) {
            rest = text
            while (match(rest, /`\.\/ns3 run [^`]*`/)) {
                cmd_start = FNR
                span = substr(rest, RSTART + 1, RLENGTH - 2)
                rest = substr(rest, RSTART + RLENGTH) # before emit(), whose match() resets RSTART
                emit(FNR, span)
            }
        }
    }' "$@"
}

# Files a command leaves in the working tree that git does not ignore (e.g. an example's
# default output file in the current folder) are removed after it, and named: only those
# that were not there before the command.
untracked() {
    git -C "$ROOT" ls-files --others --exclude-standard 2>/dev/null | sort
}

ran=0 skipped=0 templates=0 failed=0
failures=()
while IFS=$'\037' read -r file line marker cmd; do
    where="$file:$line"
    if [[ "$cmd" == *"<"*">"* || "$cmd" == *"..."* || "$cmd" == *"…"* ]]; then
        templates=$((templates + 1))
        [ "$LIST_ONLY" = 0 ] || printf 'template  %s  %s\n' "$where" "$cmd"
        continue
    fi
    run=$cmd
    case "$marker" in
    skip*)
        skipped=$((skipped + 1))
        printf 'skip      %s  %s  (%s)\n' "$where" "$cmd" "$marker"
        continue
        ;;
    reduce\ *)
        # Appended after --: ./ns3 run passes them to the program after its own arguments.
        if [[ "$cmd" == *" -- "* ]]; then run="$cmd ${marker#reduce }"; else run="$cmd -- ${marker#reduce }"; fi
        ;;
    "") ;;
    *)
        echo "check-doc-commands: $where: unknown marker 'doc-check: $marker' (expected reduce ... or skip ...)" >&2
        exit 1
        ;;
    esac
    if [[ "$cmd" == *"../shared/traces"* ]] && [ ! -d "$ROOT/../shared/traces" ]; then
        skipped=$((skipped + 1))
        printf 'skip      %s  %s  (../shared/traces is not beside the repository)\n' "$where" "$cmd"
        continue
    fi
    if [ "$LIST_ONLY" = 1 ]; then
        printf 'run       %s  %s\n' "$where" "$run"
        continue
    fi
    ran=$((ran + 1))
    log=$(mktemp)
    before=$(untracked)
    t0=$SECONDS
    rc=0
    timeout "$TIMEOUT" bash -c "$run" </dev/null >"$log" 2>&1 || rc=$?
    while read -r left; do
        [ -n "$left" ] || continue
        echo "          (removed $left, which the command wrote into the working tree)"
        rm -f -- "$ROOT/$left"
    done < <(comm -13 <(echo "$before") <(untracked))
    if [ "$rc" -eq 0 ]; then
        printf 'ok        %s  %s  (%d s)\n' "$where" "$run" "$((SECONDS - t0))"
    else
        failed=$((failed + 1))
        what="exit code $rc"
        [ "$rc" -ne 124 ] || what="timed out after $TIMEOUT s"
        printf 'FAIL      %s  %s  (%s)\n' "$where" "$run" "$what"
        tail -n 15 "$log" | sed 's/^/          | /'
        failures+=("$where: $run ($what)")
    fi
    rm -f "$log"
done < <(extract "${FILES[@]}")

echo "doc commands: $ran run, $failed failed, $skipped skipped, $templates templates (not runnable as written)"
if [ "$failed" -gt 0 ]; then
    printf 'failed: %s\n' "${failures[@]}" >&2
    exit 1
fi
