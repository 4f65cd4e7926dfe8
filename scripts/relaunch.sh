#!/usr/bin/env bash
# relaunch.sh EXIT_DATA_FILE COMMAND... -- ARGS...
#
# Runs COMMAND ARGS... and starts it again when it asks to, as Eclipse's native launcher does for the product it
# starts (the Studio has no native launcher: ./hirstudio studio runs the equinox launcher jar with java):
#   exit 23 (IApplication.EXIT_RESTART, File > Restart of an older workbench, a theme change's Restart): the same
#           command with the same arguments;
#   exit 24 (IApplication.EXIT_RELAUNCH, File > Restart, Switch Workspace): the same command with the arguments
#           the application left in its eclipse.exitdata property, one a line ("-data\nfile:/ws/\n"); since 2023
#           the native launcher restarts itself with those arguments instead of its first ones. Without a native
#           launcher there is no shared memory to pass them in, so the Studio writes the property to
#           EXIT_DATA_FILE as it exits (ui.studio.ExitData); COMMAND must tell it where (-Dhirstudio.exitdata=FILE);
#   any other status: the script ends with it.
# COMMAND is what stays from one start to the next (java, its options, -jar LAUNCHER); ARGS are the application's.
set -uo pipefail

die() { echo "relaunch: $*" >&2; exit 2; }

[[ $# -ge 2 ]] || die "usage: relaunch.sh EXIT_DATA_FILE COMMAND... -- ARGS..."
exit_data=$1; shift
command=()
while [[ $# -gt 0 && $1 != "--" ]]; do command+=("$1"); shift; done
[[ $# -gt 0 ]] || die "no '--' between the command and the application's arguments"
shift
args=("$@")
(( ${#command[@]} > 0 )) || die "no command before '--'"

readonly EXIT_RESTART=23 EXIT_RELAUNCH=24
while true; do
    rm -f "$exit_data"
    "${command[@]}" "${args[@]}"
    rc=$?
    case $rc in
        "$EXIT_RESTART")
            echo "relaunch: the application asked for a restart (exit $rc): starting it again" >&2 ;;
        "$EXIT_RELAUNCH")
            if [[ ! -s $exit_data ]]; then
                echo "relaunch: the application asked for a relaunch (exit $rc) but left no arguments in" \
                    "$exit_data; not starting it again" >&2
                exit "$rc"
            fi
            mapfile -t args <"$exit_data"
            echo "relaunch: the application asked for a relaunch (exit $rc): starting it again with" \
                "${args[*]}" >&2 ;;
        *)
            rm -f "$exit_data"
            exit "$rc" ;;
    esac
done
