/// Who may read a file: its mode bits and owner.
struct FileAccess: Hashable, Sendable {
    var mode: UInt32 = 0
    var owner: UInt32 = 0
    var group: UInt32 = 0
}
