# shellcheck shell=bash
# The frame's settings file, for deploy/install.sh and deploy/uninstall.sh (sourced after lib.sh).
# On a Raspberry Pi it sits on the FAT boot partition, which any Windows or Mac computer can
# edit: /boot/firmware/babyalbum.txt; elsewhere /etc/babyalbum/babyalbum.conf. The program reads
# the same places (babyalbum --settings FILE overrides).

# settings_file_path BOARD: where the settings file goes on the target.
settings_file_path() {
    local boot
    if [[ $1 == pi ]] && boot=$(pi_boot_dir) && [[ -n $boot ]]; then
        printf '%s/babyalbum.txt' "$boot"
    else
        printf '/etc/babyalbum/babyalbum.conf'
    fi
}

# options_to_settings WORDS...: babyalbum options (--key value, --key=value, --flag) as
# "key = value" lines, one per option.
options_to_settings() {
    local word key
    while (($#)); do
        word=$1
        shift
        [[ $word == --?* ]] || { warn "ignored the option word '$word' (not --name)"; continue; }
        key=${word#--}
        if [[ $key == *=* ]]; then
            printf '%s = %s\n' "${key%%=*}" "${key#*=}"
        elif (($#)) && [[ $1 != --* ]]; then
            printf '%s = %s\n' "$key" "$1"
            shift
        else
            printf '%s = yes\n' "$key"
        fi
    done
}

# settings_with FILE LINES: FILE's text (CRLF endings kept as they are) with every active line of
# the keys in LINES removed, then LINES appended under a marker: the options given to install.sh
# win over earlier lines of the same keys, and a second run with the same options changes nothing.
settings_with() {
    local file=$1 lines=$2
    local keys
    if [[ -z $lines ]]; then
        cat "$file"
        return 0
    fi
    keys=$(printf '%s\n' "$lines" | sed -n 's/^\([a-z0-9-]*\) = .*/\1/p' | sort -u | tr '\n' ' ')
    awk -v keys="$keys" '
        BEGIN { n = split(keys, list, " "); for (i = 1; i <= n; i++) drop[list[i]] = 1 }
        /^# Set by deploy\/install.sh/ { next }
        {
            line = $0; sub(/\r$/, "", line); sub(/^[ \t\xef\xbb\xbf]+/, "", line)
            key = line; sub(/[ \t]*=.*/, "", key); key = tolower(key)
            if (line !~ /^[#;]/ && line ~ /=/ && (key in drop)) next
            print
        }' "$file"
    printf '# Set by deploy/install.sh (it replaces these lines when run again with --options):\n'
    printf '%s\n' "$lines"
}

# install_settings_file BOARD OPTIONS: writes the commented example settings file (every key
# with its default, deploy/babyalbum.conf.example) if there is none, and moves OPTIONS (the
# service's BABYALBUM_OPTS) into it, so that a parent can change them there.
install_settings_file() {
    local board=$1 options=$2 path lines tmp base
    path=$(settings_file_path "$board")
    # shellcheck disable=SC2086 # option words, split on purpose as systemd splits $BABYALBUM_OPTS
    lines=$(options_to_settings $options)
    base=$(tpath "$path")
    [[ -f $base ]] || base=$SCRIPT_DIR/babyalbum.conf.example
    tmp=$(mktemp)
    settings_with "$base" "$lines" >"$tmp"
    if [[ $path == /etc/* ]]; then ensure_dir /etc/babyalbum 0755 root root; fi
    put_file "$path" 0644 "$tmp"
    rm -f "$tmp"
    SETTINGS_FILE=$path # install.sh names it in /etc/default/babyalbum
    export SETTINGS_FILE
}

# uninstall_settings_file: removes the settings file (both places) and /etc/babyalbum.
uninstall_settings_file() {
    local boot
    remove /etc/babyalbum/babyalbum.conf
    remove_dir_if_empty /etc/babyalbum
    boot=$(pi_boot_dir)
    [[ -z $boot ]] || remove "$boot/babyalbum.txt"
}
