#!/bin/bash
# One script: a warm-up run, then local 1/2 workers and Ray 1/2 in flight on one 2-CPU head,
# on the first 16 and 64 test episodes of `shortest`.
set -e
cd "$(dirname "$0")/.."
export PYTHONPATH=$PWD/src
B=${VENV:-.venv}/bin
R=$(mktemp -d /tmp/m2r-executors.XXXX); echo "results in $R"
PORT=6392
$B/ray start --head --block --node-ip-address=127.0.0.1 --port=$PORT --num-cpus=2 --include-dashboard=false --disable-usage-stats --object-store-memory=100000000 > $R/head.log 2>&1 &
HEAD=$!
$B/map2route bench map2route --method shortest --limit 4 --out $R/warm --json --workers 1 > /dev/null
for N in 16 64; do
for cfg in "local1:--workers 1" "local2:--workers 2" "ray1:--executor ray --address 127.0.0.1:$PORT --max-in-flight 1" "ray2:--executor ray --address 127.0.0.1:$PORT --max-in-flight 2"; do
  name=${cfg%%:*}; args=${cfg#*:}
  $B/map2route bench map2route --method shortest --limit $N --out $R/$name-$N --json $args > $R/$name-$N.json
  python3 -c "import json;d=json.load(open('$R/$name-$N.json'));rows=[json.loads(l) for l in open('$R/$name-$N/results.jsonl')];print('$name', d['episodes'], d['wall_s'], round(sum(r['solve_s'] for r in rows),2))" >> $R/summary.txt
done; done
kill -TERM $HEAD; wait $HEAD || true
uptime >> $R/summary.txt
