import LinuxInterfaces

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `babyalbum doctor`'s look at the frame's Syncthing (`deploy/install.sh --sync`, issue 17): the
/// device ID a parent needs to pair the frame, read through Syncthing's REST API on 127.0.0.1
/// with the API key from its `config.xml`. Nothing when Syncthing is not installed.
public enum DoctorSyncProbe {
    /// Where `install.sh --sync` puts Syncthing's keys and configuration.
    public static let defaultHome = "/var/lib/babyalbum-sync"

    /// One line for the doctor's report, or `nil` when there is no `HOME/config.xml`.
    public static func line(home: String) -> String? {
        let path = home + "/config.xml"
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let config = try? String(contentsOfFile: path, encoding: .utf8) else {
            return "Sync: \(path) is not readable; run as root to see this frame's device ID (sudo babyalbum doctor)"
        }
        guard let gui = section(of: config, from: "<gui ", to: "</gui>"),
            let address = element("address", in: gui), let key = element("apikey", in: gui),
            let (host, port) = hostAndPort(address)
        else { return "Sync: no GUI address or API key in \(path)" }
        guard let body = httpGet(host: host, port: port, path: "/rest/system/status", apiKey: key),
            let id = try? JSONDecoder().decode(SyncthingStatus.self, from: Data(body.utf8)).myID
        else {
            return "Sync: Syncthing does not answer on \(address): sudo systemctl start babyalbum-sync "
                + "(a card starts it only while babyalbum.txt has a family-library line)"
        }
        return "Sync: this frame's Syncthing device ID is \(id) (pair it: sudo deploy/pair.sh FAMILY-DEVICE-ID)"
    }

    private static func section(of text: String, from start: String, to end: String) -> Substring? {
        guard let lower = text.firstRange(of: start),
            let upper = text[lower.upperBound...].firstRange(of: end)
        else { return nil }
        return text[lower.lowerBound..<upper.upperBound]
    }

    private static func element(_ name: String, in text: Substring) -> String? {
        guard let open = text.firstRange(of: "<\(name)>"),
            let close = text[open.upperBound...].firstRange(of: "</\(name)>")
        else { return nil }
        return String(text[open.upperBound..<close.lowerBound])
    }

    /// `127.0.0.1:8384` as an IPv4 address and a port (the GUI is only ever on 127.0.0.1 here).
    private static func hostAndPort(_ address: String) -> (String, UInt16)? {
        let parts = address.split(separator: ":")
        guard parts.count == 2, let port = UInt16(parts[1]) else { return nil }
        return (String(parts[0]), port)
    }

    /// The body of an HTTP/1.0 GET, or `nil` on any failure or a status other than 200.
    private static func httpGet(host: String, port: UInt16, path: String, apiKey: String) -> String? {
        guard let connection = try? FileDescriptor.connectTCP(host: host, port: port, timeout: .seconds(3)) else {
            return nil
        }
        let request = Array("GET \(path) HTTP/1.0\r\nHost: \(host)\r\nX-API-Key: \(apiKey)\r\n\r\n".utf8)
        guard (try? connection.send(request)) == request.count else { return nil }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while response.count < 1 << 20 {
            guard let count = try? connection.read(into: &buffer), count > 0 else { break }
            response += buffer[0..<count]
        }
        let text = String(decoding: response, as: UTF8.self)
        guard text.hasPrefix("HTTP/1.") && text.split(separator: " ").dropFirst().first == "200",
            let split = text.firstRange(of: "\r\n\r\n")
        else { return nil }
        return String(text[split.upperBound...])
    }
}

/// The part of Syncthing's `/rest/system/status` the doctor shows.
private struct SyncthingStatus: Decodable {
    let myID: String
}
