#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A teacher for `axon label`'s tests: passes everything to a real engine (the first argument)
# but exits in the middle of a search whose position contains the text in $CRASH_ON: once
# (the first time, remembered in the file $CRASH_ONCE_FILE) or, without that file, every time.
engine=$1
coproc ENGINE { exec $engine; }
# Kept: bash unsets ENGINE_PID when it reaps the coprocess.
enginePid=$ENGINE_PID
trap 'kill "$enginePid" 2>/dev/null' EXIT
# Coprocess descriptors are closed in subshells: the forwarder reads a duplicate.
exec 3<&"${ENGINE[0]}"
cat <&3 &
position=
while IFS= read -r line; do
    case $line in
    position*) position=$line ;;
    go*)
        if [[ -n ${CRASH_ON:-} && $position == *"$CRASH_ON"* ]]; then
            if [[ -z ${CRASH_ONCE_FILE:-} ]]; then exit 3; fi
            if [[ ! -e $CRASH_ONCE_FILE ]]; then
                : >"$CRASH_ONCE_FILE"
                exit 3
            fi
        fi
        ;;
    esac
    echo "$line" >&"${ENGINE[1]}"
    [[ $line == quit ]] && break
done
wait "$enginePid" 2>/dev/null
