import BabyAlbumCommands

// `babyalbum`: everything is in BabyAlbumCommands (the commands, the settings file, the decode
// worker's dispatch), where the tests reach it.
await BabyAlbumProgram.main()
