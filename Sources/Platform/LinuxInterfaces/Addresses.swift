#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Whether `text` is an IPv6 address as the C library reads one (`inet_pton(AF_INET6)`).
public func isIPv6Address(_ text: String) -> Bool {
    var address = in6_addr()
    return inet_pton(AF_INET6, text, &address) == 1
}
