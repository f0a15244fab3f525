// swift-tools-version:6.1
import PackageDescription

/// BabyAlbum: a child-safe photo frame for embedded Linux. `Sources/` is grouped by layer, from the
/// inside out (docs/design.md tells the data flow); each module is listed under its folder:
///
/// - `Sources/Domain/`: `AlbumDomain` (state, actions, effects, the `PublishPhoto` reducer, the
///   view model, quiet windows; the standard library only, no I/O).
/// - `Sources/Platform/`: `LinuxInterfaces` (descriptors, errno, poll loops, inotify, `stat`,
///   `access`, user look-ups, TCP, resource usage, and signals with the restart in one place: the
///   system calls every layer shares; its C side is `CLinuxInterfaces`).
/// - `Sources/Adapters/`:
///   - `PhotoCodec`: photos as the frame process handles them, with no decoder library (formats by
///     their bytes, headers, captions, EXIF, the backdrop, the turn, PNG writing); `PhotoDecoding`:
///     decoding in the calling process, for the tests and the benchmark only; `DecodeSandbox`: the
///     decode sandbox's Swift side (`DecodeWorkerPool` starting `babyalbum-decoder`, the worker
///     process, `SandboxedFramePreparer`); `PNGFileView`: the `png:DIR` output.
///   - `FolderRepository` (the photo folder) and `PhotoSources` (folders and USB sticks as one
///     repository).
///   - `DRMDisplay` (DRM/KMS output); `EvdevInput` (the exit button, every input grabbed).
///   - `QuietHours` (the quiet-hours schedule and watcher, the wall calendar, backlight and
///     dimming); `SystemdNotify` (readiness and watchdog); `WiFiStatus` (wpa_supplicant's events as
///     one line); `BabyAlbumSettings` (the settings file,
///     checked by the command's own parser).
/// - `Sources/App/`: `AlbumRuntime` (the runner at the edge: feeds actions to the reducer and
///   performs its effects, with Dispatch), `BabyAlbumApp` (wires adapters to the domain), `BabyAlbumDoctor` (the checks
///   of `babyalbum doctor` and its report, text or JSON, assembled), `BabyAlbumCommands` (the command line: the slideshow, `doctor`,
///   `settings`, the settings file) and `babyalbum` (its `main.swift`).
/// - `Benchmarks/babyalbum-benchmark`: the decode benchmark of `scripts/bench` (built, not shipped).
/// - `Sources/C/`, the C side:
///   - `Libraries/`: one system-library module per library (pkg-config): `CPNG` (libpng), `CJPEG`
///     (libjpeg-turbo), `CWebP` (libwebp), `CHEIF` (libheif: HEIC, HEIF, AVIF), `CLCMS2` (lcms2),
///     `CFreeType` (FreeType), `CDRM` (libdrm), `CEvdev` (libevdev).
///   - `Codecs/`: `CPhotoCodecCore` (what every codec shares: errors, formats, scale mode and the
///     `auto` decision, limits, the header and metadata, scaler, the conversion to sRGB),
///     `CPhotoCodec` (the one entry point of every format: `baphoto_read_header`,
///     `baphoto_decode`, `baphoto_codec_version`), a codec a format (`CPNGCodec`, `CJPEGCodec`,
///     `CWebPCodec`, `CHEIFCodec`), `CColour` (ICC profiles to sRGB) and `CCaption` (captions).
///   - `Sandbox/`: `CSandbox` (seccomp allow-list, limits, the worker protocol), `CDecodeWorker`
///     (the worker) and `babyalbum-decoder` (its program with every codec; the package builds one a
///     format family with clang, `/usr/libexec/babyalbum/babyalbum-decoder-jpeg` and so on, each
///     linking its own decoder library: the only binaries that link the decoders).
///   - `Platform/`: `CLinuxInterfaces`, `CClockShims`, `CDisplayShims` (libc and kernel macros
///     Swift cannot import) and `CFrameBlend` (the crossfade's blend).
/// - Test helpers: `TestSupport` and `CColourFixtures` (under Tests/).
let package = Package(
    name: "BabyAlbum",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "babyalbum", targets: ["babyalbum"]),
        .executable(name: "babyalbum-decoder", targets: ["babyalbum-decoder"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.0.0"),
    ],
    targets: [
        // MARK: Domain (no C, no I/O)
        .target(name: "AlbumDomain", path: "Sources/Domain/AlbumDomain"),
        // The runner at the edge that performs the domain's effects (Dispatch, the injected clock).
        .target(name: "AlbumRuntime", dependencies: ["AlbumDomain"], path: "Sources/App/AlbumRuntime"),

        // MARK: Platform
        .target(
            name: "LinuxInterfaces",
            dependencies: ["CLinuxInterfaces", .product(name: "Logging", package: "swift-log")],
            path: "Sources/Platform/LinuxInterfaces"),

        // MARK: C: system libraries (pkg-config)
        .systemLibrary(
            name: "CPNG", path: "Sources/C/Libraries/CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CJPEG", path: "Sources/C/Libraries/CJPEG", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(
            name: "CWebP", path: "Sources/C/Libraries/CWebP", pkgConfig: "libwebpdemux",
            providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(
            name: "CHEIF", path: "Sources/C/Libraries/CHEIF", pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"])]),
        .systemLibrary(
            name: "CLCMS2", path: "Sources/C/Libraries/CLCMS2", pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(
            name: "CFreeType", path: "Sources/C/Libraries/CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(
            name: "CDRM", path: "Sources/C/Libraries/CDRM", pkgConfig: "libdrm",
            providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(
            name: "CEvdev", path: "Sources/C/Libraries/CEvdev", pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]),

        // MARK: C: codecs
        // What every codec shares: the error enum, scale mode, limits, target and metadata (its one
        // public header), and the placement, orientation and scaler code (headers for the codecs' C files).
        .target(name: "CPhotoCodecCore", dependencies: ["CColour"], path: "Sources/C/Codecs/CPhotoCodecCore"),
        .target(name: "CPNGCodec", dependencies: ["CPNG", "CPhotoCodecCore"], path: "Sources/C/Codecs/CPNGCodec"),
        // The one entry point of every format (baphoto_read_header, baphoto_decode,
        // baphoto_codec_version), dispatching to each format's codec target. WebP names libwebp
        // itself: trixie's libwebpdemux.pc lists it only under Requires.private.
        .target(
            name: "CPhotoCodec",
            dependencies: ["CPhotoCodecCore", "CPNGCodec", "CJPEGCodec", "CWebPCodec", "CHEIFCodec", "CColour"],
            path: "Sources/C/Codecs/CPhotoCodec"),
        .target(
            name: "CJPEGCodec", dependencies: ["CPhotoCodecCore", "CJPEG", "CColour"],
            path: "Sources/C/Codecs/CJPEGCodec"),
        .target(
            name: "CWebPCodec", dependencies: ["CPhotoCodecCore", "CWebP", "CColour"],
            path: "Sources/C/Codecs/CWebPCodec",
            linkerSettings: [.linkedLibrary("webp")]),
        .target(name: "CHEIFCodec", dependencies: ["CPhotoCodecCore", "CHEIF"], path: "Sources/C/Codecs/CHEIFCodec"),
        // Colour management: embedded ICC profiles converted to sRGB with lcms2.
        .target(
            name: "CColour", dependencies: ["CLCMS2"], path: "Sources/C/Codecs/CColour",
            linkerSettings: [.linkedLibrary("m")]),
        .target(name: "CCaption", dependencies: ["CFreeType"], path: "Sources/C/Codecs/CCaption"),

        // MARK: C: the decode sandbox (seccomp allow-list, limits, the worker protocol) and the decode worker
        .target(name: "CSandbox", path: "Sources/C/Sandbox/CSandbox"),
        .target(
            name: "CDecodeWorker",
            dependencies: ["CPhotoCodecCore", "CPhotoCodec", "CPNGCodec", "CHEIFCodec", "CSandbox", "CColour"],
            path: "Sources/C/Sandbox/CDecodeWorker"),
        .executableTarget(
            name: "babyalbum-decoder", dependencies: ["CDecodeWorker"], path: "Sources/C/Sandbox/babyalbum-decoder"),

        // MARK: C: platform shims and the blend
        .target(name: "CLinuxInterfaces", path: "Sources/C/Platform/CLinuxInterfaces"),
        .target(name: "CClockShims", path: "Sources/C/Platform/CClockShims"),
        .target(name: "CDisplayShims", dependencies: ["CDRM"], path: "Sources/C/Platform/CDisplayShims"),
        .target(name: "CFrameBlend", path: "Sources/C/Platform/CFrameBlend"),

        // MARK: Adapters
        // Photos as the frame process knows them, with no decoder library: formats by their bytes,
        // headers, metadata (EXIF dates, colour), limits and errors.
        .target(
            name: "PhotoCodec",
            dependencies: ["AlbumDomain", "CPhotoCodecCore", "CColour", "LinuxInterfaces"],
            path: "Sources/Adapters/PhotoCodec"),
        // What the frame process does to a decoded photo: the one frame recipe (the `auto`
        // backdrop, the turn for the screen, the caption), notices, and the PNG writer.
        .target(
            name: "FrameFinishing",
            dependencies: ["AlbumDomain", "PhotoCodec", "CPhotoCodecCore", "CPNGCodec", "CCaption", "LinuxInterfaces"],
            path: "Sources/Adapters/FrameFinishing"),
        // Decoding in the calling process, every format: the tests' reference and the decode benchmark.
        // The slideshow and the doctor decode in workers (DecodeSandbox); nothing shipped links this.
        .target(
            name: "PhotoDecoding",
            dependencies: [
                "AlbumDomain", "CPhotoCodecCore", "CPhotoCodec", "CHEIFCodec", "CColour", "PhotoCodec",
                "FrameFinishing",
            ],
            path: "Sources/Adapters/PhotoDecoding"),
        .target(
            name: "DecodeSandbox",
            dependencies: [
                "AlbumDomain", "CPhotoCodecCore", "CSandbox", "LinuxInterfaces", "PhotoCodec", "FrameFinishing",
            ],
            path: "Sources/Adapters/DecodeSandbox"),
        .target(
            name: "PNGFileView", dependencies: ["AlbumDomain", "LinuxInterfaces", "PhotoCodec", "FrameFinishing"],
            path: "Sources/Adapters/PNGFileView"),
        .target(
            name: "FolderRepository",
            dependencies: ["AlbumDomain", "LinuxInterfaces", .product(name: "Logging", package: "swift-log")],
            path: "Sources/Adapters/FolderRepository"),
        .target(
            name: "PhotoSources",
            dependencies: ["AlbumDomain", "LinuxInterfaces", .product(name: "Logging", package: "swift-log")],
            path: "Sources/Adapters/PhotoSources"),
        .target(
            name: "DRMDisplay",
            dependencies: [
                "AlbumDomain", "CDRM", "CDisplayShims", "CFrameBlend", "LinuxInterfaces",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Adapters/DRMDisplay"),
        .target(
            name: "EvdevInput",
            dependencies: [
                "AlbumDomain", "CEvdev", "LinuxInterfaces", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Adapters/EvdevInput"),
        .target(
            name: "QuietHours",
            dependencies: [
                "AlbumDomain", "CClockShims", "LinuxInterfaces", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Adapters/QuietHours"),
        .target(name: "SystemdNotify", dependencies: ["LinuxInterfaces"], path: "Sources/Adapters/SystemdNotify"),
        .target(name: "WiFiStatus", dependencies: ["LinuxInterfaces"], path: "Sources/Adapters/WiFiStatus"),
        .target(
            name: "BabyAlbumSettings",
            dependencies: ["LinuxInterfaces", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Sources/Adapters/BabyAlbumSettings"),

        // MARK: Application
        .target(
            name: "BabyAlbumApp",
            dependencies: [
                "PhotoSources", "AlbumDomain", "AlbumRuntime", "DecodeSandbox", "PhotoCodec", "FrameFinishing",
                "PNGFileView",
                "FolderRepository",
                "DRMDisplay", "EvdevInput", "SystemdNotify", "LinuxInterfaces",
                "QuietHours", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/App/BabyAlbumApp"),
        .target(
            name: "BabyAlbumDoctor",
            dependencies: [
                "AlbumDomain", "BabyAlbumSettings", "DecodeSandbox", "PhotoCodec", "PhotoSources", "FolderRepository",
                "DRMDisplay", "EvdevInput", "LinuxInterfaces", "QuietHours", "WiFiStatus",
            ],
            path: "Sources/App/BabyAlbumDoctor"),
        .target(
            name: "BabyAlbumCommands",
            dependencies: [
                "AlbumDomain", "BabyAlbumApp", "PhotoSources", "BabyAlbumDoctor", "BabyAlbumSettings", "QuietHours",
                "DRMDisplay", "EvdevInput", "DecodeSandbox", "PhotoCodec", "LinuxInterfaces",
                "WiFiStatus", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/App/BabyAlbumCommands"),
        .executableTarget(name: "babyalbum", dependencies: ["BabyAlbumCommands"], path: "Sources/App/babyalbum"),
        // The decode benchmark (scripts/bench): built, never shipped.
        .executableTarget(
            name: "babyalbum-benchmark",
            dependencies: [
                "AlbumDomain", "BabyAlbumCommands", "DecodeSandbox", "PhotoCodec", "FrameFinishing", "PhotoDecoding",
                "LinuxInterfaces",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/babyalbum-benchmark"),

        // MARK: Tests
        .testTarget(name: "AlbumDomainTests", dependencies: ["AlbumDomain"]),
        .testTarget(
            name: "AlbumRuntimeTests",
            dependencies: ["AlbumRuntime", "AlbumDomain", .product(name: "Clocks", package: "swift-clocks")]),
        .testTarget(
            name: "PhotoCodecTests",
            dependencies: [
                "PhotoCodec", "FrameFinishing", "PhotoDecoding", "PNGFileView", "AlbumDomain", "TestSupport",
            ],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "FrameFinishingTests",
            dependencies: [
                "FrameFinishing", "PhotoCodec", "PhotoDecoding", "PNGFileView", "AlbumDomain", "TestSupport",
            ]),
        .testTarget(
            name: "BabyAlbumEndToEndTests",
            dependencies: ["PhotoCodec", "FrameFinishing", "PhotoDecoding", "AlbumDomain", "TestSupport"]),
        .testTarget(name: "DRMDisplayTests", dependencies: ["DRMDisplay", "AlbumDomain", "LinuxInterfaces"]),
        .testTarget(
            name: "EvdevInputTests",
            dependencies: ["EvdevInput", "CEvdev", "AlbumDomain", .product(name: "Clocks", package: "swift-clocks")]),
        .testTarget(name: "SystemdNotifyTests", dependencies: ["SystemdNotify", "TestSupport"]),
        .testTarget(name: "WiFiStatusTests", dependencies: ["WiFiStatus"]),
        .testTarget(
            name: "PhotoSourcesTests",
            dependencies: ["PhotoSources", "AlbumDomain", .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "BabyAlbumSettingsTests",
            dependencies: [
                "BabyAlbumSettings", "BabyAlbumDoctor", "BabyAlbumCommands", "AlbumDomain",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .testTarget(
            name: "QuietHoursTests",
            dependencies: ["QuietHours", "AlbumDomain", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "FolderRepositoryTests",
            dependencies: [
                "FolderRepository", "AlbumDomain", "TestSupport", .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "BabyAlbumDoctorTests",
            dependencies: [
                "BabyAlbumDoctor", "BabyAlbumApp", "AlbumDomain", "DRMDisplay", "EvdevInput", "FolderRepository",
                "PhotoCodec", "PhotoDecoding", "TestSupport", .product(name: "Logging", package: "swift-log"),
            ]),
        // Helpers shared by the test targets (a temporary folder, resident memory, a log recorder, a
        // notification socket).
        .target(
            name: "TestSupport", dependencies: [.product(name: "Logging", package: "swift-log")],
            path: "Tests/TestSupport"),
        .testTarget(
            name: "LinuxInterfacesTests",
            dependencies: ["LinuxInterfaces", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "DecodeWorkerTests",
            dependencies: [
                "DecodeSandbox", "PhotoCodec", "FrameFinishing", "PhotoDecoding", "AlbumDomain", "CSandbox",
                "CDecodeWorker", "CColour",
                "CColourFixtures",
                "CHEIFCodec", "CPhotoCodecCore", "LinuxInterfaces", "TestSupport",
            ]
        ),
        // ICC profiles made with lcms2 for the colour tests (Display P3, Adobe RGB, sRGB).
        .target(name: "CColourFixtures", dependencies: ["CLCMS2", "CColour"], path: "Tests/CColourFixtures"),
    ],
    swiftLanguageModes: [.v6]
)
