import AlbumDomain
import Logging

/// Writes album events to the log, one line an event.
enum AlbumEventLog {
    static func log(_ event: AlbumEvent, to logger: Logger) {
        switch event {
        case .intervalElapsed: logger.trace("interval elapsed")
        case .photoShown(let photo): logger.info("showing \(photo)")
        case .photoRetryLater(let photo, let reason): logger.notice("will retry \(photo) later: \(reason)")
        case .photoSkipped(let photo, let reason): logger.warning("skipping \(photo): \(reason)")
        case .failuresSummarized(let retried, let skipped):
            logger.warning(
                "… and \(retried) more photos to retry later and \(skipped) more skipped; `babyalbum doctor` lists them"
            )
        case .photoListFailed(let reason): logger.error("\(reason)")
        case .albumEmpty: logger.warning("the photo folder has no photos; showing a black screen")
        case .noReadablePhotos(let skipped):
            logger.error("none of the \(skipped) photos could be read; showing a black screen")
        case .quietHoursBegan(let display): logger.notice("quiet hours began: \(display)")
        case .quietHoursEnded: logger.notice("quiet hours ended")
        case .noticeShown(let notice): logger.notice("on screen: \"\(notice.text)\"")
        case .noticeRemoved(let notice, let reason):
            logger.notice("off screen: \"\(notice.text)\" (\(reason))")
        case .ended(let end): logger.notice("\(end)")
        }
    }
}
