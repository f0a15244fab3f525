import AlbumDomain
import LinuxInterfaces
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// When the display is quiet, as a function of the wall clock.
public protocol QuietTimetable: Sendable {
    /// Whether `date` is quiet.
    func isQuiet(at date: Date) -> Bool
    /// The next moment after `date` when that changes, if any.
    func nextEdge(after date: Date) -> Date?
    /// Whether it waits for the wall clock to be set, which may change it at any moment.
    var awaitsClock: Bool { get }
}

extension QuietTimetable {
    /// A timetable that trusts the wall clock as it is awaits nothing.
    public var awaitsClock: Bool { false }
}
