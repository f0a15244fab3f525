/// A file's signature as the readiness model keeps it: a 64-bit digest (SipHash, keyed afresh in
/// every process) instead of the 40-byte ``FileSignature``, so a slot of the table of 10,000
/// files is 24 bytes, not 64. Two versions of a file are taken for the same with a chance of
/// 2^-64.
struct SignatureDigest: Equatable, Sendable {
    private let value: Int

    init(_ signature: FileSignature) {
        var hasher = Hasher()
        hasher.combine(signature)
        value = hasher.finalize()
    }
}
