#!/usr/bin/env bash
# Offline (no GPU): refit h200-tuned on a copy of a training store (TRAIN,
# default v21: the first grid with the dense join write) with the current
# model (model/builtin_json.c rewritten), then replay the training grid's
# held-out half and every store of REPLAY (grids the fit never saw; each
# "STORE:UUID ..."): held-out and all points. The stores live in /work/notes
# (not in git); see bench/tuned_builtin.py. Grids before v21 measured the
# joins' compacting write, so their GFTR points at match ratio 1 are of an
# older operator.
cd /work/main
make -j8 bin/gjadvise 2>&1 | grep -E " error|warning:"
TRAIN=${TRAIN:-"/work/notes/validate-h200-v21.db GPU-4f14f85b-70fd-355b-9c74-4155d3ba41a9"}
set -- $TRAIN
TDB=$1 TDEV=$2
cp "$TDB" /tmp/etrain.db
# the store's copy of h200-measured predates parameters added to the
# built-in since (bw_part_pair1): add them, so that the fit sees the model
# the shipped profile will run with
cp /tmp/etrain.db /tmp/eempty.db  # emptied: export then gives the built-in
sqlite3 /tmp/eempty.db "DELETE FROM param; DELETE FROM fit; DELETE FROM exec_phase; DELETE FROM exec_log; DELETE FROM profile;"
bin/gjadvise profiles export h200-measured -o /tmp/ebuiltin.json --db /tmp/eempty.db >/dev/null
python3 - <<'PY'
import json, sqlite3
b = json.load(open("/tmp/ebuiltin.json"))["params"]
db = sqlite3.connect("/tmp/etrain.db")
pid = db.execute("SELECT id FROM profile WHERE name='h200-measured' AND version=1").fetchone()[0]
have = {k for (k,) in db.execute("SELECT key FROM param WHERE profile_id=?", (pid,))}
for k, v in b.items():
    if k not in have:
        db.execute("INSERT INTO param VALUES (?,?,?,?,?,?)", (pid, k, v["value"], v.get("spread", 0), v["unit"], v["source"]))
db.commit()
PY
bin/gjadvise tune --profile h200-measured@1 --db /tmp/etrain.db --device $TDEV > /tmp/etrain.tune 2>&1 || { tail -3 /tmp/etrain.tune; exit 1; }
V=$(grep -o "saved h200-measured v[0-9]*" /tmp/etrain.tune | grep -o "[0-9]*$")
bin/gjadvise profiles export h200-measured@$V --db /tmp/etrain.db -o /tmp/etrain.json >/dev/null
python3 bench/tuned_builtin.py /tmp/etrain.json >/dev/null
make -j8 bin/gjadvise 2>&1 | grep -E " error|warning:"
SPECS=("$TDB $TDEV --holdout")
for r in ${REPLAY:-}; do SPECS+=("${r/:/ } --holdout" "${r/:/ } --all"); done
for spec in "${SPECS[@]}"; do
    set -- $spec
    [ "$3" = --all ] && set -- $1 $2 ""
    cp $1 /tmp/r.db
    echo "== $(basename $1) $3"
    bin/gjadvise validate --replay --db /tmp/r.db --device $2 --profile h200-tuned $3 2>&1 | sed -n 5,16p | awk '{printf "%s %s  ", $1, $3} END {print ""}'
    bin/gjadvise validate --replay --db /tmp/r.db --device $2 --profile h200-tuned $3 2>&1 | grep -A1 "advisor regret" | tail -1
done
