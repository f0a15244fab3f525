import AlbumDomain
import Testing

@testable import DRMDisplay

#if canImport(Glibc)
    import Glibc
#endif

/// The hand-over between `render` and the display thread, with a real wake-up pipe.
@Suite struct DisplayMailboxTests {
    let black = FrameViewModel(content: .black(reason: "test"), displayPower: .on)
    let status = DisplayMailbox.Status(size: FrameSize(width: 4, height: 2), connectorName: "Virtual-1")

    func isWoken(_ mailbox: DisplayMailbox) -> Bool {
        var fds = pollfd(fd: mailbox.wakeup.fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&fds, 1, 0) == 1
    }

    @Test func aRequestWakesTheThreadAndIsTakenOnce() async throws {
        let mailbox = try DisplayMailbox(status: status)
        #expect(!isWoken(mailbox))  // control: nothing posted yet
        async let rendered: Void = withCheckedContinuation { done in
            mailbox.post(DisplayMailbox.Request(viewModel: black, done: done))
        }
        while !isWoken(mailbox) { await Task.yield() }
        let (requests, close) = mailbox.take()
        #expect(requests.map(\.viewModel) == [black])
        #expect(!close)
        #expect(!isWoken(mailbox))  // take drained the pipe: the thread sleeps again
        #expect(mailbox.take().requests.isEmpty)
        requests[0].done.resume()
        await rendered  // the caller returns once the thread resumed it
    }

    @Test func closingResumesWhatIsLeftAndEveryLaterRequestAtOnce() async throws {
        let mailbox = try DisplayMailbox(status: status)
        async let pending: Void = withCheckedContinuation { done in
            mailbox.post(DisplayMailbox.Request(viewModel: black, done: done))
        }
        while !isWoken(mailbox) { await Task.yield() }
        mailbox.requestClose()
        #expect(isWoken(mailbox))
        mailbox.finish()
        await pending  // resumed by finish, never drawn
        await withCheckedContinuation { done in mailbox.post(DisplayMailbox.Request(viewModel: black, done: done)) }
        #expect(mailbox.take().requests.isEmpty)
    }

    @Test func theStatusIsWhatTheThreadLastPublished() throws {
        let mailbox = try DisplayMailbox(status: status)
        #expect(mailbox.status.connectorName == "Virtual-1")
        mailbox.status = DisplayMailbox.Status(
            size: FrameSize(width: 8, height: 6), connectorName: "HDMI-A-1", panelOrientation: "Upside Down")
        #expect(mailbox.status.size == FrameSize(width: 8, height: 6))
        #expect(mailbox.status.panelOrientation == "Upside Down")
    }

    @Test func aNewSizeIsSentToTheDomainOnceAndTheStreamEndsWithTheDisplay() async throws {
        let mailbox = try DisplayMailbox(status: status)
        mailbox.status = DisplayMailbox.Status(size: status.size, connectorName: "Virtual-2")  // same size: nothing
        mailbox.status = DisplayMailbox.Status(size: FrameSize(width: 8, height: 6), connectorName: "Virtual-2")
        mailbox.finish()
        var sizes: [FrameSize] = []
        for await size in mailbox.sizeChanges { sizes.append(size) }
        #expect(sizes == [FrameSize(width: 8, height: 6)])
    }
}
