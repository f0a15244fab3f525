import BabyAlbumCommands

// `babyalbum`: everything is in BabyAlbumCommands (the commands, the settings file, the decode
// worker's dispatch), where the tests reach it. The decode worker first, synchronously, on the
// main thread: before the first `await` the concurrency runtime has started no thread.
BabyAlbumProgram.runDecodeWorkerIfAsked()
await BabyAlbumProgram.main()
