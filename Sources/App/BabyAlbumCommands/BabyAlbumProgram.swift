import ArgumentParser
import LinuxInterfaces

/// The program's entry point, for the `babyalbum` executable's `main.swift`: the commands live in
/// this library so that tests can depend on them (a test target cannot depend on an executable).
public enum BabyAlbumProgram {
    /// Runs `babyalbum` with the process's arguments (see ``BabyAlbumCommand/main()``).
    public static func main() async {
        await BabyAlbumCommand.main()
    }
}

extension BabyAlbumCommand {
    /// Reads the settings file in front of the slideshow's command line, then runs as usual.
    /// A broken command line is a usage error; a broken file line is logged and left out.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let (prefix, commandLine) = SettingsWiring.slideshowArguments(arguments) else {
            return await main(arguments)
        }
        do {
            let (path, file, resolution) = try SettingsWiring.resolve(commandLine: commandLine)
            SettingsWiring.logProblems(
                SettingsWiring.report(path: path, file: file, resolution: resolution, commandLine: commandLine))
            await main(prefix + resolution.arguments)
        } catch {
            exitOnOneLine(error)
        }
    }
}
