/// Why the album ended.
public enum AlbumEnd: Equatable, Sendable, CustomStringConvertible {
    /// The run was limited to this many photos (`--count`) and showed them.
    case countReached(Int)
    /// The hardware exit button was held.
    case exitButton(ExitRequest)
    /// A signal asked the process to stop.
    case signal(Int32)
    /// The settings changed: the command starts again with them (the slideshow's reload).
    case restartRequested
    /// A display was connected to a frame that ran without one: the command starts again on it.
    case displayConnected

    /// Whether the view gives the screen back at once. A run that showed its count keeps its
    /// last photo on screen until the process ends; the exit button and signals end it now.
    public var givesTheScreenBack: Bool {
        if case .countReached = self { return false }
        return true
    }

    /// Whether the command starts again in the same process after this end (an `exec` of
    /// itself), rather than the process ending.
    public var startsAgain: Bool {
        switch self {
        case .restartRequested, .displayConnected: true
        case .countReached, .exitButton, .signal: false
        }
    }

    public var description: String {
        switch self {
        case .countReached(let count): "showed \(count) photos, done"
        case .exitButton(let request): "exit button: \(request) ended the slideshow"
        case .signal(let number): "signal \(number) ended the slideshow"
        case .restartRequested: "the settings changed: the slideshow starts again with them"
        case .displayConnected: "a display was connected: the slideshow starts again on it"
        }
    }
}
