#!/usr/bin/env bash
# Pairs this frame with the family library (issue 17): adds the family's Syncthing device to the
# frame's Syncthing and receives its folder into the frame's family photo folder. Run as root on
# the frame after deploy/install.sh --sync. See deploy/README.md, "Pairing with the family library".
set -euo pipefail
PROG=pair.sh
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=sync-lib.sh
. "$SCRIPT_DIR/sync-lib.sh"

usage() {
    cat <<'EOF'
Usage: sudo deploy/pair.sh [options] DEVICE-ID

Adds the family library's Syncthing device (its ID: Actions > Show ID in Syncthing) and takes
the folder it shares with this frame, receive-only, into the family photo folder.

  --name NAME       a name for that device (default: family library)
  --address ADDR    how to reach it, e.g. tcp://192.168.1.20:22000 (default: dynamic, found on
                    the local network)
  --wait SECONDS    how long to wait for the family to share its folder (default 120)
  --home DIR        the frame's Syncthing home (default /var/lib/babyalbum-sync)
  -h, --help        this text
EOF
}

die() { printf '%s: error: %s\n' "$PROG" "$*" >&2; exit "${2:-1}"; }
usage_error() { usage >&2; printf '%s: error: %s\n' "$PROG" "$*" >&2; exit 64; }
note() { printf '%s: %s\n' "$PROG" "$*"; }

NAME="family library"
ADDRESS=dynamic
WAIT=120
HOME_DIR=$SYNC_HOME
DEVICE=""
while (($#)); do
    case $1 in
    --name) NAME=${2:?--name needs a value}; shift 2 ;;
    --address) ADDRESS=${2:?--address needs a value}; shift 2 ;;
    --wait) WAIT=${2:?--wait needs seconds}; shift 2 ;;
    --home) HOME_DIR=${2:?--home needs a folder}; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    -*) usage_error "unknown option $1" ;;
    *) [[ -z $DEVICE ]] || usage_error "one device ID, please"; DEVICE=$1; shift ;;
    esac
done
[[ -n $DEVICE ]] || usage_error "the family library's device ID is missing"
DEVICE=$(printf '%s' "$DEVICE" | tr '[:lower:]' '[:upper:]')
[[ $DEVICE =~ ^[A-Z2-7]{7}(-[A-Z2-7]{7}){7}$ ]] ||
    usage_error "$DEVICE is not a Syncthing device ID (8 groups of 7 letters and digits, like ABCDEFG-...)"
[[ $WAIT =~ ^[0-9]+$ ]] || usage_error "--wait $WAIT: expected whole seconds"
[[ $ADDRESS == dynamic || $ADDRESS =~ ^(tcp|quic)://[^\"\\]+$ ]] || usage_error "--address $ADDRESS: expected dynamic or tcp://HOST:PORT"
[[ $NAME != *[\"\\]* ]] || usage_error "--name: no quotes or backslashes, please"
[[ -r $HOME_DIR/config.xml ]] || die "$HOME_DIR/config.xml not readable: install with deploy/install.sh --sync, and run as root"
command -v curl >/dev/null || die "curl is missing: apt-get install curl"
sync_api "$HOME_DIR" GET /rest/system/ping >/dev/null 2>&1 ||
    die "the frame's Syncthing does not answer on $(sync_gui_address "$HOME_DIR"): systemctl start $SYNC_UNIT"

SELF=$(sync_api "$HOME_DIR" GET /rest/system/status | tr -d ' \n' | sed -n 's/.*"myID":"\([A-Z0-9-]*\)".*/\1/p')
[[ -n $SELF ]] || die "the frame's Syncthing did not tell its device ID"
[[ $DEVICE != "$SELF" ]] || usage_error "$DEVICE is this frame's own ID; give the family library's ID"

# The folder installed by install.sh --sync (the only one): its id and path.
folder_attribute() { sed -n "s/^ *<folder .*$1=\"\\([^\"]*\\)\".*/\\1/p" "$HOME_DIR/config.xml" | head -n 1; }
FOLDER_ID=$(folder_attribute id)
FOLDER_PATH=$(folder_attribute path)
[[ -n $FOLDER_ID && -n $FOLDER_PATH ]] || die "no folder in $HOME_DIR/config.xml: run deploy/install.sh --sync again"

sync_api "$HOME_DIR" PUT "/rest/config/devices/$DEVICE" \
    "{\"deviceID\":\"$DEVICE\",\"name\":\"$NAME\",\"addresses\":[\"$ADDRESS\"],\"autoAcceptFolders\":false}" >/dev/null
note "added the device $DEVICE ($NAME, $ADDRESS)"

# The folders that device offers, by id (GET /rest/cluster/pending/folders).
offered_folders() {
    sync_api "$HOME_DIR" GET "/rest/cluster/pending/folders?device=$DEVICE" 2>/dev/null | tr '\n' ' ' |
        grep -oE '"[^"]+": *\{ *"offeredBy"' | sed 's/^"\([^"]*\)".*/\1/' || true
}

note "waiting up to ${WAIT}s for it to connect and share its folder with this frame ($SELF)"
OFFER=""
started=$SECONDS
deadline=$((SECONDS + WAIT))
while :; do
    OFFER=$(offered_folders | head -n 1)
    [[ -z $OFFER && $SECONDS -lt $deadline ]] || break
    sleep 1
done
[[ -z $OFFER ]] || note "it offered the folder '$OFFER' after $((SECONDS - started))s"

# The folder's devices so far (a phone paired after a PC keeps the PC), this frame and the new one.
folder_devices() { sed -n '/^ *<folder /,/^ *<\/folder>/s/^ *<device id="\([A-Z0-9-]*\)".*/\1/p' "$HOME_DIR/config.xml"; }
device_list() {
    local id list="" seen=" "
    for id in "$@"; do
        [[ $seen == *" $id "* ]] && continue
        seen+="$id "
        list+="${list:+,}{\"deviceID\":\"$id\"}"
    done
    printf '[%s]' "$list"
}
# shellcheck disable=SC2046 # one word per device ID
devices=$(device_list "$SELF" $(folder_devices) "$DEVICE")
if [[ -n $OFFER && $OFFER != "$FOLDER_ID" ]]; then
    [[ $OFFER != *[\"\\/]* ]] || die "the offered folder id '$OFFER' has characters this script does not handle"
    # A folder's id cannot change: the frame's folder is made again under the offered id, same path.
    sync_api "$HOME_DIR" DELETE "/rest/config/folders/$FOLDER_ID" >/dev/null
    sync_api "$HOME_DIR" PUT "/rest/config/folders/$OFFER" "{\"id\":\"$OFFER\",\"label\":\"BabyAlbum family photos\",\
\"path\":\"$FOLDER_PATH\",\"type\":\"receiveonly\",\"rescanIntervalS\":3600,\"fsWatcherEnabled\":true,\
\"fsWatcherDelayS\":1,\"ignorePerms\":true,\"maxConflicts\":0,\"minDiskFree\":{\"value\":1,\"unit\":\"%\"},\
\"devices\":$(device_list "$SELF" "$DEVICE")}" >/dev/null
    note "receiving the family's folder '$OFFER' into $FOLDER_PATH (receive-only)"
else
    sync_api "$HOME_DIR" PATCH "/rest/config/folders/$FOLDER_ID" "{\"devices\":$devices}" >/dev/null
    if [[ -n $OFFER ]]; then
        note "receiving the family's folder '$FOLDER_ID' into $FOLDER_PATH (receive-only)"
    else
        note "no folder offered yet; this frame now offers its folder '$FOLDER_ID' to $DEVICE"
        note "next: in the family's Syncthing, add this frame ($SELF) and share a folder with it, then run"
        note "      this script again; or accept the frame's folder there as Send Only"
        exit 2
    fi
fi
note "paired: photos added to the family library now appear on this frame"
