#!/usr/bin/env bash
#
# SPDX-License-Identifier: GPL-2.0-only
#
# A single-node Slurm for tests: munged, slurmctld and slurmd from Debian's munge and
# slurm-wlm, all state under one directory, stopped by their own process ids.
#   source slurm-cluster.sh; slurm_start <dir>; ... (sbatch/squeue see SLURM_CONF); slurm_stop
# Needs root (SlurmUser=root). slurm_start returns 77 when Slurm or munge is not installed.

slurm_start() {
    SLURM_TEST_DIR=$1
    local dir=$SLURM_TEST_DIR
    for tool in munged slurmctld slurmd sbatch squeue; do
        command -v "$tool" >/dev/null || { echo "slurm test: $tool not installed" >&2; return 77; }
    done
    [ "$(id -u)" -eq 0 ] || { echo "slurm test: needs root (SlurmUser=root)" >&2; return 77; }
    mkdir -p "$dir"/{munge,state,spool}
    chmod 700 "$dir/munge"
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
    chmod 600 "$dir/munge/munge.key"
    munged -F --force --socket="$dir/munge/socket" --key-file="$dir/munge/munge.key" \
        --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
        --seed-file="$dir/munge/seed" >"$dir/munged.out" 2>&1 &
    SLURM_TEST_PIDS=($!)
    local host ports
    host=$(hostname -s)
    # Ports from the process id, so that two test runs on one machine do not collide.
    ports=$((20000 + ($$ % 10000) * 2))
    cat >"$dir/slurm.conf" <<CONF
ClusterName=aicluster-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmctldPort=$ports
SlurmdPort=$((ports + 1))
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
MaxArraySize=10000
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF=$dir/slurm.conf
    for _ in $(seq 1 100); do [ -S "$dir/munge/socket" ] && break; sleep 0.1; done
    slurmctld -D -i -f "$SLURM_CONF" >"$dir/slurmctld.out" 2>&1 &
    SLURM_TEST_PIDS+=($!)
    slurmd -D -f "$SLURM_CONF" -N "$host" >"$dir/slurmd.out" 2>&1 &
    SLURM_TEST_PIDS+=($!)
    # Ready when the node is idle.
    local state=""
    for _ in $(seq 1 300); do
        state=$(sinfo -h -N -o %t 2>/dev/null | head -1)
        [ "$state" = "idle" ] && return 0
        sleep 0.2
    done
    echo "slurm test: the node did not come up (state '$state'); logs in $dir" >&2
    tail -5 "$dir"/slurmctld.log "$dir"/slurmd.log "$dir"/munged.out >&2 || true
    return 1
}

slurm_stop() {
    local pid
    for pid in "${SLURM_TEST_PIDS[@]:-}"; do
        [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
    done
    for pid in "${SLURM_TEST_PIDS[@]:-}"; do
        [ -n "$pid" ] && wait "$pid" 2>/dev/null || true
    done
    SLURM_TEST_PIDS=()
}
