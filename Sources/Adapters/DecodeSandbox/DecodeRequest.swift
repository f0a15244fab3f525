import AlbumDomain
import CSandbox
import FrameFinishing
import LinuxInterfaces
import PhotoCodec

/// What the slideshow asks a worker for: the frame's geometry and the limits, nothing else.
public struct DecodeRequest: Sendable {
    /// The frame: the panel's own size.
    public var size: FrameSize
    /// How the photo is fitted (`auto` is resolved by the worker from the header).
    public var scale: ScaleMode
    /// How the screen is mounted.
    public var rotation: ScreenRotation
    /// Limits against hostile files.
    public var limits: PhotoLimits
    /// The decode-memory budget, which also sizes the worker's `RLIMIT_AS`.
    public var budget: DecodeMemoryBudget
    /// The worker's `RLIMIT_CPU`, seconds.
    public var cpuSeconds: UInt32
    /// How long the decode may take, when shorter than the pool's deadline: the slideshow's
    /// wait for the next photo (a worker still decoding then is stopped and the photo passed over).
    public var deadline: Duration?
    /// Only the header is read (`doctor --quick`): the frame stays empty.
    public var headerOnly: Bool
    /// Test-only: a `BADECODE_TEST_*` action the worker does inside its sandbox.
    public var testAction: Int32

    /// A request.
    public init(
        size: FrameSize, scale: ScaleMode, rotation: ScreenRotation = .none, limits: PhotoLimits = PhotoLimits(),
        budget: DecodeMemoryBudget = .default, cpuSeconds: UInt32 = 10, deadline: Duration? = nil,
        headerOnly: Bool = false, testAction: Int32 = 0
    ) {
        self.size = size
        self.scale = scale
        self.rotation = rotation
        self.limits = limits
        self.budget = budget
        self.cpuSeconds = cpuSeconds
        self.deadline = deadline
        self.headerOnly = headerOnly
        self.testAction = testAction
    }

    var c: badecode_request {
        let mode: Int32 =
            switch scale {
            case .fill: Int32(BADECODE_SCALE_FILL)
            case .fit: Int32(BADECODE_SCALE_FIT)
            case .auto: Int32(BADECODE_SCALE_AUTO)
            }
        return badecode_request(
            magic: BADECODE_MAGIC, version: BADECODE_VERSION, width: UInt32(size.width), height: UInt32(size.height),
            scale: mode, quarter_turns: Int32(rotation.quarterTurns), auto_crop_limit: FrameRecipe.autoCropLimit,
            max_pixels: limits.maxPixels, budget_bytes: budget.bytes, max_scans: PhotoLimits.maxJPEGScans,
            max_chunk_bytes: limits.maxChunkBytes, cpu_seconds: cpuSeconds, test_action: testAction,
            flags: headerOnly ? UInt32(BADECODE_REQUEST_HEADER_ONLY) : 0)
    }
}
