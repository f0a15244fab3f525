import BabyAlbumCommands

// `babyalbum`: everything is in BabyAlbumCommands (the commands, the settings file), where the
// tests reach it. Photos are decoded by `babyalbum-decoder`, a separate program.
await BabyAlbumProgram.main()
