import AlbumDomain
import CDRM
import CDisplayShims
import LinuxInterfaces

#if canImport(Glibc)
    import Glibc
#endif

/// A dumb scan-out buffer: created with `DRM_IOCTL_MODE_CREATE_DUMB`, registered as a
/// framebuffer with `drmModeAddFB2` (XRGB8888), mapped with `DRM_IOCTL_MODE_MAP_DUMB` + `mmap`.
/// ``release()`` undoes this in reverse order (munmap, `drmModeRmFB`, `DESTROY_DUMB`).
final class DumbBuffer {
    private let device: DRMDevice
    let size: FrameSize
    /// Bytes between rows, as the driver returned it (never assume `width * 4`).
    let pitch: Int
    /// The framebuffer id for `drmModeSetCrtc` / `drmModePageFlip` (the kernel's 0 once removed).
    private(set) var framebuffer = FramebufferID(0)
    private var handle: UInt32 = 0
    private var mapping: UnsafeMutableRawPointer?
    private var mappedBytes = 0

    init(device: DRMDevice, size: FrameSize) throws(SystemCallFailure) {
        self.device = device
        self.size = size
        var create = drm_mode_create_dumb()
        create.width = UInt32(size.width)
        create.height = UInt32(size.height)
        create.bpp = 32
        let fd = device.fd
        try device.call("DRM_IOCTL_MODE_CREATE_DUMB") {
            drmIoctl(fd, CDisplayShims_DRM_IOCTL_MODE_CREATE_DUMB, &create)
        }
        handle = create.handle
        pitch = Int(create.pitch)
        do throws(SystemCallFailure) {
            try addFramebuffer(create)
            try map(bytes: Int(create.size))
        } catch {
            release()
            throw error
        }
    }

    deinit { release() }

    private func addFramebuffer(_ create: drm_mode_create_dumb) throws(SystemCallFailure) {
        let handles: [UInt32] = [create.handle, 0, 0, 0]
        let pitches: [UInt32] = [create.pitch, 0, 0, 0]
        let offsets: [UInt32] = [0, 0, 0, 0]
        var id: UInt32 = 0
        let fd = device.fd
        try device.call("drmModeAddFB2") {
            drmModeAddFB2(
                fd, create.width, create.height, CDisplayShims_DRM_FORMAT_XRGB8888, handles, pitches, offsets, &id, 0)
        }
        framebuffer = FramebufferID(id)
    }

    private func map(bytes: Int) throws(SystemCallFailure) {
        var map = drm_mode_map_dumb()
        map.handle = handle
        let fd = device.fd
        try device.call("DRM_IOCTL_MODE_MAP_DUMB") { drmIoctl(fd, CDisplayShims_DRM_IOCTL_MODE_MAP_DUMB, &map) }
        let pointer = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(map.offset))
        if pointer == MAP_FAILED { throw SystemCallFailure(operation: "mmap", path: device.path, code: errno) }
        mapping = pointer
        mappedBytes = bytes
    }

    /// Lets `body` write the buffer's pixels: the mapping, the pitch and the size (write only:
    /// dumb buffers are often write-combined, reading them back is very slow).
    func fill(_ body: (_ pixels: UnsafeMutableRawPointer, _ pitch: Int, _ size: FrameSize) -> Void) {
        guard let mapping else { return }
        body(mapping, pitch, size)
    }

    /// Unmaps, removes the framebuffer and destroys the buffer. Safe to call more than once.
    func release() {
        if let mapping {
            munmap(mapping, mappedBytes)
            self.mapping = nil
        }
        if framebuffer.rawValue != 0 {
            drmModeRmFB(device.fd, framebuffer.rawValue)
            framebuffer = FramebufferID(0)
        }
        if handle != 0 {
            var destroy = drm_mode_destroy_dumb()
            destroy.handle = handle
            _ = drmIoctl(device.fd, CDisplayShims_DRM_IOCTL_MODE_DESTROY_DUMB, &destroy)
            handle = 0
        }
    }
}
