import ArgumentParser
import BabyAlbumSettings

/// The family library's option group as a command, for the list of its keys.
struct FamilyLibrarySettings: ParsableCommand {
    @OptionGroup var options: FamilyLibraryOptions
}
