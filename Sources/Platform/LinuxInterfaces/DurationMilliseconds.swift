extension Duration {
    /// This duration as a `poll` or socket timeout: whole milliseconds, rounded up (500 ms stays
    /// 500, 1 ns becomes 1, so a short wait never becomes "do not wait"), 0 for a duration of zero
    /// or less, at most `Int32.max`.
    public var roundedUpMilliseconds: Int32 {
        guard self > .zero else { return 0 }
        let (seconds, attoseconds) = components
        let partial = (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        return overflow ? Int32.max : Int32(clamping: whole.addingReportingOverflow(partial).partialValue)
    }
}
