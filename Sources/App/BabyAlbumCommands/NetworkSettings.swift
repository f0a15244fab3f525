import ArgumentParser
import BabyAlbumSettings

/// The network keys' option group as a command, for the list of its keys.
struct NetworkSettings: ParsableCommand {
    @OptionGroup var network: NetworkOptions
}
