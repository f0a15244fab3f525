#!/usr/bin/env bash
# Builds the babyalbum program for a photo frame: a release build with the Swift standard
# library linked in (--static-swift-stdlib), so the board needs no Swift runtime, only
# libpng16-16, libjpeg62-turbo, libwebp7, libwebpdemux2, libdrm2 and libevdev2. Then lists the
# shared libraries the program needs and the Debian packages that provide them, and fails if any
# is not one of those.
#
#   deploy/build-arm64.sh                 build for this machine (on a Pi: arm64)
#   deploy/build-arm64.sh --sdk ID        cross-compile with an installed Swift SDK (swift sdk list)
#
# For a release use scripts/package instead: it makes the .deb packages with Debian's own Swift
# toolchain. See deploy/README.md, "Building the packages".
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() {
    cat <<'EOF'
Usage: deploy/build-arm64.sh [--sdk ID] [--add-sysroot-packages] [--out DIR] [--scratch-path DIR]

  (no --sdk)              build natively, for this machine's architecture
  --sdk ID                cross-compile with the Swift SDK ID (e.g. 6.3.1-RELEASE_debian_bookworm_aarch64)
  --add-sysroot-packages  with --sdk: put the arm64 libpng-dev, libjpeg62-turbo-dev, libwebp-dev, libdrm-dev and libevdev-dev
                          Debian packages into the SDK's sysroot first (needs
                          `dpkg --add-architecture arm64 && apt-get update`, as root)
  --out DIR               where the program goes (default dist/), named babyalbum-<arch>
  --scratch-path DIR      SwiftPM's build folder (default .build)
EOF
}

SDK=""
ADD_PACKAGES=0
OUT=$REPO/dist
SCRATCH=$REPO/.build
while (($#)); do
    case $1 in
    --sdk) SDK=${2:?--sdk needs an SDK id}; shift 2 ;;
    --add-sysroot-packages) ADD_PACKAGES=1; shift ;;
    --out) OUT=${2:?--out needs a folder}; shift 2 ;;
    --scratch-path) SCRATCH=${2:?--scratch-path needs a folder}; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
    esac
done

# Runtime Debian packages for each library the program may link (what install.sh installs, plus
# the ones every Debian system has).
declare -A PACKAGE_OF=(
    [libpng16.so.16]=libpng16-16 [libjpeg.so.62]=libjpeg62-turbo [libwebp.so.7]=libwebp7
    [libwebpdemux.so.2]=libwebpdemux2 [libdrm.so.2]=libdrm2 [libevdev.so.2]=libevdev2 [libz.so.1]=zlib1g
    [libfreetype.so.6]=libfreetype6 [liblcms2.so.2]=liblcms2-2 [libbrotlidec.so.1]=libbrotli1 [libbrotlicommon.so.1]=libbrotli1
    [libstdc++.so.6]=libstdc++6 [libgcc_s.so.1]=libgcc-s1 [libc.so.6]=libc6 [libm.so.6]=libc6
    [libdl.so.2]=libc6 [libpthread.so.0]=libc6 [librt.so.1]=libc6 [libutil.so.1]=libc6
    [ld-linux-aarch64.so.1]=libc6 [ld-linux-x86-64.so.2]=libc6
)

build_args=(-c release --product babyalbum --static-swift-stdlib --scratch-path "$SCRATCH")
if [[ -n $SDK ]]; then
    triple=aarch64-unknown-linux-gnu
    arch=aarch64
    # The SDK's sysroot, from SwiftPM's own record of the installed SDK.
    sysroot=$(swift sdk configure --show-configuration "$SDK" "$triple" 2>/dev/null |
        sed -n 's/^sdkRootPath: //p' | head -n 1)
    [[ -n $sysroot && -d $sysroot ]] || { echo "error: cannot find the sysroot of Swift SDK $SDK (swift sdk list)" >&2; exit 1; }
    if ((ADD_PACKAGES)); then
        download=$(mktemp -d)
        (cd "$download" && apt-get download libpng-dev:arm64 libpng16-16:arm64 libdrm-dev:arm64 libdrm2:arm64 \
            libjpeg62-turbo-dev:arm64 libjpeg62-turbo:arm64 libwebp-dev:arm64 libwebp7:arm64 \
            libwebpdemux2:arm64 libwebpmux3:arm64 libevdev-dev:arm64 libevdev2:arm64 zlib1g-dev:arm64 zlib1g:arm64 \
            libfreetype-dev:arm64 libfreetype6:arm64 libbrotli1:arm64 liblcms2-dev:arm64 liblcms2-2:arm64)
        for deb in "$download"/*.deb; do dpkg-deb -x "$deb" "$sysroot"; done
        rm -rf "$download"
    fi
    for header in png.h jpeglib.h webp/demux.h xf86drm.h libevdev-1.0/libevdev/libevdev.h freetype2/ft2build.h lcms2.h; do
        [[ -f $sysroot/usr/include/$header ]] ||
            { echo "error: $sysroot lacks /usr/include/$header: use --add-sysroot-packages" >&2; exit 1; }
    done
    # SwiftPM reads the C libraries' .pc files itself and ignores PKG_CONFIG_LIBDIR: point
    # PKG_CONFIG_PATH into the sysroot.
    export PKG_CONFIG_SYSROOT_DIR=$sysroot
    export PKG_CONFIG_PATH=$sysroot/usr/lib/aarch64-linux-gnu/pkgconfig:$sysroot/usr/share/pkgconfig
    export PKG_CONFIG_LIBDIR=$PKG_CONFIG_PATH
    build_args+=(--swift-sdk "$SDK")
else
    arch=$(uname -m)
fi

echo "== swift build ${build_args[*]}"
(cd "$REPO" && swift build "${build_args[@]}")
# The decode worker's program, which the frame starts from its own folder (or ../libexec/babyalbum).
(cd "$REPO" && swift build "${build_args[@]}" --product babyalbum-decoder)
bin_dir=$(cd "$REPO" && swift build "${build_args[@]}" --show-bin-path)
mkdir -p "$OUT"
cp "$bin_dir/babyalbum" "$OUT/babyalbum-$arch"
cp "$bin_dir/babyalbum-decoder" "$OUT/babyalbum-decoder-$arch"
echo "== $OUT/babyalbum-$arch ($(stat -c %s "$OUT/babyalbum-$arch") bytes), $OUT/babyalbum-decoder-$arch"

# The libraries it needs at run time (readelf works for any architecture, unlike ldd).
status=0
packages=()
while read -r library; do
    package=${PACKAGE_OF[$library]:-}
    if [[ -z $package ]]; then
        echo "  $library: NOT EXPECTED (a Swift runtime library means --static-swift-stdlib did not apply)"
        status=1
    else
        echo "  $library: Debian package $package"
        packages+=("$package")
    fi
done < <(readelf -d "$OUT/babyalbum-$arch" "$OUT/babyalbum-decoder-$arch" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u)
echo "== runtime packages: $(printf '%s\n' "${packages[@]}" | sort -u | tr '\n' ' ')"
exit $status
