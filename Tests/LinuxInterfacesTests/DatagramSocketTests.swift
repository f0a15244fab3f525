import LinuxInterfaces
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("DatagramSocket: AF_UNIX datagrams, as systemd's and wpa_supplicant's sockets speak them")
struct DatagramSocketTests {
    private func temporaryPath(_ name: String) -> String {
        "/tmp/babyalbum-datagram-\(ProcessImage.id)-\(name)-\(UInt32.random(in: 0...UInt32.max))"
    }

    @Test("A request and its answer between a bound server and a connected client; the files go with the sockets")
    func requestAndAnswer() throws {
        let serverPath = temporaryPath("server")
        let clientPath = temporaryPath("client")
        do {
            let server = try DatagramSocket(unixBoundTo: serverPath)
            let client = try DatagramSocket(unixBoundTo: clientPath, connectedTo: .path(serverPath))
            #expect(try server.receive(timeout: .milliseconds(20)) == nil, "nothing sent yet")
            #expect(try server.receive(timeout: .zero) == nil, "nothing queued")
            try client.send(Array("PING".utf8))
            #expect(try server.receive(timeout: .seconds(10)) == Array("PING".utf8))
            try client.send(Array("AGAIN".utf8))
            #expect(try server.receive(timeout: nil) == Array("AGAIN".utf8), "nil waits in recv")
            try server.send(Array("PONG".utf8), to: .path(clientPath))
            #expect(try client.receive(capacity: 2, timeout: .seconds(10)) == Array("PO".utf8), "cut to capacity")
            #expect(pathExists(serverPath) && pathExists(clientPath))
        }
        #expect(!pathExists(serverPath) && !pathExists(clientPath), "the bound files are removed")
    }

    @Test("A stale socket file is replaced; an abstract name is reached without a file")
    func staleFileAndAbstractName() throws {
        let path = temporaryPath("stale")
        let stale = try DatagramSocket(unixBoundTo: path)
        _ = stale
        let server = try DatagramSocket(unixBoundTo: path)
        try DatagramSocket().send([1, 2, 3], to: .path(path))
        #expect(try server.receive(timeout: .seconds(10)) == [1, 2, 3])
        // Abstract: a name no file carries; nobody listens there, so sending fails with ECONNREFUSED.
        #expect(throws: SystemCallFailure.self) {
            try DatagramSocket().send([1], to: .abstract("babyalbum-nobody-\(ProcessImage.id)"))
        }
    }

    @Test("A path too long for sun_path is refused with ENAMETOOLONG, never cut")
    func pathTooLong() {
        let long = "/tmp/" + String(repeating: "x", count: UnixSocketAddress.capacity)
        #expect(!UnixSocketAddress.path(long).fits)
        #expect(throws: SystemCallFailure(operation: "socket address", path: long, code: ENAMETOOLONG)) {
            try DatagramSocket().send([1], to: .path(long))
        }
    }
}
