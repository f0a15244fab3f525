# shellcheck shell=bash
# shellcheck disable=SC2034 # UNIT, QUIET_WORDS: used by the scripts that source this file
# Shared by deploy/install.sh and deploy/uninstall.sh: the staging root, the dry run, and small
# helpers that make one change each, print it, and do nothing when it is already done (so running
# a script twice changes nothing the second time).
#
# Every change is printed as "+ what" (or "[dry-run] what" with --dry-run, where nothing changes).

ROOT=""        # staging root ("" = the live system); every target path is prefixed with it
DRY_RUN=0
CHANGES=0
STATE_FILE=/var/lib/babyalbum/install.state
UNIT=babyalbum.service

die() { printf '%s: error: %s\n' "$PROG" "$*" >&2; exit 1; }
warn() { printf '%s: warning: %s\n' "$PROG" "$*" >&2; }
note() { printf '%s: %s\n' "$PROG" "$*"; }
live() { [[ -z $ROOT ]]; }
# The path on the target: tpath /etc/x -> $ROOT/etc/x.
tpath() { printf '%s%s' "$ROOT" "$1"; }

change() {
    CHANGES=$((CHANGES + 1))
    if ((DRY_RUN)); then printf '[dry-run] %s\n' "$*"; else printf '+ %s\n' "$*"; fi
}

# Prints a file's content indented, for dry runs (text only; binaries by size and digest).
show_content() {
    if LC_ALL=C grep -qI . "$1" 2>/dev/null || [[ ! -s $1 ]]; then
        sed 's/^/    | /' "$1"
    else
        printf '    | (binary, %s bytes, sha256 %s)\n' "$(stat -c %s "$1")" "$(sha256sum <"$1" | cut -d' ' -f1)"
    fi
}

# run CMD...: a command with an effect on the target.
run() {
    change "run: $*"
    ((DRY_RUN)) || "$@"
}

# put_file DEST MODE SRC: makes DEST a copy of SRC with MODE (octal), if it is not one already.
put_file() {
    local dest=$1 mode=$2 src=$3 target
    target=$(tpath "$dest")
    if [[ -f $target && ! -L $target ]] && cmp -s "$src" "$target" &&
        [[ $(stat -c %a "$target") == "$(printf '%o' $((8#$mode)))" ]]; then
        return 0
    fi
    change "write $dest (mode $mode)"
    if ((DRY_RUN)); then
        show_content "$src"
        return 0
    fi
    mkdir -p "$(dirname "$target")"
    local tmp="$target.babyalbum-new"
    cp "$src" "$tmp"
    chmod "$mode" "$tmp"
    mv -f "$tmp" "$target"
}

# put_text DEST MODE: like put_file, with the content on standard input.
put_text() {
    local tmp
    tmp=$(mktemp)
    cat >"$tmp"
    put_file "$1" "$2" "$tmp"
    rm -f "$tmp"
}

# remove DEST: deletes a file or symlink if it is there.
remove() {
    local target
    target=$(tpath "$1")
    [[ -e $target || -L $target ]] || return 0
    change "remove $1"
    ((DRY_RUN)) || rm -f "$target"
}

# remove_dir_if_empty DEST
remove_dir_if_empty() {
    local target
    target=$(tpath "$1")
    [[ -d $target ]] || return 0
    if [[ -n $(ls -A "$target") ]]; then
        note "kept $1 (not empty)"
        return 0
    fi
    change "remove directory $1"
    ((DRY_RUN)) || rmdir "$target"
}

# ensure_dir DEST MODE OWNER GROUP: OWNER/GROUP are names looked up in the target's /etc files.
ensure_dir() {
    local dest=$1 mode=$2 owner=$3 group=$4 target uid gid want have
    target=$(tpath "$dest")
    uid=$(id_in_target passwd "$owner")
    gid=$(id_in_target group "$group")
    want="$(printf '%o' $((8#$mode))) ${uid:-$owner} ${gid:-$group}"
    have=""
    [[ -d $target ]] && have=$(stat -c '%a %u %g' "$target")
    [[ $have == "$want" ]] && return 0
    change "directory $dest (mode $mode, owner $owner:$group)"
    ((DRY_RUN)) && return 0
    mkdir -p "$target"
    if [[ -z $uid || -z $gid ]]; then die "unknown user or group $owner:$group on the target"; fi
    chown "$uid:$gid" "$target"
    chmod "$mode" "$target"
}

# id_in_target passwd|group NAME: the numeric id of NAME in the target's /etc/passwd or /etc/group.
id_in_target() {
    local file
    file=$(tpath "/etc/$1")
    [[ -f $file ]] || return 0
    awk -F: -v name="$2" '$1 == name { print $3; exit }' "$file"
}

# systemctl on the target: offline (--root) for file changes, so it works in staging and in
# images as well as on a running system.
# `run systemctl $ROOT_OPT enable X` prints the exact command.
sctl() { systemctl --root="${ROOT:-/}" "$@"; }
unit_state() { sctl is-enabled "$1" 2>/dev/null || true; }
root_opt() { if live; then printf -- '--no-reload'; else printf -- '--root=%s' "$ROOT"; fi; }
systemd_running() { live && [[ -d /run/systemd/system ]]; }

# State remembered by install.sh so that uninstall.sh undoes exactly what install.sh did.
state_get() {
    local file
    file=$(tpath "$STATE_FILE")
    [[ -f $file ]] || return 0
    awk -v key="$1" 'index($0, key "=") == 1 { print substr($0, length(key) + 2); exit }' "$file"
}
state_has() {
    local file
    file=$(tpath "$STATE_FILE")
    [[ -f $file ]] && grep -q "^$1=" "$file"
}

# The Raspberry Pi boot partition (Bookworm: /boot/firmware; older: /boot), or nothing.
pi_boot_dir() {
    local dir
    for dir in /boot/firmware /boot; do
        if [[ -f $(tpath "$dir/config.txt") ]]; then
            printf '%s' "$dir"
            return 0
        fi
    done
}

# Marks around the lines install.sh adds to config.txt.
BLOCK_BEGIN="# BEGIN babyalbum (added by deploy/install.sh, removed by deploy/uninstall.sh)"
BLOCK_END="# END babyalbum"

# without_block FILE: FILE's content without the babyalbum block.
without_block() {
    awk -v b="$BLOCK_BEGIN" -v e="$BLOCK_END" '$0 == b { skip = 1; next } skip && $0 == e { skip = 0; next } !skip' "$1"
}

# The kernel command-line words that keep the console quiet.
QUIET_WORDS=(consoleblank=0 vt.global_cursor_default=0 quiet loglevel=3 logo.nologo)

# set_root DIR: stage everything under DIR instead of the live system.
set_root() {
    [[ -n ${1:-} ]] || die "--root needs a directory"
    [[ -d $1 ]] || die "--root $1: no such directory"
    ROOT=$(cd "$1" && pwd)
    [[ $ROOT == / ]] && ROOT=""
    return 0
}

finish() {
    if ((DRY_RUN)); then
        note "$CHANGES changes (dry run: nothing was changed)"
    else
        note "$CHANGES changes"
    fi
}
