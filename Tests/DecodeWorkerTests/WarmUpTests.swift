import CDecodeWorker
import CSandbox
import Testing

/// What the worker does before its sandbox closes: every decoder's first-use set-up, and the names
/// of the calls its filter refuses.
@Suite struct WarmUpTests {
    @Test func eachFormatsSixteenPixelPhotoDecodesBeforeTheSandboxCloses() {
        var result = badecode_warm_up_result()
        #expect(badecode_warm_up(&result) == 0)
        #expect(result.jpeg == 0)
        #expect(result.png == 0)
        #expect(result.webp == 0)
        #expect(result.heif == 0, "HEIC: libheif with its HEVC decoder (libde265) is installed here")
    }

    @Test func aRefusedCallIsNamedByItsNumberAndName() {
        var text = [CChar](repeating: 0, count: Int(BASANDBOX_ERROR_SIZE))
        #if arch(x86_64)
            let (openat, number) = ("system call 257 (openat)", 257)
        #else
            let (openat, number) = ("system call 56 (openat)", 56)
        #endif
        basandbox_describe_call(number, &text)
        #expect(cText(text) == openat)
        basandbox_describe_call(100_000, &text)
        #expect(cText(text) == "system call 100000")
    }
}

/// The NUL-terminated text in `characters`.
private func cText(_ characters: [CChar]) -> String {
    String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
