import Synchronization

/// A value that changes over time, observable as an async sequence with the semantics of
/// Kotlin's `StateFlow`: a new subscriber gets the current value first, equal values are never
/// repeated, and a slow subscriber sees the newest value, never a backlog.
///
/// Only the owner (the runner, publishing what the ``PublishPhoto`` reducer decided) changes
/// the value; everyone else observes.
public final class StateFlow<Value: Equatable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = Value

    private struct Storage {
        var value: Value
        var finished = false
        var subscribers: [Int: AsyncStream<Value>.Continuation] = [:]
        var nextSubscriberID = 0
    }

    private let storage: Mutex<Storage>

    /// Creates a flow holding `initialValue`.
    public init(_ initialValue: Value) {
        storage = Mutex(Storage(value: initialValue))
    }

    /// The current value.
    public var value: Value {
        storage.withLock { $0.value }
    }

    /// Sets the value and tells every subscriber, unless it equals the current one.
    public func emit(_ newValue: Value) {
        let continuations: [AsyncStream<Value>.Continuation] = storage.withLock { storage in
            guard !storage.finished, storage.value != newValue else { return [] }
            storage.value = newValue
            return Array(storage.subscribers.values)
        }
        for continuation in continuations {
            continuation.yield(newValue)
        }
    }

    /// Ends every subscription after it has seen the current value.
    public func finish() {
        let continuations: [AsyncStream<Value>.Continuation] = storage.withLock { storage in
            storage.finished = true
            defer { storage.subscribers.removeAll() }
            return Array(storage.subscribers.values)
        }
        for continuation in continuations {
            continuation.finish()
        }
    }

    /// A fresh subscription: the current value, then each change.
    public func makeAsyncIterator() -> AsyncStream<Value>.Iterator {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        storage.withLock { storage in
            continuation.yield(storage.value)
            if storage.finished {
                continuation.finish()
                return
            }
            let id = storage.nextSubscriberID
            storage.nextSubscriberID += 1
            storage.subscribers[id] = continuation
            continuation.onTermination = { [weak self] _ in
                _ = self?.storage.withLock { $0.subscribers.removeValue(forKey: id) }
            }
        }
        return stream.makeAsyncIterator()
    }
}
