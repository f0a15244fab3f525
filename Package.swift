// swift-tools-version:6.1
import PackageDescription

/// BabyAlbum: a child-safe photo frame for embedded Linux. The module map, from the inside out
/// (docs/design.md tells the data flow):
///
/// - Domain: `AlbumDomain` (state, actions, effects, the `PublishPhoto` reducer, the view model,
///   quiet windows; the standard library only, no I/O) and `AlbumRuntime` (the runner that feeds
///   actions to the reducer and performs its effects).
/// - Platform: `LinuxInterfaces` + `CLinuxInterfaces` (descriptors, errno, poll loops, inotify,
///   signals: the system calls every layer shares).
/// - Adapters:
///   - `PhotoCodec`: in-process decoding, captions, EXIF, the backdrop and PNG writing, and the
///     decode sandbox's Swift side (`DecodeWorkerPool`); `PNGFileView`: the `png:DIR` output.
///   - `FolderRepository` (the photo folder) and `PhotoSources` (folders and USB sticks as one
///     repository).
///   - `DRMDisplay` + `CDRM`, `CDisplayShims`, `CFrameBlend` (DRM/KMS output, the crossfade's
///     blend); `EvdevInput` + `CEvdev` (the exit button).
///   - `QuietHours` + `CClockShims` (the quiet-hours schedule and watcher, the wall calendar,
///     backlight and dimming); `SystemdNotify` (readiness and watchdog); `BabyAlbumSettings`
///     (the settings file, checked by the command's own parser).
/// - C codecs, one system-library module per library (pkg-config):
///   - `CPhotoCodecCore`: what every codec shares (errors, scale mode, limits, metadata, scaler).
///   - `CPNGCodec` + `CPNG` (libpng); `CPhotoCodec` + `CJPEG`, `CWebP` (libjpeg-turbo, libwebp);
///     `CHEIFCodec` + `CHEIF` (libheif: HEIC, HEIF, AVIF).
///   - `CColour` + `CLCMS2` (ICC profiles to sRGB with lcms2); `CCaption` + `CFreeType` (captions).
/// - The decode sandbox: `CSandbox` (seccomp allow-list, limits, the worker protocol),
///   `CDecodeWorker` (the worker) and `babyalbum-decoder` (the worker as a C program).
/// - Application: `BabyAlbumApp` (wires adapters to the domain), `BabyAlbumDoctor` (the checks of
///   `babyalbum doctor`), `BabyAlbumCommands` (the command line: the slideshow, `doctor`,
///   `settings`, the settings file, the decode worker's dispatch) and `babyalbum` (its `main.swift`).
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
        // MARK: Domain (no C, no I/O) and the runner that performs its effects
        .target(name: "AlbumDomain"),
        .target(name: "AlbumRuntime", dependencies: ["AlbumDomain"]),

        // MARK: C modules
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // What every codec shares: the error enum, scale mode, limits, target and metadata (its one
        // public header), and the placement, orientation and scaler code (headers for the codecs' C files).
        .target(name: "CPhotoCodecCore", dependencies: ["CColour"]),
        .target(name: "CPNGCodec", dependencies: ["CPNG", "CPhotoCodecCore"]),
        .systemLibrary(
            name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        .target(name: "CDisplayShims", dependencies: ["CDRM"]),
        .target(name: "CFrameBlend"),
        .systemLibrary(
            name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(
            name: "CWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        // libwebp itself, named: trixie's libwebpdemux.pc lists it only under Requires.private.
        .target(
            name: "CPhotoCodec", dependencies: ["CPhotoCodecCore", "CJPEG", "CWebP", "CColour"],
            linkerSettings: [.linkedLibrary("webp")]),
        .systemLibrary(
            name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        // Colour management: embedded ICC profiles converted to sRGB with lcms2.
        .target(name: "CColour", dependencies: ["CLCMS2"], linkerSettings: [.linkedLibrary("m")]),
        .systemLibrary(
            name: "CHEIF", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .target(name: "CHEIFCodec", dependencies: ["CPhotoCodecCore", "CHEIF"]),
        // The decode sandbox (seccomp allow-list, limits, the worker protocol) and the decode worker.
        .target(name: "CSandbox"),
        .target(
            name: "CDecodeWorker",
            dependencies: ["CPhotoCodecCore", "CPhotoCodec", "CPNGCodec", "CHEIFCodec", "CSandbox", "CColour"]),
        .executableTarget(name: "babyalbum-decoder", dependencies: ["CDecodeWorker"]),
        .systemLibrary(
            name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .target(name: "CCaption", dependencies: ["CFreeType"]),
        .systemLibrary(
            name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),

        // MARK: Adapters
        .target(
            name: "PhotoCodec",
            dependencies: [
                "AlbumDomain", "CPhotoCodecCore", "CPNGCodec", "CPhotoCodec", "CHEIFCodec", "CSandbox", "CCaption",
                "CColour", "LinuxInterfaces",
            ]),
        .target(name: "PNGFileView", dependencies: ["AlbumDomain", "LinuxInterfaces", "PhotoCodec"]),
        .target(
            name: "FolderRepository",
            dependencies: ["AlbumDomain", "LinuxInterfaces", .product(name: "Logging", package: "swift-log")]),
        .target(
            name: "DRMDisplay",
            dependencies: [
                "AlbumDomain", "CDRM", "CDisplayShims", "CFrameBlend", "LinuxInterfaces",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(
            name: "EvdevInput",
            dependencies: ["AlbumDomain", "CEvdev", "LinuxInterfaces", .product(name: "Logging", package: "swift-log")]),

        .target(name: "SystemdNotify", dependencies: ["LinuxInterfaces"]),
        .target(name: "CLinuxInterfaces"),
        .target(
            name: "PhotoSources",
            dependencies: ["AlbumDomain", "LinuxInterfaces", .product(name: "Logging", package: "swift-log")]),
        .target(
            name: "BabyAlbumSettings",
            dependencies: ["LinuxInterfaces", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .target(
            name: "LinuxInterfaces",
            dependencies: ["CLinuxInterfaces", .product(name: "Logging", package: "swift-log")]),
        .target(name: "CClockShims"),
        .target(
            name: "QuietHours",
            dependencies: [
                "AlbumDomain", "CClockShims", "LinuxInterfaces", .product(name: "Logging", package: "swift-log"),
            ]),

        // MARK: Application
        .target(
            name: "BabyAlbumApp",
            dependencies: [
                "PhotoSources", "AlbumDomain", "AlbumRuntime", "PhotoCodec", "PNGFileView", "FolderRepository",
                "DRMDisplay", "EvdevInput", "SystemdNotify", "LinuxInterfaces",
                "QuietHours", .product(name: "Logging", package: "swift-log"),
            ]),
        .target(
            name: "BabyAlbumDoctor",
            dependencies: [
                "AlbumDomain", "BabyAlbumApp", "PhotoCodec", "FolderRepository", "DRMDisplay", "EvdevInput",
                "LinuxInterfaces", "QuietHours",
            ]),
        .executableTarget(name: "babyalbum", dependencies: ["BabyAlbumCommands"]),
        .target(
            name: "BabyAlbumCommands",
            dependencies: [
                "AlbumDomain", "BabyAlbumApp", "PhotoSources", "BabyAlbumDoctor", "BabyAlbumSettings", "QuietHours",
                "CDecodeWorker", "DRMDisplay", "EvdevInput", "PhotoCodec", "LinuxInterfaces",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),

        // MARK: Tests
        .testTarget(name: "AlbumDomainTests", dependencies: ["AlbumDomain"]),
        .testTarget(
            name: "AlbumRuntimeTests",
            dependencies: ["AlbumRuntime", "AlbumDomain", .product(name: "Clocks", package: "swift-clocks")]),
        .testTarget(
            name: "PhotoCodecTests", dependencies: ["PhotoCodec", "AlbumDomain", "TestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "BabyAlbumEndToEndTests", dependencies: ["PhotoCodec", "AlbumDomain", "TestSupport"]),
        .testTarget(name: "DRMDisplayTests", dependencies: ["DRMDisplay", "AlbumDomain", "LinuxInterfaces"]),
        .testTarget(
            name: "EvdevInputTests",
            dependencies: ["EvdevInput", "CEvdev", "AlbumDomain", .product(name: "Clocks", package: "swift-clocks")]),
        .testTarget(name: "SystemdNotifyTests", dependencies: ["SystemdNotify"]),
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
            dependencies: ["QuietHours", "AlbumDomain", .product(name: "Logging", package: "swift-log")]),
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
                "PhotoCodec", "TestSupport",
            ]),
        // Helpers shared by the test targets (a temporary folder, resident memory, a log recorder).
        .target(
            name: "TestSupport", dependencies: [.product(name: "Logging", package: "swift-log")],
            path: "Tests/TestSupport"),
        .testTarget(
            name: "LinuxInterfacesTests",
            dependencies: ["LinuxInterfaces", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "DecodeWorkerTests",
            dependencies: [
                "PhotoCodec", "AlbumDomain", "CSandbox", "CDecodeWorker", "CColour", "CColourFixtures",
                "LinuxInterfaces", "TestSupport",
            ]
        ),
        // ICC profiles made with lcms2 for the colour tests (Display P3, Adobe RGB, sRGB).
        .target(name: "CColourFixtures", dependencies: ["CLCMS2", "CColour"], path: "Tests/CColourFixtures"),
    ],
    swiftLanguageModes: [.v6]
)
