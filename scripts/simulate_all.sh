#!/usr/bin/env bash
# Run `toepen simulate --games N` (default 2000) for every preset at every table size it
# allows, one after the other, and print a table of wall times and outcomes at the end.
#
#   scripts/simulate_all.sh            # 2000 sessions each
#   GAMES=200 scripts/simulate_all.sh  # fewer
#
# Exit status: 0 if every run succeeded, 1 otherwise (the failures are listed).
set -u
cd "$(dirname "$0")/.."
GAMES="${GAMES:-2000}"
LOG_DIR="${LOG_DIR:-$(mktemp -d -t toepen-simulate-XXXXXX)}"
mkdir -p "$LOG_DIR"
mapfile -t CONFIGS < <(uv run python -c '
from toepen.rules import Rules
for name in Rules.preset_names():
    for n in Rules.preset(name).allowed_table_sizes():
        print(name, n)
')
failures=0
summary=()
start_all=$(date +%s.%N)
for config in "${CONFIGS[@]}"; do
    read -r preset players <<<"$config"
    log="$LOG_DIR/$preset-$players.log"
    start=$(date +%s.%N)
    if uv run toepen simulate --games "$GAMES" --preset "$preset" --players "$players" --json \
        >"$log" 2>"$log.err"; then
        status=ok
    else
        status="FAILED (exit $?, see $log.err)"
        failures=$((failures + 1))
    fi
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    hands=$(uv run python -c 'import json,sys; d=json.loads(open(sys.argv[1]).read().splitlines()[-1]); print(d["hands per session"])' "$log" 2>/dev/null || echo "-")
    line=$(printf '%-13s %2s players  %8.1f s  hands/session %7s  %s' "$preset" "$players" "$secs" "$hands" "$status")
    echo "$line"
    summary+=("$line")
done
total=$(echo "$(date +%s.%N) - $start_all" | bc)
echo
echo "== toepen simulate --games $GAMES: ${#CONFIGS[@]} configurations, $(printf '%.0f' "$total") s, $failures failed (logs: $LOG_DIR)"
[ "$failures" -eq 0 ]
