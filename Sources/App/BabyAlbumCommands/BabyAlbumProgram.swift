import ArgumentParser
import CDecodeWorker
import DecodeSandbox
import LinuxInterfaces

/// The program's entry point, for the `babyalbum` executable's `main.swift`: the commands live in
/// this library so that tests can depend on them (a test target cannot depend on an executable).
public enum BabyAlbumProgram {
    /// Runs `babyalbum` with the process's arguments (see ``BabyAlbumCommand/main()``).
    public static func main() async {
        await BabyAlbumCommand.main()
    }

    /// Becomes the decode worker and exits, when the arguments ask for one: called first, on the
    /// main thread, before the concurrency runtime has a thread of its own, so that the worker is
    /// one thread when it confines itself and no runtime thread makes a call its filter refuses
    /// (libdispatch's threads call `setpriority`).
    public static func runDecodeWorkerIfAsked() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // The decode worker (started by the slideshow, descriptor 3 its socket): no parsing, no
        // settings, straight into its sandbox.
        if arguments == [DecodeWorkerCommand.subcommand] { ProcessImage.exit(badecode_worker_main(3)) }
        // `decode-worker --trace FILE W H`: one photo decoded in the same sandbox, for
        // `scripts/measure-allow-list` (strace) on any machine the package is installed on.
        if arguments.count == 5, arguments[0] == DecodeWorkerCommand.subcommand, arguments[1] == "--trace",
            let width = UInt32(arguments[3]), let height = UInt32(arguments[4])
        {
            ProcessImage.exit(badecode_trace(arguments[2], width, height))
        }
    }
}

extension BabyAlbumCommand {
    /// Reads the settings file in front of the slideshow's command line, then runs as usual.
    /// A broken command line is a usage error; a broken file line is logged and left out. (The
    /// decode worker was asked for first, once, by ``BabyAlbumProgram/runDecodeWorkerIfAsked()``.)
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
