import LinuxInterfaces

/// A failed system call of the folder repository: which call (`opendir`, `inotify_add_watch`,
/// `rename`…), on which path, and the `errno`. The shared ``SystemCallFailure``, with the
/// questions the repository asks of it.
public typealias FolderError = SystemCallFailure
/// (Its questions, `isMissing`, `isPermissionDenied`, `withoutPath`, are LinuxInterfaces'.)

/// " ('/root' cannot be entered by user babyalbum)", when permission is what keeps this process
/// from `path`; empty otherwise.
func permissionObstacleNote(_ path: [UInt8]) -> String {
    UserAccounts.permissionObstacle(to: String(decoding: path, as: UTF8.self)).map { " (\($0))" } ?? ""
}
