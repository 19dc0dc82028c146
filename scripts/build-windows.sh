#!/usr/bin/env bash
# Builds pbrain-wuzi.exe for 64-bit Windows (Rust target x86_64-pc-windows-gnu,
# linked with Debian's MinGW-w64 cross compiler) and packages it the way
# Gomocup expects:
#
#   target/dist/pbrain-wuzi64.exe   the engine ("64" marks a 64-bit engine)
#   target/dist/pbrain-wuzi64.zip   that exe plus README.txt
#
# Usage: scripts/build-windows.sh [--test]
#
#   --test   also run the protocol tests (tests/protocol.rs) against the .exe
#            under Wine: WUZI_ENGINE="wine …/pbrain-wuzi.exe" cargo test
#            --release --test protocol
#
# Safe to run again. What is missing is installed: gcc-mingw-w64-x86-64 and
# zip (and wine + wine64 with --test) through apt-get, as root or via sudo,
# and the Rust target through rustup. Rust itself (rustup, cargo) must be
# there already: https://rustup.rs. The linker is set through the
# environment, so plain `cargo build` is untouched.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET=x86_64-pc-windows-gnu
LINKER=x86_64-w64-mingw32-gcc
NAME=pbrain-wuzi64

test_under_wine=0
for arg in "$@"; do
    case "$arg" in
        --test) test_under_wine=1 ;;
        -h | --help)
            sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        *)
            echo "build-windows.sh: unknown argument $arg (try --help)" >&2
            exit 2
            ;;
    esac
done

say() { printf '== %s\n' "$*"; }

# --- Tools -----------------------------------------------------------------

missing=()
command -v "$LINKER" >/dev/null || missing+=(gcc-mingw-w64-x86-64)
command -v zip >/dev/null || missing+=(zip)
if [ "$test_under_wine" = 1 ]; then
    command -v wine >/dev/null || missing+=(wine)
    # Debian's `wine` runs /usr/lib/wine/wine64 when wine32 is not installed.
    if [ ! -x /usr/lib/wine/wine64 ] && ! command -v wine64 >/dev/null; then
        missing+=(wine64)
    fi
fi
if [ "${#missing[@]}" -gt 0 ]; then
    say "installing ${missing[*]}"
    if ! command -v apt-get >/dev/null; then
        echo "build-windows.sh: no apt-get; install ${missing[*]} by hand" >&2
        exit 1
    fi
    if [ "$(id -u)" = 0 ]; then
        sudo=()
    elif command -v sudo >/dev/null; then
        sudo=(sudo)
    else
        echo "build-windows.sh: run as root (or install sudo) to install ${missing[*]}" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update
    # No recommends: wine's would add ~80 packages (fonts, GStreamer, …)
    # that a console engine does not need.
    "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi

if ! command -v cargo >/dev/null || ! command -v rustup >/dev/null; then
    echo "build-windows.sh: needs rustup and cargo (https://rustup.rs)" >&2
    exit 1
fi
if ! rustup target list --installed | grep -qx "$TARGET"; then
    say "rustup target add $TARGET"
    rustup target add "$TARGET"
fi

# --- Build -----------------------------------------------------------------

target_dir="${CARGO_TARGET_DIR:-target}"
exe="$target_dir/$TARGET/release/pbrain-wuzi.exe"
dist="$target_dir/dist"

say "cargo build --release --target $TARGET"
started=$SECONDS
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER="$LINKER"
cargo build --release --target "$TARGET"
say "built $exe in $((SECONDS - started)) s"

# The exe must need nothing but Windows' own DLLs (no libgcc_s / winpthread
# DLL from MinGW), or it would not start on a clean machine.
if command -v x86_64-w64-mingw32-objdump >/dev/null; then
    dlls=$(x86_64-w64-mingw32-objdump -p "$exe" | sed -n 's/^\tDLL Name: //p' | sort -u | tr '\n' ' ')
    say "imports: $dlls"
    case "$dlls" in
        *libgcc* | *libwinpthread* | *libstdc++*)
            echo "build-windows.sh: $exe depends on a MinGW runtime DLL" >&2
            exit 1
            ;;
        *bcryptprimitives*)
            # std's HashMap/HashSet seed themselves through ProcessPrng in
            # this DLL, which Wine 8 does not have: the exe would not start.
            echo "build-windows.sh: $exe imports bcryptprimitives.dll (a std HashMap/HashSet?)" >&2
            exit 1
            ;;
    esac
fi

# --- Package ---------------------------------------------------------------

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
mkdir -p "$dist"
cp "$exe" "$dist/$NAME.exe"
# README.txt with Windows line ends, for Notepad.
sed 's/$/\r/' >"$dist/README.txt" <<EOF
Wuzi $version - a Gomoku / Renju engine (AI) for the Gomocup pbrain protocol
=============================================================================

$NAME.exe is a 64-bit Windows console program that speaks the Gomocup
"pbrain" protocol on stdin/stdout. Load it into a manager: Piskvork
(Players, choose $NAME.exe; the name must start with "pbrain-"),
Yixin-Board, GomocupJudge or c-gomoku-cli. It prints nothing at start-up
and answers END at once.

Rules (INFO rule N): 0 freestyle, 1 standard (exactly five), 4 renju
(black's forbidden points; Wuzi never plays one as black), 8 caro (a five
blocked at both ends does not win), 9 caro with exactly five. Boards from
5x5 to 22x22, rectangular too (RECTSTART). It also understands Yixin-Board's
YXBOARD, YXSTOP, YXSHOWFORBID, YXHASHCLEAR, YXNBEST and YXSHOWINFO, and
SWAP2BOARD.

Logging is off by default (a manager reads stderr as replies):
  WUZI_LOG_FILE=C:\\path\\wuzi.log  writes a log to that file (level info);
  WUZI_LOG=debug                  with WUZI_LOG_FILE also logs every protocol
                                  line; alone it logs to stderr.

Built with Rust for x86_64-pc-windows-gnu (Windows 10 or later).
EOF
rm -f "$dist/$NAME.zip"
(cd "$dist" && zip -q -X "$NAME.zip" "$NAME.exe" README.txt)
say "packaged $dist/$NAME.zip:"
unzip -l "$dist/$NAME.zip" 2>/dev/null || ls -l "$dist"

# --- Protocol tests under Wine ---------------------------------------------

if [ "$test_under_wine" = 0 ]; then
    exit 0
fi

export WINEPREFIX="${WINEPREFIX:-/tmp/wineprefix}"
# No debug chatter; no Mono/Gecko installer when the prefix is created.
export WINEDEBUG="${WINEDEBUG:--all}"
export WINEDLLOVERRIDES="${WINEDLLOVERRIDES:-mscoree,mshtml=}"

say "building the protocol tests"
cargo test --release --test protocol --no-run

# Create or update the prefix before the tests (the first start takes
# seconds), and keep one wineserver running for the whole test run (until
# 60 s after the last Wine process), so that engine starts do not each pay
# for a new one. Exit status 2: a server already runs for this prefix.
say "preparing the Wine prefix $WINEPREFIX ($(wine --version))"
started=$SECONDS
if [ -e "$WINEPREFIX/system.reg" ]; then
    wineserver --persistent=60 || [ $? = 2 ]
    wine wineboot --init
else
    wine wineboot --init
    wineserver --persistent=60 || [ $? = 2 ]
fi
say "Wine prefix ready in $((SECONDS - started)) s"

say "protocol tests against $exe under Wine"
started=$SECONDS
WUZI_ENGINE="wine $exe" cargo test --release --test protocol
say "protocol tests under Wine passed in $((SECONDS - started)) s"
