#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Strength estimate: a gauntlet of Axon against the engines Debian packages (installed here
# with apt-get when missing), one single-threaded match per opponent from the UHO book, then
# docs/strength.md: Elo against each opponent with its 95% error, and a rating on the scale of
# Stockfish's UCI_Elo levels (each anchor's level plus Axon's Elo against it, combined by
# inverse-variance weighting).
#
# Usage: bench/strength.sh [--fast] [--calibrate] [OPPONENT...]
#   --fast     5+0.05 and fewer games (default 20 per opponent) instead of 10+0.1 (200)
#   --calibrate  also play Axon at UCI_Elo L against Stockfish at UCI_Elo L for each L of
#              CAL_LEVELS (default "1350 1500 1800 2000 2200"): the UCI_Elo calibration check
#   OPPONENT   any of: sf1500 sf2000 sf2500 sf2800 glaurung gnuchess toga2 ethereal fairysf
#              fairymax phalanx (default: all but sf2800 and fairysf; sfN is Stockfish at UCI_Elo
#              N, fairysf Fairy-Stockfish 11.1). Each result is
#              kept in $RESULTS/OPPONENT.json, and an opponent with a result for the same time
#              control is skipped unless FORCE=1, so the script can be run in pieces and resumed;
#              the doc is written from every result.
# Environment: AXON (binary, default ./axon, build-release/axon or build/axon), GAMES (per
#              opponent), CONCURRENCY (2), BOOK (UHO), RESULTS (bench/results/strength-net),
#              DOC (docs/strength.md), GAMES_DIR (docs/games/strength: the PGNs, zstd),
#              MANIFEST (docs/games/README.md: their rows), FORCE=1, NO_INSTALL=1 (never call
#              apt-get), SEED (1: the opening order; another seed plays other openings, to extend
#              a run).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

fast=0
calibrate=0
opponents=()
for arg in "$@"; do
    case $arg in
    --fast) fast=1 ;;
    --calibrate) calibrate=1 ;;
    -h | --help) sed -n '3,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "strength.sh: unknown flag $arg" >&2; exit 2 ;;
    *) opponents+=("$arg") ;;
    esac
done
readonly DEFAULT_OPPONENTS=(sf1500 sf2000 sf2500 glaurung gnuchess toga2 ethereal fairymax phalanx)
# UCI_Elo calibration: Axon at each setting against Stockfish at the same UCI_Elo.
readonly CAL_LEVELS=(${CAL_LEVELS:-1350 1500 1800 2000 2200})
# Every opponent a table may show: the default gauntlet plus a stronger Stockfish anchor.
readonly ALL_OPPONENTS=(sf1500 sf2000 sf2500 sf2800 glaurung gnuchess toga2 ethereal fairysf fairymax phalanx)
((${#opponents[@]} || calibrate)) || opponents=("${DEFAULT_OPPONENTS[@]}")
if ((calibrate)); then for level in "${CAL_LEVELS[@]}"; do opponents+=("cal$level"); done; fi
if ((fast)); then TC=5+0.05; GAMES=${GAMES:-20}; else TC=10+0.1; GAMES=${GAMES:-200}; fi
readonly TC GAMES
readonly CONCURRENCY=${CONCURRENCY:-2}
readonly BOOK=${BOOK:-../shared/data/books/UHO_4060_v4.epd}
# Fairy-Max has no `setboard`, so it can only start from the standard position: PGN openings.
readonly PGN_BOOK=${PGN_BOOK:-../shared/data/books/8moves_v3.pgn}
readonly RESULTS=${RESULTS:-bench/results/strength-net}
readonly DOC=${DOC:-docs/strength.md}
readonly GAMES_DIR=${GAMES_DIR:-docs/games/strength}
readonly MANIFEST=${MANIFEST:-docs/games/README.md}
source bench/lib/find-axon.sh
AXON=$(realpath "$AXON")

log() { echo "strength: $*" >&2; }

# The Debian package, the --engine arguments, and (for the Stockfish levels) the anchor rating.
package() {
    case $1 in
    sf* | cal*) echo stockfish ;; glaurung) echo glaurung ;; gnuchess) echo gnuchess ;;
    toga2) echo toga2 ;; ethereal) echo ethereal-chess ;; fairymax) echo fairymax ;;
    fairysf) echo fairy-stockfish ;; phalanx) echo phalanx ;; *) return 1 ;;
    esac
}
engineArgs() {
    case $1 in
    sf1500 | sf2000 | sf2500 | sf2800 | cal*)
        local level=${1#sf}
        level=${level#cal}
        echo "cmd=/usr/games/stockfish|name=Stockfish-Elo$level|option.Threads=1|option.Hash=16|option.UCI_LimitStrength=true|option.UCI_Elo=$level" ;;
    glaurung) echo "cmd=/usr/games/glaurung|name=Glaurung 2.2|option.Threads=1|option.OwnBook=false" ;;
    gnuchess) echo "cmd=/usr/games/gnuchess --uci|name=GNU Chess 6.2.7|option.OwnBook=false" ;;
    toga2) echo "cmd=/usr/games/toga2|name=Toga II 3.0|option.OwnBook=false|option.Number of Threads=1|option.Hash=16" ;;
    ethereal) echo "cmd=/usr/games/ethereal-chess|name=Ethereal 12.00|option.Threads=1|option.Hash=16" ;;
    fairysf) echo "cmd=/usr/games/fairy-stockfish|name=Fairy-Stockfish 11.1|option.Threads=1|option.Hash=16" ;;
    # Own books and learning off; xboard engines are single-threaded.
    fairymax) echo "cmd=/usr/games/fairymax|proto=xboard|name=Fairy-Max 5.0b" ;;
    phalanx) echo "cmd=/usr/games/phalanx -b- -l-|proto=xboard|name=Phalanx XXV" ;;
    esac
}
# Axon's own --engine arguments: limited to the level under calibration.
axonArgs() {
    case $1 in
    cal*) echo "name=Axon-Elo${1#cal}|option.UCI_LimitStrength=true|option.UCI_Elo=${1#cal}" ;;
    *) echo "name=Axon" ;;
    esac
}
anchor() { case $1 in sf*) echo "${1#sf}" ;; *) echo "" ;; esac; }

isInstalled() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
asRoot() {
    if [[ $EUID -eq 0 ]]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
        log "need root (or sudo) to run: $*"; exit 1; fi
}

# Idempotent: apt-get only runs when a package is missing.
missing=()
for opponent in "${opponents[@]}"; do
    pkg=$(package "$opponent") || { log "unknown opponent '$opponent' (${ALL_OPPONENTS[*]})"; exit 2; }
    isInstalled "$pkg" || missing+=("$pkg")
done
command -v zstd >/dev/null || missing+=(zstd) # compresses the games kept in $GAMES_DIR
if ((${#missing[@]})); then
    [[ -n ${NO_INSTALL:-} ]] && { log "missing packages: ${missing[*]}"; exit 1; }
    log "installing ${missing[*]}"
    asRoot apt-get update -qq
    asRoot env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# jsonField FILE PATH: a value of the two-engine summary (scripts/json-get.py).
jsonField() { python3 scripts/json-get.py "$1" "$2"; }
# The network the games were played with: its content hash, as `axon --version` prints it.
# tests/cli/docs_network_cli.sh (ctest cli.docs_network) fails when the block below names another
# network than the embedded one, so the generated figures cannot silently outlive their network.
networkHash=$("$AXON" --version | sed -n 's/^network \([0-9a-f]*\)$/\1/p')

mkdir -p "$RESULTS"
for opponent in "${opponents[@]}"; do
    json=$RESULTS/$opponent.json
    # A result is kept for the same time control and network only: a new network plays again.
    if [[ -f $json && -z ${FORCE:-} && $(jsonField "$json" time_control) == "$TC" &&
        $(cat "$RESULTS/$opponent.net" 2>/dev/null) == "$networkHash" ]]; then
        log "$opponent: kept $json (FORCE=1 to replay)"
        continue
    fi
    book=$BOOK
    [[ $opponent == fairymax ]] && book=$PGN_BOOK
    IFS='|' read -r -a spec <<<"$(engineArgs "$opponent")"
    IFS='|' read -r -a axonSpec <<<"$(axonArgs "$opponent")"
    log "$opponent: $GAMES games at $TC"
    # The result lands under its final name only when the match finished, so a run cut short
    # is played again next time rather than kept. --pgn appends: a cut-short run's games must not
    # stay in front of the replay's, so the games go to a fresh file moved in with the result.
    rm -f "$RESULTS/$opponent.pgn.tmp" "$json.tmp"
    echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')" >"$RESULTS/$opponent.load"
    "$AXON" match --engine "cmd=$AXON" "${axonSpec[@]}" option.Threads=1 option.Hash=16 --engine "${spec[@]}" \
        --tc "$TC" --games "$GAMES" --concurrency "$CONCURRENCY" --openings "$book" \
        --openings-order random --seed "${SEED:-1}" --resign movecount=3 score=1000 \
        --draw movenumber=40 movecount=8 score=10 --pgn "$RESULTS/$opponent.pgn.tmp" \
        --json "$json.tmp" | tee "$RESULTS/$opponent.log" | grep -v '^Game ' || true
    # Ctrl-C still writes the summary, marked "interrupted": that is no result to keep.
    if [[ -f $json.tmp && $(jsonField "$json.tmp" interrupted) == false ]]; then
        echo "$networkHash" >"$RESULTS/$opponent.net"
        mv "$RESULTS/$opponent.pgn.tmp" "$RESULTS/$opponent.pgn"
        mv "$json.tmp" "$json"
    else
        log "$opponent: match failed or was interrupted (nothing kept)"
        rm -f "$json.tmp" "$RESULTS/$opponent.pgn.tmp"
    fi
done

# thisNetwork OPPONENT: a result exists and was played with the network of $AXON.
thisNetwork() { [[ -f $RESULTS/$1.json && $(cat "$RESULTS/$1.net" 2>/dev/null) == "$networkHash" ]]; }

section=$(mktemp)
trap 'rm -f "$section"' EXIT
{
    echo "## Gauntlet against Debian's engines"
    echo
    echo "Axon against the engines Debian packages, measured by \`bench/strength.sh\` (\`axon match\`:"
    echo "Axon first, one thread and 16 MB hash each, own books off, openings from UHO_4060_v4.epd in"
    echo "random order (Fairy-Max: 8moves_v3.pgn, as it cannot set up a position), resign at 10 pawns"
    echo "for 3 moves, draw after move 40 at |score| <= 0.10 for 8 moves). Elo is Axon's, from the"
    echo "pentanomial game-pair scores, with its 95% error."
    echo
    echo "| Opponent | Protocol | Time control | Games | W-L-D | Score | Elo (Axon) | 95% error | Lost on time (Axon / opponent) |"
    echo "|---|---|---|---|---|---|---|---|---|"
    for opponent in "${ALL_OPPONENTS[@]}"; do
        json=$RESULTS/$opponent.json
        thisNetwork "$opponent" || continue
        proto=UCI
        [[ $(engineArgs "$opponent") == *proto=xboard* ]] && proto=CECP
        name=$(jsonField "$json" engines.1)
        elo=$(printf '%+.0f' "$(jsonField "$json" elo)")
        err=$(printf '%.0f' "$(jsonField "$json" elo_error95)")
        # A clean sweep has no finite Elo; the runner's figure is only its clamp.
        [[ $(jsonField "$json" losses) == 0 && $(jsonField "$json" draws) == 0 ]] && elo="all won" err="-"
        [[ $(jsonField "$json" wins) == 0 && $(jsonField "$json" draws) == 0 ]] && elo="all lost" err="-"
        # Time losses from the progress lines: Axon is White in odd games, Black in even ones.
        logFile=$RESULTS/$opponent.log
        axonFlags=$(grep -Ec '^Game [0-9]+: (Axon vs .* \(White|.* vs Axon .* \(Black) loses on time' "$logFile" 2>/dev/null || true)
        otherFlags=$(grep -Ec '^Game [0-9]+: (Axon vs .* \(Black|.* vs Axon .* \(White) loses on time' "$logFile" 2>/dev/null || true)
        printf '| %s | %s | %s | %s | %s-%s-%s | %.1f%% | %s | %s | %s / %s |\n' "$name" "$proto" \
            "$(jsonField "$json" time_control)" "$(jsonField "$json" games)" \
            "$(jsonField "$json" wins)" "$(jsonField "$json" losses)" "$(jsonField "$json" draws)" \
            "$(awk -v s="$(jsonField "$json" score)" 'BEGIN { print 100 * s }')" \
            "$elo" "$err" "${axonFlags:-?}" "${otherFlags:-?}"
    done
    echo
    echo "### Rating on the Stockfish UCI_Elo scale"
    echo
    echo "Each Stockfish level is an anchor: Axon's rating from it is the level's UCI_Elo plus Axon's"
    echo "Elo against it, with that match's error. The anchors are combined by inverse-variance"
    echo "weighting (weight 1/sigma^2, sigma = error/1.96). UCI_Elo is calibrated by Stockfish at"
    echo "its own (CCRL 40/4-like) conditions, so this is a rough scale, and a score near 0% or 100%"
    echo "says little: those anchors get large errors and little weight."
    echo
    echo "| Anchor | Axon's rating from it | 95% error |"
    echo "|---|---|---|"
    combined=()
    for opponent in "${ALL_OPPONENTS[@]}"; do
        [[ $opponent == sf* ]] || continue
        json=$RESULTS/$opponent.json
        thisNetwork "$opponent" || continue
        elo=$(jsonField "$json" elo)
        err=$(jsonField "$json" elo_error95)
        rating=$(awk -v a="$(anchor "$opponent")" -v e="$elo" 'BEGIN { printf "%.0f", a + e }')
        # A clean sweep has no finite Elo (the figure is the clamp): it only bounds the rating.
        if [[ $(jsonField "$json" losses) == 0 && $(jsonField "$json" draws) == 0 ]]; then
            printf '| UCI_Elo %s | above %s (all games won; not used) | - |\n' "$(anchor "$opponent")" "$(anchor "$opponent")"
        elif [[ $(jsonField "$json" wins) == 0 && $(jsonField "$json" draws) == 0 ]]; then
            printf '| UCI_Elo %s | below %s (all games lost; not used) | - |\n' "$(anchor "$opponent")" "$(anchor "$opponent")"
        else
            printf '| UCI_Elo %s | %s | %.0f |\n' "$(anchor "$opponent")" "$rating" "$err"
            combined+=("$(anchor "$opponent") $elo $err")
        fi
    done
    if ((${#combined[@]})); then
        printf '%s\n' "${combined[@]}" | awk '{
            sigma = $3 / 1.96; if (sigma <= 0) sigma = 1e-9
            w = 1 / (sigma * sigma); sum += w * ($1 + $2); weights += w
        } END { printf "\nCombined: **%.0f +/- %.0f** (95%%).\n", sum / weights, 1.96 / sqrt(weights) }'
    else
        printf '\nNo anchor with a finite result yet: no combined rating.\n'
    fi
    calRows=()
    for level in $(ls "$RESULTS" | sed -n 's/^cal\([0-9]*\)\.json$/\1/p' | sort -n); do
        json=$RESULTS/cal$level.json
        thisNetwork "cal$level" || continue
        calRows+=("$(printf '| %s | %s | %s | %s-%s-%s | %.1f%% | %+.0f +/- %.0f |' "$level" \
            "$(jsonField "$json" time_control)" "$(jsonField "$json" games)" \
            "$(jsonField "$json" wins)" "$(jsonField "$json" losses)" "$(jsonField "$json" draws)" \
            "$(awk -v s="$(jsonField "$json" score)" 'BEGIN { print 100 * s }')" \
            "$(jsonField "$json" elo)" "$(jsonField "$json" elo_error95)")")
    done
    if ((${#calRows[@]})); then
        echo
        echo "### UCI_Elo settings against the same Stockfish level (\`--calibrate\`)"
        echo
        echo "Axon with \`UCI_LimitStrength\` and \`UCI_Elo\` = L against Stockfish at \`UCI_Elo\` = L: a"
        echo "calibrated setting scores near 50% (Elo near 0)."
        echo
        echo "| UCI_Elo | Time control | Games | W-L-D (Axon) | Score | Elo (Axon) |"
        echo "|---|---|---|---|---|---|"
        printf '%s\n' "${calRows[@]}"
    fi
    echo
    echo "Axon at commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%Y-%m-%d), network \`${networkHash:-?}\`"
    echo "(content hash, \`axon --version\`; [networks](nets.md))."
    echo "The load average of the 2-core machine when each match started (above 2, the engines got"
    echo "less CPU than the time control says, unevenly, and the figures are rougher):"
    for load in "$RESULTS"/*.load; do
        opponent=$(basename "$load" .load)
        thisNetwork "$opponent" || continue
        echo "$opponent: $(sed 's/^load average at start: //' "$RESULTS/$opponent.load")."
    done | paste -sd' ' -
    echo
    echo "The games: \`$GAMES_DIR/\` (one PGN per match, zstd-compressed; \`zstd -dc FILE\` or"
    echo "\`axon convert\` read them)."
    echo
    echo "Reproduce: \`bench/strength.sh$( ((fast)) && echo " --fast")$( ((calibrate)) && echo " --calibrate")\` (results kept in"
    echo "\`$RESULTS/\`; \`GAMES=N bench/strength.sh OPPONENT...\` runs pieces)."
} >"$section"

# The games behind the figures go into the repository beside the doc, compressed, so each figure
# can be checked: every match of the network the doc reports, no other.
mkdir -p "$GAMES_DIR"
rm -f "$GAMES_DIR"/*.pgn.zst
for json in "$RESULTS"/*.json; do
    opponent=$(basename "$json" .json)
    thisNetwork "$opponent" && [[ -f $RESULTS/$opponent.pgn ]] || continue
    zstd -19 -q -f "$RESULTS/$opponent.pgn" -o "$GAMES_DIR/$opponent.pgn.zst"
done

# docs/games/README.md lists every kept PGN with the doc row it backs and that row's W-L-D
# (cli.docs_games checks them): the rows of this block's files are rewritten with the files, so
# the list cannot go stale when a run replaces them. The rows' prefixes are the tables' first cells.
if [[ -f $MANIFEST ]] && grep -qF '<!-- games: end -->' "$MANIFEST"; then
    gamesPrefix=${GAMES_DIR#docs/games/}
    manifestRows=$(mktemp)
    for opponent in "${ALL_OPPONENTS[@]}" $(ls "$RESULTS" | sed -n 's/^\(cal[0-9]*\)\.json$/\1/p' | sort -V); do
        json=$RESULTS/$opponent.json
        [[ -f $GAMES_DIR/$opponent.pgn.zst ]] && thisNetwork "$opponent" || continue
        wld="$(jsonField "$json" wins)-$(jsonField "$json" losses)-$(jsonField "$json" draws)"
        if [[ $opponent == cal* ]]; then
            prefix="\\| ${opponent#cal} \\| $(jsonField "$json" time_control) \\| $(jsonField "$json" games) \\|"
        else
            proto=UCI
            [[ $(engineArgs "$opponent") == *proto=xboard* ]] && proto=CECP
            prefix="\\| $(jsonField "$json" engines.1) \\| $proto \\| $(jsonField "$json" time_control) \\|"
        fi
        printf '| `%s/%s.pgn.zst` | %s | `%s` | %s |\n' "$gamesPrefix" "$opponent" "$DOC" "$prefix" "$wld"
    done >"$manifestRows"
    # The new rows take the place of the old ones (or go last when there were none).
    awk -v rows="$manifestRows" -v mine="| \`$gamesPrefix/" '
        function emit() { if (!done) { while ((getline line < rows) > 0) print line; done = 1 } }
        # Only files directly in GAMES_DIR: rows of its subfolders (other tables) stay.
        index($0, mine) == 1 && substr($0, length(mine) + 1) ~ /^[^\/`]*\.pgn\.zst`/ { emit(); next }
        $0 == "<!-- games: end -->" { emit() }
        { print }' "$MANIFEST" >"$MANIFEST.tmp"
    mv "$MANIFEST.tmp" "$MANIFEST"
    rm -f "$manifestRows"
    log "wrote $MANIFEST's $gamesPrefix/ rows"
fi

# The generated section replaces the one between the markers; the rest of the document (the
# UCI_Elo calibration, written by hand) stays.
readonly BEGIN_MARK='<!-- bench/strength.sh: begin -->' END_MARK='<!-- bench/strength.sh: end -->'
if [[ ! -f $DOC ]] || ! grep -qF "$BEGIN_MARK" "$DOC"; then
    { [[ -f $DOC ]] && cat "$DOC" || echo "# Playing strength"; echo; echo "$BEGIN_MARK"; echo "$END_MARK"; } >"$DOC.tmp"
    mv "$DOC.tmp" "$DOC"
fi
awk -v begin="$BEGIN_MARK" -v end="$END_MARK" -v section="$section" '
    $0 == begin { print; while ((getline line < section) > 0) print line; skip = 1; next }
    $0 == end { skip = 0 }
    !skip { print }' "$DOC" >"$DOC.tmp"
mv "$DOC.tmp" "$DOC"
log "wrote $DOC"
