#!/usr/bin/env bash
# The search-strength matches: the engine built from this checkout against a
# reference build (by default the foundation, commit 0c8b16e, built in a
# separate worktree): freestyle 15×15 for the Elo difference, then standard
# 15×15, renju 15×15 and freestyle 20×20, where no game may be lost on time,
# by an illegal move or a crash.
#
# The Elo match uses scripts/openings/freestyle-15-balanced.txt: openings a
# depth-10 search scores within ±80 (freestyle-15.txt only passed a depth-4
# check; at depth 10 it scores every one of its openings +78…+530 for black,
# so many of its games are decided by the colour, not by the engines). The
# standard and 20x20 matches use files made the same way (20x20's at depth
# 8): over the depth-4 files (standard-15.txt, freestyle-20.txt) black won
# about nine games of ten, whoever played it.
#
# usage: scripts/strength-matches.sh [--games N] [--side-games N] [--tc G+I]
#                                    [--side-tc G+I] [--base COMMIT | --opponent CMD]
#                                    [--name NAME] [--out DIR]
# --opponent plays any pbrain engine (a path or a command line) instead of
# the reference build, e.g. another Gomocup engine; --name names it in the
# reports. Each match prints its RESULT line; logs go to DIR (default
# target/matches).
set -euo pipefail
cd "$(dirname "$0")/.."

games=200
side_games=100
tc=10+0.1
side_tc=10+0.1
base=0c8b16e
opponent=
name=
out=target/matches
while [ $# -gt 0 ]; do
    case "$1" in
        --games) games=$2; shift 2 ;;
        --side-games) side_games=$2; shift 2 ;;
        --tc) tc=$2; shift 2 ;;
        --side-tc) side_tc=$2; shift 2 ;;
        --base) base=$2; shift 2 ;;
        --opponent) opponent=$2; shift 2 ;;
        --name) name=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done
mkdir -p "$out"

cargo build --release -q
engine="$out/pbrain-wuzi-new"
cp target/release/pbrain-wuzi "$engine"

if [ -n "$opponent" ]; then
    base_engine=$opponent
    label=${name:-opponent}
else
    base_dir="$out/base-$base"
    if [ ! -x "$base_dir/target/release/pbrain-wuzi" ]; then
        rm -rf "$base_dir"
        git worktree add --detach -f "$base_dir" "$base" >/dev/null
        (cd "$base_dir" && cargo build --release -q)
    fi
    base_engine="$base_dir/target/release/pbrain-wuzi"
    label=${name:-base}
fi

run() {
    local name=$1
    shift
    echo "== $name"
    python3 scripts/match.py --concurrency 2 --quiet --name1 wuzi --name2 "$label" \
        --log "$out/$name.log" "$@" | tail -1
}

run freestyle15-vs-$label --engine1 "$engine" --engine2 "$base_engine" \
    --size 15 --rule 0 --openings scripts/openings/freestyle-15-balanced.txt --games "$games" --tc "$tc"
run standard15-vs-$label --engine1 "$engine" --engine2 "$base_engine" \
    --size 15 --rule 1 --openings scripts/openings/standard-15-balanced.txt --games "$side_games" --tc "$side_tc"
run renju15-vs-$label --engine1 "$engine" --engine2 "$base_engine" \
    --size 15 --rule 4 --openings scripts/openings/renju-15.txt --games "$side_games" --tc "$side_tc"
run freestyle20-vs-$label --engine1 "$engine" --engine2 "$base_engine" \
    --size 20 --rule 0 --openings scripts/openings/freestyle-20-balanced.txt --games "$side_games" --tc "$side_tc"
