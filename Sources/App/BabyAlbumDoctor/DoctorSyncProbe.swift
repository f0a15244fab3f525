import LinuxInterfaces

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
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
            return "Sync: Syncthing does not answer on \(address): sudo systemctl start babyalbum-sync"
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
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        let owner = FileDescriptor(adopting: descriptor, path: "\(host):\(port)")
        let socketDescriptor = owner.rawValue
        var timeout = timeval(tv_sec: 3, tv_usec: 0)
        setsockopt(socketDescriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socketDescriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return nil }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return nil }
        let request = Array("GET \(path) HTTP/1.0\r\nHost: \(host)\r\nX-API-Key: \(apiKey)\r\n\r\n".utf8)
        guard send(socketDescriptor, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return nil }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while response.count < 1 << 20 {
            let count = recv(socketDescriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
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
