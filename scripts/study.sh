#!/usr/bin/env bash
# Runs a study of studies/ (the papers' figures as parameter grids of contactlab runs) locally or
# as a Slurm job array, and collects its CSV, PNG and pass/fail checks: studies/README.md.
# Debian's /usr/bin/python3 first: it has python3-matplotlib and python3-numpy.
python=/usr/bin/python3
[ -x "$python" ] || python=python3
exec "$python" "${0%/*}/study_runner.py" "$@"
