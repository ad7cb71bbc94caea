#!/usr/bin/env bash
#
# SPDX-License-Identifier: GPL-2.0-only
#
# aicluster in an ns-3-dev tree (the newest ns-3: C++23, EnumValue<T>, no EventId::IsRunning,
# BLIB_LIBNAME in build_lib_example, ...): utils/check-in-tree-build.sh on a public ns-3-dev
# snapshot instead of Debian's ns-3.37. It unpacks the snapshot under WORK_DIR, puts this
# repository in as contrib/aicluster, builds only what aicluster needs (core, network,
# point-to-point, internet and their dependencies; examples and tests on), runs trace-replay
# and ./test.py -s aicluster. Nothing is written into this repository.
#
# Usage: utils/check-ns3-dev.sh [WORK_DIR]            (default: /tmp/aicluster-ns3-dev)
# Environment:
#   NS3_GIT   where the snapshot comes from: a git URL (default: the public
#             https://gitlab.com/nsnam/ns-3-dev.git, shallow clone) or a local git directory,
#             e.g. a mirror of github.com/nsnam/ns-3-dev-git (read with git archive)
#   NS3_REF   commit, branch or tag (default HEAD)
#   JOBS, KEEP_SOURCE, KEEP_GOING, NS3_PROFILE, TESTS, EXAMPLE_ARGS: as in
#   utils/check-in-tree-build.sh
# Slow: about 470 build steps (ns-3 modules, their tests and aicluster); 30 minutes or more on
# 2 cores.

set -euo pipefail
HERE=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
export NS3_GIT=${NS3_GIT:-https://gitlab.com/nsnam/ns-3-dev.git}
export NS3_REF=${NS3_REF:-HEAD}
exec "$HERE/check-in-tree-build.sh" "${1:-/tmp/aicluster-ns3-dev}"
