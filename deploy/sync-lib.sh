# shellcheck shell=bash
# shellcheck disable=SC2034 # SYNC_*: used by the scripts that source this file
# Syncthing for BabyAlbum (issue 17): the frame's own Syncthing, its configuration and its REST
# API. Sourced by deploy/install.sh --sync, deploy/uninstall.sh, deploy/pair.sh and Tests/Sync.
#
# The configuration is made offline: `syncthing generate` makes the device's key and a default
# config.xml, and sync_edit_config rewrites the settings BabyAlbum cares about in that file.

SYNC_USER=babyalbum-sync
SYNC_HOME=/var/lib/babyalbum-sync
SYNC_UNIT=babyalbum-sync.service
SYNC_FOLDER_ID=babyalbum-family
SYNC_GUI=127.0.0.1:8384

# sync_generate HOME: a new device key and default configuration in HOME (nothing if one exists).
sync_generate() {
    [[ -f $1/config.xml && -f $1/cert.pem ]] && return 0
    syncthing generate --home="$1" --no-default-folder --skip-port-probing >/dev/null 2>&1
}

# sync_device_id HOME: this device's ID.
sync_device_id() {
    # From its certificate: config.xml lists the other devices too, in the order of their IDs (a
    # family device listed first was once taken for the card itself, and the card's own entry
    # deleted as un-paired).
    syncthing serve --home="$1" --device-id
}

# sync_api_key HOME: the REST API key from config.xml.
sync_api_key() {
    sed -n 's|^ *<apikey>\([^<]*\)</apikey>.*|\1|p' "$1/config.xml" | head -n 1
}

# sync_gui_address HOME: host:port of the GUI and REST API from config.xml.
sync_gui_address() {
    sed -n '/<gui /,/<\/gui>/s|^ *<address>\([^<]*\)</address>.*|\1|p' "$1/config.xml" | head -n 1
}

# sync_random_key: 32 random letters and digits.
sync_random_key() {
    local key=""
    while ((${#key} < 32)); do key+=$(head -c 64 /dev/urandom | tr -dc 'A-Za-z0-9'); done
    printf '%s' "${key:0:32}"
}

# sync_set_option FILE NAME VALUE: <NAME>VALUE</NAME> in the <options> of config.xml.
sync_set_option() {
    sed -i "/<options>/,/<\/options>/s|<$2>[^<]*</$2>|<$2>$3</$2>|" "$1"
    grep -q "<$2>$3</$2>" "$1" || { echo "config.xml: no <$2> option to set" >&2; return 1; }
}

# sync_edit_config HOME FOLDER_PATH FOLDER_TYPE GUI_ADDRESS LISTEN_ADDRESS LAN_DISCOVERY(1|0)
# Rewrites HOME/config.xml (made by sync_generate) for a private frame:
# - one folder, FOLDER_TYPE (receiveonly on a frame), at FOLDER_PATH, with id $SYNC_FOLDER_ID,
#   its changes seen at once (watcher delay 1 s), permissions not copied from the sender;
# - the GUI and REST API on GUI_ADDRESS (127.0.0.1:PORT) with a new random API key;
# - no global discovery, relays, NAT traversal, usage or crash reports, upgrades or browser;
#   LAN discovery as asked; folders offered by other devices never accepted automatically.
sync_edit_config() {
    local home=$1 path=$2 type=$3 gui=$4 listen=$5 lan=$6 file id key
    file=$home/config.xml
    id=$(sync_device_id "$home")
    [[ -n $id ]] || { echo "$file: no device id" >&2; return 1; }
    key=$(sync_random_key)
    local folder
    folder="    <folder id=\"$SYNC_FOLDER_ID\" label=\"BabyAlbum family photos\" path=\"$path\" type=\"$type\" rescanIntervalS=\"3600\" fsWatcherEnabled=\"true\" fsWatcherDelayS=\"1\" ignorePerms=\"true\" autoNormalize=\"true\">\n        <device id=\"$id\" introducedBy=\"\"></device>\n        <markerName>.stfolder</markerName>\n        <maxConflicts>0</maxConflicts>\n        <minDiskFree unit=\"%\">1</minDiskFree>\n    </folder>"
    # The folder goes before the first <device>; a folder from an earlier edit is replaced.
    sed -i '/^ *<folder id=/,/^ *<\/folder>/d' "$file"
    sed -i "0,/^ *<device id=/s||$folder\n&|" "$file"
    sed -i "/<gui /,/<\/gui>/{s|<address>[^<]*</address>|<address>$gui</address>|;s|<apikey>[^<]*</apikey>|<apikey>$key</apikey>|}" "$file"
    sed -i 's|<autoAcceptFolders>[^<]*</autoAcceptFolders>|<autoAcceptFolders>false</autoAcceptFolders>|' "$file"
    local lan_value=false
    ((lan)) && lan_value=true
    sync_set_option "$file" listenAddress "$listen" &&
        sync_set_option "$file" globalAnnounceEnabled false &&
        sync_set_option "$file" localAnnounceEnabled "$lan_value" &&
        sync_set_option "$file" relaysEnabled false &&
        sync_set_option "$file" natEnabled false &&
        sync_set_option "$file" urAccepted -1 &&
        sync_set_option "$file" crashReportingEnabled false &&
        sync_set_option "$file" autoUpgradeIntervalH 0 &&
        sync_set_option "$file" startBrowser false
}

# sync_api HOME METHOD PATH [JSON]: one REST API call to the Syncthing whose home is HOME.
sync_api() {
    local home=$1 method=$2 path=$3 body=${4:-}
    local args=(-fsS --max-time 10 -X "$method" -H "X-API-Key: $(sync_api_key "$home")")
    [[ -z $body ]] || args+=(-H 'Content-Type: application/json' --data "$body")
    curl "${args[@]}" "http://$(sync_gui_address "$home")$path"
}
