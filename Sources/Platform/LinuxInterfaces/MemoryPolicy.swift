import CLinuxInterfaces

/// How glibc's `malloc` hands memory back, set once at start (`mallopt`).
///
/// By default glibc raises its mmap threshold each time a large block is freed (up to 32 MB),
/// so after the first photo every frame (8 MB at 1080p) comes from the heap or a thread's
/// arena, and a freed frame stays resident there. A fixed threshold keeps every block of
/// 128 KiB or more in a mapping of its own, given back to the kernel when it is freed; two
/// arenas keep the decode and display threads from each holding freed memory of their own.
public enum MemoryPolicy {
    /// Blocks at least this large are mapped on their own and unmapped when freed.
    public static let mmapThreshold: Int32 = 128 << 10

    /// Applies the policy; call before the first large allocation.
    public static func apply() {
        _ = CLinuxInterfaces_set_malloc_policy(mmapThreshold, 2)
    }
}
