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
    /// Runs the slideshow with the settings file in front of its command line, parsed once
    /// into the typed ``Show`` that runs; any other subcommand as usual. A broken command line
    /// is a usage error; a broken file line is logged and left out.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let commandLine = SettingsWiring.slideshowArguments(arguments) else {
            return await main(arguments)
        }
        MemoryPolicy.apply()
        do {
            let (path, file, resolution) = try SettingsWiring.resolve(commandLine: commandLine)
            SettingsWiring.logProblems(
                SettingsWiring.report(path: path, file: file, resolution: resolution, commandLine: commandLine))
            var show = resolution.command
            show.resolvedFrom = SettingsAtStart(commandLine: commandLine, fileValues: resolution.fileValues)
            try await show.run()
        } catch {
            exitOnOneLine(error)
        }
    }
}
