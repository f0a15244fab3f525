import CEvdev
import LinuxInterfaces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One evdev device (`/dev/input/eventN`): owns its file descriptor and its `struct libevdev`
/// (libevdev never owns the descriptor), grabs it with `EVIOCGRAB`, and reads its events.
/// `deinit` undoes everything in reverse order: ungrab, `libevdev_free`, then the
/// ``FileDescriptor`` closes.
///
/// Not thread-safe: used by one thread at a time.
final class InputDevice {
    /// The event node (`/dev/input/event3`).
    let path: String
    /// What the device says about itself: name, `phys`, ids and keys (`libevdev_get_*`).
    let identity: InputDeviceIdentity
    /// The device name (`libevdev_get_name`, e.g. `QEMU Virtio Keyboard`).
    var name: String { identity.name }
    /// The device number of the node, to tell a reused `eventN` name from the device we hold.
    let deviceNumber: UInt64
    private let file: FileDescriptor
    /// The descriptor, for `poll`.
    var fileDescriptor: Int32 { file.rawValue }
    private let evdev: OpaquePointer
    private(set) var isGrabbed = false

    /// How the device appears in logs and ``ExitRequest``s: `name (path)`.
    var label: String { identity.label }

    /// Opens the device (`O_RDONLY | O_NONBLOCK | O_CLOEXEC`) and reads its description
    /// (`libevdev_new_from_fd`).
    init(path: String) throws(InputError) {
        let file = try Self.openNode(path)
        let status: FileDescriptorStatus
        do throws(SystemCallFailure) {
            status = try file.status()
        } catch {
            throw InputError(error)
        }
        var handle: OpaquePointer?
        let fd = file.rawValue
        try libevdevResult("libevdev_new_from_fd", path: path) { libevdev_new_from_fd(fd, &handle) }
        guard let handle else { throw InputError(operation: "libevdev_new_from_fd", path: path, code: ENOMEM) }
        self.path = path
        self.file = file
        evdev = handle
        deviceNumber = status.deviceNumber
        identity = Self.identity(of: handle, path: path)
    }

    /// `open(O_RDONLY | O_NONBLOCK | O_CLOEXEC)` of the event node.
    private static func openNode(_ path: String) throws(InputError) -> FileDescriptor {
        do throws(SystemCallFailure) {
            return try FileDescriptor(opening: path, options: .nonBlocking)
        } catch {
            throw InputError(error)
        }
    }

    /// Reads name, `phys`, `uniq`, ids and key bits from libevdev's description of the device.
    private static func identity(of evdev: OpaquePointer, path: String) -> InputDeviceIdentity {
        let keys = (0...KeyName.maxCode).filter { libevdev_has_event_code(evdev, UInt32(EV_KEY), UInt32($0)) != 0 }
        return InputDeviceIdentity(
            path: path, name: libevdev_get_name(evdev).map { String(cString: $0) } ?? "unnamed",
            phys: libevdev_get_phys(evdev).map { String(cString: $0) } ?? "",
            uniq: libevdev_get_uniq(evdev).map { String(cString: $0) } ?? "",
            bus: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(evdev)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(evdev)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(evdev)), keys: Set(keys))
    }

    deinit {
        ungrab()
        libevdev_free(evdev)
        // Then `file` closes the descriptor.
    }

    /// Takes the device for this process alone (`libevdev_grab(LIBEVDEV_GRAB)`, i.e. `EVIOCGRAB`):
    /// the console, SysRq and every other reader stop seeing its events.
    func grab() throws(InputError) {
        try libevdevResult("libevdev_grab", path: path) { libevdev_grab(evdev, LIBEVDEV_GRAB) }
        isGrabbed = true
    }

    /// Releases the grab (`libevdev_grab(LIBEVDEV_UNGRAB)`); does nothing if not grabbed.
    func ungrab() {
        guard isGrabbed else { return }
        _ = libevdev_grab(evdev, LIBEVDEV_UNGRAB)
        isGrabbed = false
    }

    /// The result of ``readEvents(limit:_:)``.
    enum ReadOutcome: Equatable {
        /// Every pending event was read (`-EAGAIN`).
        case drained
        /// `limit` events were read; more may be pending (poll will say).
        case limitReached
        /// The device is gone or broken (`ENODEV` when unplugged): close it.
        case failed(InputError)
    }

    /// Reads pending events the libevdev way: `libevdev_next_event` with `LIBEVDEV_READ_FLAG_NORMAL`;
    /// after a `SYN_DROPPED` (status `LIBEVDEV_READ_STATUS_SYNC`) it drains the resynced state with
    /// `LIBEVDEV_READ_FLAG_SYNC` until `-EAGAIN`, then reads normally again. `-EAGAIN` in normal mode
    /// means no more data. Every event read, including resynced ones, goes to `handle`.
    /// - Returns: How reading ended, and how many `SYN_DROPPED` resyncs happened.
    func readEvents(limit: Int = 512, _ handle: (input_event) -> Void) -> (ReadOutcome, resyncs: Int) {
        var event = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        var resyncs = 0
        for _ in 0..<limit {
            let status = libevdev_next_event(evdev, flags, &event)
            switch status {
            case Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue):
                handle(event)
            case Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue):
                if flags == LIBEVDEV_READ_FLAG_NORMAL.rawValue {
                    resyncs += 1
                    flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
                }
                handle(event)
            case -EAGAIN:
                guard flags == LIBEVDEV_READ_FLAG_SYNC.rawValue else { return (.drained, resyncs) }
                flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
            case -EINTR:
                continue
            default:
                return (.failed(InputError(operation: "libevdev_next_event", path: path, code: -status)), resyncs)
            }
        }
        return (.limitReached, resyncs)
    }
}
