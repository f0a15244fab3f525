import AlbumDomain
import CDRM

/// Which card, connector, CRTC and mode to draw on: at start (each card is opened once, and
/// the chosen one stays open) and again after a hotplug event.
enum OutputChoice {
    /// Opens `path`, or the first card with a connected display when `nil`, becomes DRM master
    /// and picks the output and its mode (``ModeChoice``).
    static func open(path: String?, mode: ModeRequest) throws(DRMError) -> (DRMDevice, Output) {
        var reports: [DRMCardReport] = []
        for cardPath in path.map({ [$0] }) ?? DRMProbe.cardPaths() {
            let device: DRMDevice
            do {
                device = try DRMDevice(path: cardPath)
            } catch {
                if path != nil { throw error }  // a missing node or a permission problem, said plainly
                reports.append(DRMProbe.report(openFailure: error, path: cardPath))
                continue
            }
            let report = DRMProbe.mark([DRMProbe.card(device)])[0]
            reports.append(report)
            if let connector = report.connectors.first(where: \.isChosen) {
                return (device, try output(on: device, connector: connector, mode: mode))
            }
            device.close()
        }
        throw DRMProbe.failure(reports)
    }

    /// Becomes master of `device` and sets up `connector` in the mode chosen for `mode`.
    private static func output(
        on device: DRMDevice, connector: DRMConnectorReport, mode: ModeRequest
    ) throws(DRMError) -> Output {
        try device.becomeMaster()
        guard let resources = device.resources(), let state = device.connector(ConnectorID(connector.id)),
            state.isConnected,
            let crtc = device.crtc(for: state, in: resources)
        else {
            throw DRMError.noConnectedDisplay("\(connector.name) on \(device.path) went away while starting")
        }
        let modes = state.modes
        guard let choice = ModeChoice.choose(from: modes, requested: mode) else {
            let offered = Set(modes.map { "\($0.width)x\($0.height)" }).sorted().joined(separator: ", ")
            throw DRMError("mode \(mode) is not offered by \(state.name); it offers \(offered)")
        }
        return Output(
            connector: state.id, name: state.name, crtc: crtc, mode: state.modeInfos[choice.index],
            dpmsProperty: device.connectorProperty(state.id, named: "DPMS"), modeNote: choice.note)
    }

    /// After a hotplug event: the output to draw on, `current`'s connector first, then any other
    /// connected one (the requested mode if offered, else the automatic choice). `nil` when no
    /// display is connected.
    static func reconnect(
        _ device: DRMDevice, resources: DRMDevice.Resources, current: Output, requested: ModeRequest
    ) -> Output? {
        let candidates = [current.connector] + resources.connectors.filter { $0 != current.connector }
        for id in candidates {
            guard let state = device.connector(id), state.isConnected, !state.modeInfos.isEmpty,
                let crtc = device.crtc(for: state, in: resources),
                let choice = ModeChoice.choose(from: state.modes, requested: requested)
                    ?? ModeChoice.choose(from: state.modes, requested: .automatic)
            else { continue }
            return Output(
                connector: state.id, name: state.name, crtc: crtc, mode: state.modeInfos[choice.index],
                dpmsProperty: device.connectorProperty(state.id, named: "DPMS"), modeNote: choice.note)
        }
        return nil
    }
}
