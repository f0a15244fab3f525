import ArgumentParser

/// The update keys' option group as a command, for the list of its keys.
struct UpdateSettings: ParsableCommand {
    @OptionGroup var updates: UpdateOptions
}
