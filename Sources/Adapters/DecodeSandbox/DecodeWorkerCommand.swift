import LinuxInterfaces

/// A program a decode worker runs: a small C program installed beside the frame
/// (`/usr/libexec/babyalbum/`; ``DecodeWorkerPrograms`` has one a format family), so that the frame
/// itself links no decoder library.
public struct DecodeWorkerCommand: Sendable, Equatable {
    /// The worker program's file name (with every codec; a family's program adds `-jpeg`, ...).
    public static let programName = "babyalbum-decoder"
    /// The executable's path.
    public var executable: String
    /// Its arguments (without the program name).
    public var arguments: [String]

    /// A command.
    public init(executable: String, arguments: [String] = []) {
        self.executable = executable
        self.arguments = arguments
    }

    /// The worker program `name` installed with this program: in this program's own folder (a
    /// build folder), else in the package's `../libexec/babyalbum/`, which is also named when
    /// neither exists (starting it then fails with that path).
    public static func installed(
        besides program: String? = SymbolicLink.target(of: "/proc/self/exe"), named name: String = programName
    ) -> DecodeWorkerCommand {
        let folder = program.map { path in path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "." } ?? "."
        let candidates = [folder + "/" + name, Self.resolving(folder, "../libexec/babyalbum/" + name)]
        let found = candidates.first(where: PathAccess.mayExecute) ?? candidates[1]
        return DecodeWorkerCommand(executable: found)
    }

    /// `relative` (with `..` parts) read from `folder`, as an absolute path without `..`.
    static func resolving(_ folder: String, _ relative: String) -> String {
        var parts = folder.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        for part in relative.split(separator: "/") {
            if part == ".." { _ = parts.popLast() } else if part != "." { parts.append(String(part)) }
        }
        return "/" + parts.joined(separator: "/")
    }
}
