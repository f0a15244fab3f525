import CSandbox
import LinuxInterfaces

/// A frame memfd (`basandbox_frame_memfd`) that workers write frames into, owned in turn by the
/// pool's list, the waiting worker it is offered to and the decode using it; its descriptor, a
/// ``FileDescriptor``, is closed once, when the last of them lets go. Only the worker protocol's C
/// calls see its number.
final class FrameMemory: Sendable {
    /// The memfd, owned here.
    let file: FileDescriptor

    /// A new, empty memfd; `nil` (with `errno` set) when it cannot be made.
    init?() {
        let descriptor = basandbox_frame_memfd()
        guard descriptor >= 0 else { return nil }
        file = FileDescriptor(adopting: descriptor, path: "the frame memfd")
    }

    /// Sizes it for a frame of `bytes` (`ftruncate`).
    func resize(toBytes bytes: Int) throws(SystemCallFailure) { try file.truncate(toSize: Int64(bytes)) }

    /// Its size in bytes (`fstat`), or -1.
    var size: Int { (try? file.status()).map { Int($0.size) } ?? -1 }

    /// Frees its pages, keeping its size (`basandbox_release_frame`): between photos it holds no
    /// memory and reads as zeros, the cleared frame a worker needs. `false` when that fails: the
    /// memfd must not be handed to a worker again.
    func releasePages() -> Bool { basandbox_release_frame(file.rawValue) == 0 }
}
