set -u
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u
GJ_BIN=$PWD/bin/gjadvise timeout 300 build/vt1/test_join 2>&1 | grep -E "^\[  (PASSED|FAILED)|FAILED|rows vs" | head
for s in 2^12 2^16 2^20; do for i in SMJ-UR SMJ-TR PHJ-UR; do
  printf "%s %s " $s $i; bin/gjadvise run join --r-rows 2^20 --s-rows $s --impl $i --repeat 15 --no-log --profile h200-tuned | grep -E "^total"
done; done
date -u
