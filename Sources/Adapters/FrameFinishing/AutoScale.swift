import AlbumDomain
import CPhotoCodecCore
import PhotoCodec

/// The `auto` scale mode's decision: fill, unless filling would crop more than
/// ``Backdrop/cropLimit`` of the photo; then fit, over the backdrop. Made in one place, the codec
/// layer's `baphoto_auto_scale`, which the decode worker calls too.
package enum AutoScale {
    /// `.fill` or `.fit` for a photo whose header is `header` on a screen of `screen` (as a person
    /// sees it: upright, after the screen's mounting is undone).
    package static func mode(
        for header: PhotoHeader, screen: FrameSize, cropLimit: Double = Backdrop.cropLimit
    ) -> ScaleMode {
        let mode = baphoto_auto_scale(
            UInt32(clamping: header.width), UInt32(clamping: header.height), Int32(header.orientation),
            UInt32(clamping: screen.width), UInt32(clamping: screen.height), cropLimit)
        return mode == BAPHOTO_SCALE_FIT ? .fit : .fill
    }
}
