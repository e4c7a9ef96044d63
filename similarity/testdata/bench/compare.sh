#!/usr/bin/env bash
# bench-compare: the all-links recompute of incidents beside its two peers, in one run on the same
# generated corpus (this machine is shared: only ratios from one run mean anything).
#   ours     incidents related --recompute --force: DuckDB read, index, top 10 of every case, links
#            written (wall time of the whole command, process start included)
#   sdt      scikit-learn TfidfVectorizer + ing-bank's sparse_dot_topn 0.3.6, threaded on every core
#            (fit + top-k in memory, nothing stored; Python start and file reading not counted)
#   sklearn  scikit-learn TfidfVectorizer + chunked sparse product + argpartition (fit + top-k)
# usage: scripts/bench-compare.sh BIN ANCHORS SDT_DIR WORK [N] [ROUNDS]
set -euo pipefail
BIN=$(realpath "$1"); ANCHORS=$2; SDT_DIR=$3; WORK=$4; N=${5:-10000}; ROUNDS=${6:-3}
PY=/usr/bin/python3
mkdir -p "$WORK"
CORPUS="$WORK/corpus-$N-seed5"
if [ ! -f "$CORPUS/clusters.json" ]; then
  rm -rf "$CORPUS"
  "$BIN" gen --n "$N" --seed 5 --out "$CORPUS" >/dev/null
fi
DB="$WORK/bench-$N.duckdb"
rm -f "$DB" "$DB.wal"
"$BIN" --db "$DB" ingest "$CORPUS" >/dev/null
"$BIN" --db "$DB" related --recompute --force >/dev/null 2>&1   # warm the file cache once
echo "corpus: $N generated cases (seed 5) in $CORPUS; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
ours=(); sdt=(); skl=()
for r in $(seq 1 "$ROUNDS"); do
  t0=$(date +%s.%N)
  "$BIN" --db "$DB" related --recompute --force >"$WORK/ours.out" 2>"$WORK/ours.err"
  t1=$(date +%s.%N)
  o=$(echo "$t1 - $t0" | bc -l)
  s=$(SDT_DIR="$SDT_DIR" "$PY" "$ANCHORS/tfidf_topk_sdt.py" "$CORPUS" 2>/dev/null)
  k=$("$PY" "$ANCHORS/tfidf_topk_sklearn.py" "$CORPUS" 2>/dev/null)
  printf 'round %d: ours %.2f s (%s) | sparse_dot_topn %.2f s | scikit-learn %.2f s\n' "$r" "$o" \
    "$(grep -h 'read' "$WORK/ours.err" | tail -1)" "$s" "$k"
  ours+=("$o"); sdt+=("$s"); skl+=("$k")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
mo=$(median "${ours[@]}"); ms=$(median "${sdt[@]}"); mk=$(median "${skl[@]}")
printf 'median of %d rounds: ours %.2f s, sparse_dot_topn %.2f s (%.1fx ours), scikit-learn %.2f s (%.1fx ours)\n' \
  "$ROUNDS" "$mo" "$ms" "$(echo "$ms / $mo" | bc -l)" "$mk" "$(echo "$mk / $mo" | bc -l)"
head -1 "$WORK/ours.out"
