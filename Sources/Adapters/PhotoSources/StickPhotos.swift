/// What parents expect when a USB stick arrives (`--stick-photos`).
public enum StickPhotos: String, Sendable, CaseIterable {
    /// The stick's photos join the round at once, with the folder's.
    case join
    /// While a stick is in, only the sticks' photos are shown; the folder's come back when
    /// it is pulled.
    case replace
}
