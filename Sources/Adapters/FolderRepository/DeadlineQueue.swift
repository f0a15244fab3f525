/// A first-in first-out queue of deadlines that only grow (each is "now plus a fixed time"), so
/// the head is the earliest. Append and pop cost O(1) amortised.
struct DeadlineQueue<Key, Instant: Comparable> {
    private var items: [(key: Key, deadline: Instant)] = []
    private var head = 0

    /// The earliest deadline.
    var first: Instant? { head < items.count ? items[head].deadline : nil }

    mutating func append(_ key: Key, at deadline: Instant) { items.append((key, deadline)) }

    /// Removes and returns the head if its deadline is at or before `limit`.
    mutating func popDue(by limit: Instant) -> Key? {
        guard head < items.count, items[head].deadline <= limit else { return nil }
        let key = items[head].key
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 1024, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return key
    }
}
