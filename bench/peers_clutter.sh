#!/usr/bin/env bash
# Side-by-side timing of the clutter (ICF paper §VII-A: 40 bodies, δt = 2 ms, 3 s) in contactlab
# and in peer engines, alternating the engines round by round on the same machine (machines here
# are noisy: compare within one run). The peers are reference harnesses kept outside the project
# (MuJoCo 2.2.2 from Debian's libmujoco-dev, Bullet 3.24 from libbullet-dev); build them first
# and pass their binaries:
#
#   bench/peers_clutter.sh build/contactlab /tmp/mujoco_peers [/tmp/bullet_peers] [ROUNDS]
#
# Prints one line per engine: mean, median and last-second median µs per step, mean and max
# Newton iterations, mean contacts (the figures of bench/RESULTS.md).
set -euo pipefail
contactlab=${1:?usage: $0 CONTACTLAB MUJOCO_PEERS [BULLET_PEERS] [ROUNDS]}
mujoco=${2:?usage: $0 CONTACTLAB MUJOCO_PEERS [BULLET_PEERS] [ROUNDS]}
bullet=${3:-}
rounds=${4:-3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
models=(lagged sap similar regularized_lagged)
for ((r = 1; r <= rounds; ++r)); do
  for m in "${models[@]}"; do
    "$contactlab" --scene clutter --model "$m" --headless --summary "$out/$m.$r.json" >/dev/null
  done
  "$mujoco" clutter 0.002 stiff >"$out/mujoco_stiff.$r.txt"
  "$mujoco" clutter 0.002 default >"$out/mujoco_default.$r.txt"
  if [[ -n "$bullet" ]]; then "$bullet" clutter 0.002 >"$out/bullet.$r.txt"; fi
done
python3 - "$out" "$rounds" "${models[@]}" <<'EOF'
import json, re, statistics, sys
out, rounds, models = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
mean = statistics.mean
print(f"{'engine':<28}{'mean µs':>9}{'median':>8}{'last 1 s':>9}{'iterations':>11}{'max':>5}{'contacts':>9}")
for m in models:
    d = [json.load(open(f"{out}/{m}.{r}.json")) for r in range(1, rounds + 1)]
    assert all(x["all_converged"] for x in d), f"{m}: a step did not converge"
    print(f"{'contactlab ' + m:<28}{1e3 * mean(x['step_ms']['mean'] for x in d):>9.0f}"
          f"{1e3 * mean(x['step_ms']['median'] for x in d):>8.0f}"
          f"{1e3 * mean(x['last_second']['step_ms_median'] for x in d):>9.0f}"
          f"{mean(x['iterations']['mean'] for x in d):>11.2f}"
          f"{max(x['iterations']['max'] for x in d):>5.0f}"
          f"{mean(x['contacts']['mean'] for x in d):>9.0f}")
for peer in ("mujoco_stiff", "mujoco_default", "bullet"):
    try:
        runs = [dict(re.findall(r"(\w+)=([-\d.e]+)", open(f"{out}/{peer}.{r}.txt").read()))
                for r in range(1, rounds + 1)]
    except FileNotFoundError:
        continue
    get = lambda k: mean(float(x[k]) for x in runs) if all(k in x for x in runs) else float("nan")
    print(f"{peer:<28}{get('us_per_step_mean'):>9.0f}{get('us_per_step_median'):>8.0f}"
          f"{get('us_per_step_median_last1s'):>9.0f}{get('solver_iter_mean'):>11.2f}{'':>5}"
          f"{get('ncon_mean'):>9.0f}")
EOF
