/// The kernel's command line (`/proc/cmdline`): the words the boot loader started it with.
public struct KernelCommandLine: Sendable, Equatable {
    /// Where the running kernel's command line is read.
    public static let path = "/proc/cmdline"

    /// The command line's words, in order.
    public let words: [Substring]

    /// The command line of `text` (words split at blanks; the kernel ends it with a newline).
    public init(_ text: String) {
        words = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
    }

    /// The running kernel's command line (empty when `/proc/cmdline` cannot be read).
    public static func running(from path: String = KernelCommandLine.path) -> KernelCommandLine {
        KernelCommandLine(textFile(path, limit: 64 << 10) ?? "")
    }

    /// The value of the last `key=value` word for `key` (as the kernel and systemd take the last
    /// one), `nil` when no word sets it or its value is empty.
    public func value(of key: String) -> String? {
        let prefix = key + "="
        guard let word = words.last(where: { $0.hasPrefix(prefix) }) else { return nil }
        let value = word.dropFirst(prefix.count)
        return value.isEmpty ? nil : String(value)
    }
}
