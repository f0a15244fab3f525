import ArgumentParser

/// `babyalbum-benchmark`: the benchmarks' own program, with `benchmark-decode` its one subcommand.
struct BenchmarkProgram: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "babyalbum-benchmark", abstract: "Benchmarks of BabyAlbum's decoding (for scripts/bench).",
        subcommands: [BenchmarkDecode.self])
}
