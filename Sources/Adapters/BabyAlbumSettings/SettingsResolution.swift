import ArgumentParser
import LinuxInterfaces

/// The settings file merged with the command line, each file line checked by the command's own
/// argument parser.
public struct SettingsResolution<Command: ParsableCommand> {
    /// The command, parsed once from the accepted file lines (as options) and the command line
    /// (which wins): the typed values every reader of the file takes.
    public var command: Command
    /// The file lines in effect.
    public var accepted: [SettingsEntry]
    /// The file lines left out, and why.
    public var problems: [SettingsProblem]
    /// The long option names given on the command line.
    public var commandLineKeys: Set<String>

    /// The file's values in effect, each a key and its value, in file order (line numbers
    /// aside): two resolutions of one command line with equal values have equal commands.
    public var fileValues: [[String]] { accepted.map { [$0.key, $0.value] } }
}
