#!/usr/bin/env bash
# docs/beyond-one-shell.md cannot drift from the program: replayed as
# tests/scenarios/walkthrough.sh replays the walkthrough and the chapter
# after it (see there), in a test of its own, from the reader's shell as
# the walkthrough's first commands leave it.
# shellcheck disable=SC2034 # read by walkthrough.sh, sourced below
REPLAY_PART=beyond
. "$(dirname "$0")/walkthrough.sh"
