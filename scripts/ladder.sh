#!/usr/bin/env bash
# The strength ladder: plays neighbouring `--strength` levels of one engine
# against each other with scripts/match.py (freestyle 15x15, the openings of
# scripts/openings/freestyle-15.txt, one game at a time) and prints each
# match's RESULT line with its verdict. Builds nothing.
#
# Usage: scripts/ladder.sh ENGINE [--games N] [--full-games N] [--turn-ms MS]
#   ENGINE        the engine executable, e.g. target/release/pbrain-wuzi
#   --games N     games per match between the tutorial players (default 100;
#                 they answer at once)
#   --full-games N  games of full strength against the minimax (default 80)
#   --turn-ms MS  time per move (default 200)
#
# The levels (src/levels/mod.rs): 0 five-tuple scorer, 30 pattern scorer,
# 60 depth-3 minimax, 100 full strength. Each level plays the one below it:
# the pattern scorer and the minimax must score 75 % against their
# neighbours, full strength 95 % against the minimax. Exits 1 if a bar is
# missed.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ]; then
    awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"
    exit 2
fi
engine=$1
shift
games=100
full_games=80
turn_ms=200
while [ $# -gt 0 ]; do
    case $1 in
        --games) games=$2; shift 2 ;;
        --full-games) full_games=$2; shift 2 ;;
        --turn-ms) turn_ms=$2; shift 2 ;;
        *) echo "ladder.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done

failed=0

# match NAME1 STRENGTH1 NAME2 STRENGTH2 GAMES BAR: plays the match, prints
# its RESULT line and whether engine1 reached BAR (a score).
match() {
    local name1=$1 s1=$2 name2=$3 s2=$4 n=$5 bar=$6
    local result score verdict
    result=$(python3 scripts/match.py \
        --engine1 "$engine --strength $s1" --name1 "$name1" \
        --engine2 "$engine --strength $s2" --name2 "$name2" \
        --rule 0 --size 15 --openings scripts/openings/freestyle-15.txt \
        --games "$n" --turn-ms "$turn_ms" --concurrency 1 --quiet | grep '^RESULT')
    score=$(sed -n 's/.* score=\([0-9.]*\) .*/\1/p' <<<"$result")
    if awk -v s="$score" -v b="$bar" 'BEGIN { exit !(s >= b) }'; then
        verdict="PASS (bar $bar)"
    else
        verdict="FAIL (bar $bar)"
        failed=1
    fi
    echo "$name1 ($s1) vs $name2 ($s2): $verdict"
    echo "$result"
}

match patterns 30 tuples 0 "$games" 0.75
match minimax 60 patterns 30 "$games" 0.75
match full 100 minimax 60 "$full_games" 0.95
exit "$failed"
