/// The version of BabyAlbum, as its Debian package carries it (`deploy/debian/VERSION`; a test
/// checks that the two agree).
public enum BabyAlbumVersion {
    /// The version, `babyalbum --version`.
    public static let current = "0.3.0"
}
