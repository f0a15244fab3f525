/// How the screen is mounted, as `--rotate` says.
public enum RotationSetting: Sendable, Equatable {
    /// From the kernel's `panel orientation` of the connector (none for PNG output).
    case automatic
    /// As given.
    case fixed(ScreenRotation)
}
