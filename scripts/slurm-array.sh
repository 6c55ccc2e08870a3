#!/usr/bin/env bash
# One warren run split over a Slurm job array, one shard per task, then joined by `warren merge`:
#
#   sbatch --array=0-3 scripts/slurm-array.sh maze 1000000 runs/maze
#   # when every task has finished:
#   warren merge runs/maze.arrow runs/maze/shard-*.arrow
#
# Each task makes shard SLURM_ARRAY_TASK_ID of the array's size (`--shard auto` reads
# SLURM_ARRAY_TASK_ID with SLURM_ARRAY_TASK_COUNT, or _MIN/_MAX), so the shards together hold
# exactly the levels of `warren generate KIND --count COUNT --seed SEED` on one machine.
# Arguments: KIND (or a profile file) COUNT OUTDIR [SEED]; WARREN names the binary (default
# `warren` on the PATH).
#
# A preempted or failed task is requeued (`--requeue`) and runs this script again with the same
# task id; `--resume` then keeps the levels the killed run had written (its `shard-N.arrow.tmp`)
# and makes only the rest, into the archive an uninterrupted task writes. A task whose shard is
# already finished does nothing.
#SBATCH --job-name=warren
#SBATCH --cpus-per-task=2
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --output=warren-%A_%a.log
set -euo pipefail

kind=${1:?usage: slurm-array.sh KIND COUNT OUTDIR [SEED]}
count=${2:?usage: slurm-array.sh KIND COUNT OUTDIR [SEED]}
out=${3:?usage: slurm-array.sh KIND COUNT OUTDIR [SEED]}
seed=${4:-0}
warren=${WARREN:-warren}
task=${SLURM_ARRAY_TASK_ID:?not a Slurm array task (SLURM_ARRAY_TASK_ID is not set)}

mkdir -p "$out"
"$warren" generate "$kind" --count "$count" --seed "$seed" --shard auto \
    --threads "${SLURM_CPUS_PER_TASK:-0}" --quiet --resume \
    --out "$out/shard-$(printf %05d "$task").arrow"
