#!/usr/bin/env bash
# Start an MPI+OpenMP program's ranks with Open MPI's mpirun, as a hybrid
# user does, and end them: every rank gets the caller's LD_LIBRARY_PATH (the
# runtime under test) and OMP_*, KMP_* and OMPEXT_* variables.
#
#   mpi_run.sh RANKS PROGRAM [ARGS...]
#
# Ranks may outnumber the processors (--oversubscribe), and Open MPI's own
# binding is left as it is for RANKS (a user's default).  MPI_RUN_TIMEOUT
# (seconds, default 300) bounds the whole job: a job still running then is
# ended, its ranks with it, and the script fails saying so, never hangs.
# Exit status: 0, or 1 with a message when mpirun is missing, a rank fails or
# dies, or the job is ended.
set -euo pipefail
die() { echo "mpi_run.sh: $*" >&2; exit 1; }

(($# >= 2)) || die "usage: mpi_run.sh RANKS PROGRAM [ARGS...]"
ranks=$1
shift
[[ $ranks =~ ^[1-9][0-9]*$ ]] || die "RANKS: '$ranks' is not a positive number"
limit=${MPI_RUN_TIMEOUT:-300}
[[ $limit =~ ^[1-9][0-9]*$ ]] || die "MPI_RUN_TIMEOUT: '$limit' is not a positive number"
command -v mpirun >/dev/null ||
  die "mpirun not found: install Open MPI (openmpi-bin, libopenmpi-dev; make deps does)"

args=(--oversubscribe -np "$ranks")
# Open MPI refuses root unless told; CI runs as root.
(($(id -u) == 0)) && args+=(--allow-run-as-root)
while IFS='=' read -r name _; do
  case $name in
    LD_LIBRARY_PATH | OMP_* | KMP_* | OMPEXT_* | LIBOMP_*) args+=(-x "$name") ;;
  esac
done < <(env)

status=0 start=$SECONDS
timeout -k 10 "$limit" mpirun "${args[@]}" "$@" || status=$?
((status == 0)) && exit 0
# timeout's own 124, or 137 after its KILL; 137 is also a rank's SIGKILL.
((status == 124 || (status == 137 && SECONDS - start >= limit))) &&
  die "the job of $ranks ranks ($*) took more than ${limit}s and was ended"
die "the job of $ranks ranks ($*) failed: mpirun exit $status (a rank failed or died)"
