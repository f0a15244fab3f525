/// Which names in the photo folder are photos, and which are skipped.
public enum FolderScan {
    /// Whether a file or folder name is skipped: hidden names (dot-names, which include rsync's
    /// `.name.XXXXXX` and Syncthing's `.syncthing.name.tmp`) and other temporary files of copy and
    /// sync tools (`.part`, `.tmp`, `~`, Syncthing's Windows-style `~syncthing~` prefix).
    public static func isIgnored(name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix("~") || name.hasSuffix(".part") || name.hasSuffix(".tmp")
            || name.hasPrefix("~syncthing~")
    }

    /// Whether a file name looks like a PNG photo.
    public static func isPhoto(name: String) -> Bool {
        !isIgnored(name: name) && name.lowercased().hasSuffix(".png")
    }
}
