import ArgumentParser
import BabyAlbumSettings
import LinuxInterfaces

/// How far the card's Syncthing looks for the family's devices.
enum FamilyLibraryNetwork: String, ExpressibleByArgument, CaseIterable {
    case internet, local
}
