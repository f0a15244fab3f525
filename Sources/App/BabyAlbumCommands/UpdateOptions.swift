import ArgumentParser

/// The card's update settings: the slideshow never uses them; `babyalbum update-policy` tells
/// them to the card's `update-check` (issue 64).
struct UpdateOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "yes: an update bundle older than the running system is installed too (going back to an older "
                + "BabyAlbum); no: it is refused."))
    var olderUpdates = YesNo.no
}
