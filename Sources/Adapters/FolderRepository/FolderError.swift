import LinuxInterfaces

/// A failed system call of the folder repository: which call (`opendir`, `inotify_add_watch`,
/// `rename`…), on which path, and the `errno`. The shared ``SystemCallFailure``, with the
/// questions the repository asks of it.
public typealias FolderError = SystemCallFailure
/// (Its questions, `isMissing`, `isPermissionDenied`, `withoutPath`, are LinuxInterfaces'.)
