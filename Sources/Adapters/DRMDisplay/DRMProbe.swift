import LinuxInterfaces

#if canImport(Glibc)
    import Glibc
#endif

/// Looks at the DRM devices without changing anything on screen.
public enum DRMProbe {
    /// The `/dev/dri/card*` nodes, in number order (`card2` before `card10`).
    public static func cardPaths(directory: String = "/dev/dri") -> [String] {
        let names = ((try? directoryEntries(directory)) ?? []).filter {
            $0.hasPrefix("card") && Int($0.dropFirst(4)) != nil
        }
        return names.sorted { Int($0.dropFirst(4))! < Int($1.dropFirst(4))! }.map { "\(directory)/\($0)" }
    }

    /// Reports every card, marking the card and connector `--output drm` would use.
    public static func cards() -> [DRMCardReport] {
        mark(cardPaths().map { card($0) })
    }

    /// Reports one card (`isChosen` is set when it has a usable connector).
    public static func card(_ path: String) -> DRMCardReport {
        let device: DRMDevice
        do {
            device = try DRMDevice(path: path)
        } catch {
            return report(openFailure: error, path: path)
        }
        defer { device.close() }
        return mark([card(device)])[0]
    }

    /// A card that could not be opened.
    static func report(openFailure error: DRMError, path: String) -> DRMCardReport {
        DRMCardReport(path: path, hasKMS: false, error: error.description, openErrno: error.errnoCode)
    }

    /// Reports the open card `device` (not marked).
    static func card(_ device: DRMDevice) -> DRMCardReport {
        var report = DRMCardReport(path: device.path, driver: device.driverName, hasKMS: false)
        guard let resources = device.resources(), resources.isKMS else { return report }
        report.hasKMS = device.supportsDumbBuffers
        if !report.hasKMS { report.error = "no dumb buffer support" }
        for id in resources.connectors {
            guard let connector = device.connector(id) else { continue }
            let modes = connector.modes
            report.connectors.append(
                DRMConnectorReport(
                    id: id.rawValue, name: connector.name, isConnected: connector.isConnected, modes: modes,
                    chosenMode: ModeChoice.choose(from: modes, requested: .automatic)?.mode,
                    hasCRTC: device.crtc(for: connector, in: resources) != nil,
                    panelOrientation: device.connectorEnumValue(id, named: "panel orientation")))
        }
        return report
    }

    /// Marks the first usable connector of the first KMS card as chosen (pure).
    public static func mark(_ cards: [DRMCardReport]) -> [DRMCardReport] {
        var cards = cards
        for c in cards.indices {
            cards[c].isChosen = false
            for k in cards[c].connectors.indices { cards[c].connectors[k].isChosen = false }
        }
        for c in cards.indices where cards[c].hasKMS {
            if let k = cards[c].connectors.firstIndex(where: \.isUsable) {
                cards[c].isChosen = true
                cards[c].connectors[k].isChosen = true
                return cards
            }
        }
        return cards
    }

    /// Why none of `cards` can be used (pure): the message for the most useful problem.
    public static func failure(_ cards: [DRMCardReport]) -> DRMError {
        if let denied = deniedCard(cards) {
            return .permissionDenied(
                SystemCallFailure(operation: "open", path: denied.path, code: denied.openErrno ?? EACCES))
        }
        return switch absence(cards) {
        case .noDevice(let detail): .noDevice(detail)
        case .nothingConnected(let detail): .noConnectedDisplay(detail)
        }
    }

    /// Why there is no display to draw on, when that is the reason none of `cards` is chosen: no
    /// card, no card with display outputs, or nothing connected to them (pure). `nil` when one is
    /// chosen, or when the problem is another one (a card this user may not open).
    public static func missingDisplay(_ cards: [DRMCardReport]) -> String? {
        guard !cards.contains(where: \.isChosen), deniedCard(cards) == nil else { return nil }
        return switch absence(cards) {
        case .noDevice(let detail): "no DRM display device: \(detail)"
        case .nothingConnected(let detail): "no connected display: \(detail)"
        }
    }

    /// Why no card has a display, for cards that could all be opened or looked at.
    private enum Absence {
        case noDevice(String)
        case nothingConnected(String)
    }

    private static func absence(_ cards: [DRMCardReport]) -> Absence {
        if cards.isEmpty { return .noDevice("there is no /dev/dri/card*") }
        let kms = cards.filter(\.hasKMS)
        if kms.isEmpty {
            let list = cards.map { "\($0.path) (\($0.driver ?? $0.error ?? "?"))" }.joined(separator: ", ")
            return .noDevice("no card has display outputs: \(list)")
        }
        let outputs = kms.flatMap { card in card.connectors.map { "\(card.path) \($0.name)" } }
        return .nothingConnected(
            "nothing is connected to \(outputs.isEmpty ? "any output" : outputs.joined(separator: ", "))")
    }

    /// A card this user may not open, when no card with display outputs could be: the problem to
    /// tell first.
    private static func deniedCard(_ cards: [DRMCardReport]) -> DRMCardReport? {
        guard !cards.contains(where: \.hasKMS) else { return nil }
        return cards.first { $0.openErrno == EACCES || $0.openErrno == EPERM }
    }
}
