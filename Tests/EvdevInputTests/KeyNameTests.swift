import CEvdev
import Foundation
import Testing

@testable import EvdevInput

@Suite struct KeyNameTests {
    @Test(arguments: [
        ("KEY_POWER", 116), ("power", 116), ("Power", 116), (" key_power ", 116), ("116", 116), ("0x74", 116),
        ("KEY_HOMEPAGE", 172), ("homepage", 172), ("KEY_ESC", 1), ("esc", 1), ("KEY_F2", 60),
        ("KEY_SYSRQ", 99), ("BTN_LEFT", 272), ("BTN_TOUCH", 330), ("touch", 330), ("KEY_PROG1", 148),
        ("KEY_HANGUEL", 122), ("BTN_A", 304), ("767", 767),
    ])
    func parsesNamesAndCodes(text: String, code: Int) {
        #expect(KeyName.code(for: text) == KeyCode(UInt16(code)))
    }

    @Test(arguments: ["", "  ", "KEY_NOPE", "KEY_MAX", "KEY_CNT", "768", "70000", "-1", "0x", "power!"])
    func rejectsUnknown(text: String) {
        #expect(KeyName.code(for: text) == nil)
    }

    @Test func namesCodesCanonically() {
        #expect(KeyName.name(for: 116) == "KEY_POWER")
        #expect(KeyName.name(for: 122) == "KEY_HANGEUL")
        #expect(KeyName.name(for: 272) == "BTN_LEFT")
        #expect(KeyName.name(for: 256) == "BTN_0")
        #expect(KeyName.name(for: 304) == "BTN_SOUTH")
        #expect(KeyName.name(for: 767) == "767")
    }

    /// Every code libevdev can name gets the same name here.
    @Test func namesAgreeWithLibevdev() {
        var compared = 0
        for code in 0..<KeyName.maxCode {  // libevdev also names 0x2ff KEY_MAX, a limit, not a key
            guard let name = libevdev_event_code_get_name(UInt32(EV_KEY), UInt32(code)) else { continue }
            #expect(KeyName.name(for: KeyCode(code)) == String(cString: name))
            #expect(KeyName.code(for: String(cString: name)) == KeyCode(code))
            compared += 1
        }
        #expect(compared > 500)
    }

    static let headerPath = "/usr/include/linux/input-event-codes.h"

    /// Every `KEY_*`/`BTN_*` name of the kernel header installed here parses to its value, also the
    /// aliases libevdev does not know; and every name this module adds is in the header.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: headerPath), "needs linux-libc-dev's header"))
    func everyHeaderNameParses() throws {
        let header = try String(contentsOfFile: Self.headerPath, encoding: .utf8)
        var values: [String: Int] = [:]
        for line in header.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 3, fields[0] == "#define",
                fields[1].hasPrefix("KEY_") || fields[1].hasPrefix("BTN_"),
                !["KEY_MAX", "KEY_CNT", "KEY_MIN_INTERESTING"].contains(String(fields[1]))
            else { continue }
            let value = fields[2].hasPrefix("0x") ? Int(fields[2].dropFirst(2), radix: 16) : Int(fields[2])
            guard let code = value ?? values[String(fields[2])] else {
                Issue.record("cannot parse \(line)")
                continue
            }
            values[String(fields[1])] = code
            #expect(KeyName.code(for: String(fields[1])) == KeyCode(UInt16(code)), "\(fields[1])")
        }
        #expect(values.count > 600)
        for (name, code) in KeyName.aliases {
            #expect(values[name] == Int(code), "\(name) is not \(code) in the header")
        }
        for (code, name) in KeyName.newerNames {
            #expect(values[name] == Int(code), "\(name) is not \(code) in the header")
            #expect(KeyName.name(for: KeyCode(code)) == name)
        }
    }
}
