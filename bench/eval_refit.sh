#!/usr/bin/env bash
# Offline (no GPU): refit h200-tuned on a copy of the v17 store with the
# current model (model/builtin_json.c rewritten), then replay v17 (held-out),
# v18 and v19 (held-out) and v20 (held-out, all): grids the fit never saw.
# The stores live in /work/notes (not in git); see bench/tuned_builtin.py.
cd /work/main
make -j8 bin/gjadvise 2>&1 | grep -E " error|warning:"
U17=GPU-257f7783-60ea-68c9-22ec-6bcc2b22c546
U18=GPU-66f4c21c-1fa5-0d31-b1cd-73cbb10a45d2
U19=GPU-f545fc29-a8bd-e72d-6143-31bb373816da
U20=GPU-a587dad0-7ace-a2a2-4f96-e65ebc77b8bd
cp /work/notes/validate-h200-v17.db /tmp/e17.db
bin/gjadvise tune --profile h200-measured@1 --db /tmp/e17.db --device $U17 > /tmp/e17.tune 2>&1 || { tail -3 /tmp/e17.tune; exit 1; }
V=$(grep -o "saved h200-measured v[0-9]*" /tmp/e17.tune | grep -o "[0-9]*$")
bin/gjadvise profiles export h200-measured@$V --db /tmp/e17.db -o /tmp/e17.json >/dev/null
python3 bench/tuned_builtin.py /tmp/e17.json >/dev/null
make -j8 bin/gjadvise 2>&1 | grep -E " error|warning:"
for spec in "/work/notes/validate-h200-v17.db $U17 --holdout" "/work/notes/validate-h200-v18.db $U18 --holdout" "/work/notes/validate-h200-v19.db $U19 --holdout" \
            "/work/notes/validate-h200-v20.db $U20 --holdout" "/work/notes/validate-h200-v20.db $U20"; do
    set -- $spec
    cp $1 /tmp/r.db
    echo "== $(basename $1) $3"
    bin/gjadvise validate --replay --db /tmp/r.db --device $2 --profile h200-tuned $3 2>&1 | sed -n 5,16p | awk '{printf "%s %s  ", $1, $3} END {print ""}'
    bin/gjadvise validate --replay --db /tmp/r.db --device $2 --profile h200-tuned $3 2>&1 | grep -A1 "advisor regret" | tail -1
done
