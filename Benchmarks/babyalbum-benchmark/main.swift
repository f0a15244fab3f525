// `babyalbum-benchmark benchmark-decode ...`: the decode benchmark of scripts/bench, built beside
// `babyalbum` and never shipped (it decodes in this process too, so it links every decoder).
BenchmarkProgram.main()
