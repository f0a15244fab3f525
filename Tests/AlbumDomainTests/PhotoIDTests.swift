import AlbumDomain
import Testing

@Suite("Photo ids are bytes")
struct PhotoIDTests {
    @Test("NFC and NFD spellings of one name are two photos (String would call them equal)")
    func normalisationKeepsTwoIDs() {
        let composed = PhotoID("/p/caf\u{E9}.png")
        let decomposed = PhotoID("/p/cafe\u{301}.png")
        #expect("caf\u{E9}" == "cafe\u{301}", "control: Swift strings compare by canonical equivalence")
        #expect(composed != decomposed)
        #expect(Set([Photo(id: composed), Photo(id: decomposed)]).count == 2)
    }

    @Test("bytes that are not UTF-8 are kept, compared and ordered as bytes")
    func invalidUTF8IsKept() {
        let latin1 = PhotoID(bytes: Array("/p/caf".utf8) + [0xE9] + Array(".png".utf8))
        let other = PhotoID(bytes: Array("/p/caf".utf8) + [0xEA] + Array(".png".utf8))
        #expect(latin1.bytes.count == 11)
        #expect(latin1 != other)
        #expect(latin1 < other)
        #expect(PhotoID("/p/b") < PhotoID("/p/c"))
    }

    @Test("a log line shows control characters, invalid bytes and backslashes escaped; plain names as they are")
    func descriptionEscapes() {
        #expect(PhotoID("/p/caf\u{E9} 1.png").description == "/p/caf\u{E9} 1.png", "positive control")
        let forged = Photo(id: PhotoID("/p/a.png\nwarning: forged line\r\t\u{1B}[31m\u{7F}\u{85}\u{2028}\\x"))
        #expect("\(forged)" == "/p/a.png\\nwarning: forged line\\r\\t\\x1B[31m\\x7F\\u{85}\\u{2028}\\\\x")
        // The bidirectional controls, which reorder what follows them on the line.
        let reversed = Photo(id: PhotoID("/p/gnp.\u{202E}\u{2066}\u{200F}x.txt"))
        #expect("\(reversed)" == "/p/gnp.\\u{202E}\\u{2066}\\u{200F}x.txt")
        #expect(!"\(forged)".contains("\n"))
        let bad = PhotoID(bytes: [0x61, 0xE9, 0x62, 0xC3, 0xA9, 0xFF, 0xC0, 0xAF])
        #expect(bad.description == "a\\xE9b\u{E9}\\xFF\\xC0\\xAF", "invalid and overlong bytes shown one by one")
    }
}
