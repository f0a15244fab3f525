import DRMDisplay

extension DoctorReport {
    /// The report as plain text for a person: one section each for the display, input devices,
    /// photos and service, then the verdict.
    public var text: String {
        var lines: [String] = ["BabyAlbum doctor", ""]
        // One section at a time: Swift 6.2 cannot type-check the whole sum in reasonable time.
        for section in [display.textLines, input.textLines, photos.textLines] { lines += section + [""] }
        lines += service.textLines
        if let clock { lines += [""] + clock.textLines }
        if let updates { lines += [""] + updates.textLines }
        lines.append("")
        if ok {
            lines.append(
                "Result: OK, nothing stops the frame" + (warnings.isEmpty ? "." : " (\(warnings.count) warning(s))."))
        } else {
            lines.append("Result: \(problems.count) problem(s) would stop the frame:")
        }
        lines += problems.map { "  PROBLEM: \($0)" }
        lines += warnings.map { "  warning: \($0)" }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension DoctorDisplaySection {
    var textLines: [String] {
        var lines = ["Display" + (required ? "" : " (not needed for --output png)")]
        if cards.isEmpty { lines.append("  no /dev/dri/card* device") }
        for card in cards {
            var line = "  \(card.path)"
            if let driver = card.driver { line += " (\(driver))" }
            if let error = card.error {
                line += ": \(error)"
            } else {
                line += card.hasKMS ? ": \(card.connectors.count) output(s)" : ": no display outputs (render-only)"
            }
            lines.append(line)
            for connector in card.connectors {
                var text = "    \(connector.name): " + (connector.isConnected ? "connected" : "not connected")
                if !connector.modes.isEmpty {
                    let shown = connector.modes.prefix(6).map { mode in
                        "\(mode)" + (mode.isPreferred ? " (preferred)" : "")
                    }
                    text += ", modes " + shown.joined(separator: ", ")
                    if connector.modes.count > 6 { text += " and \(connector.modes.count - 6) more" }
                }
                if let orientation = connector.panelOrientation { text += ", panel orientation \(orientation)" }
                if connector.isConnected && !connector.hasCRTC { text += ", no free CRTC" }
                if connector.isChosen { text += "  <- BabyAlbum uses this" }
                lines.append(text)
            }
        }
        if let chosen { lines.append("  OK: BabyAlbum would draw on \(chosen)") }
        if let rotation { lines.append("  Photos are turned \(rotation)") }
        if let problem { lines.append("  PROBLEM: \(problem)") }
        return lines
    }
}

extension DoctorInputSection {
    var textLines: [String] {
        let hold = exitHoldSeconds == 0 ? "on press" : "held \(exitHoldSeconds) s"
        var lines = [
            "Input (exit key \(exitKeys.joined(separator: " or ")), \(hold)"
                + (exitDevice.map { ", only from '\($0)'" } ?? ", from a button that is not a keyboard") + ")"
        ]
        if devices.isEmpty { lines.append("  no /dev/input/event* device") }
        for device in devices {
            var line = "  \(device.path) " + (device.name.map { "'\($0)'" } ?? "?")
            if device.grabbable {
                line += ": can be grabbed"
            } else if device.opened && heldByRunningFrame {
                line += ": held by the running frame"
            } else if device.opened {
                line += ": CANNOT be grabbed"
            } else {
                line += ": cannot be opened"
            }
            if !device.exitKeys.isEmpty {
                line += ", EXIT BUTTON (\(device.exitKeys.joined(separator: ", ")))"
                if let reason = device.exitReason { line += ": \(reason)" }
            } else if let reason = device.exitReason {
                line += ", may not end the slideshow (\(reason))"
            }
            if let error = device.error, !(device.opened && heldByRunningFrame) { line += " - \(error)" }
            lines.append(line)
        }
        if problem == nil, !exitButtonDevices.isEmpty {
            lines.append("  OK: the exit button is on " + exitButtonDevices.joined(separator: ", "))
        }
        if let problem { lines.append("  PROBLEM: \(problem)") }
        return lines
    }
}

extension DoctorPhotoSection {
    /// A photo's colour profile as counted: its description, "(no description)" when it has none,
    /// and " (ignored)" when it is not used.
    static func profileName(_ description: String, ignored: String?) -> String {
        let name = description.isEmpty ? "(no description)" : description
        return ignored == nil ? name : name + " (ignored)"
    }

    /// "3 Display P3, 1 sRGB IEC61966-2.1": the most common first, then by name.
    var colourProfileCounts: String {
        let sorted = colourProfiles.sorted { a, b in a.value != b.value ? a.value > b.value : a.key < b.key }
        let parts: [String] = sorted.map { entry in "\(entry.value) \(entry.key)" }
        return parts.joined(separator: ", ")
    }

    var textLines: [String] {
        var lines = ["Photos in \(folder)" + (headersOnly ? " (headers only)" : "")]
        if problem == nil || valid > 0 {
            var counts = "  \(valid) valid photo(s)"
            if !notDecoded.isEmpty { counts += ", \(notDecoded.count) HEIC/HEIF/AVIF not shown" }
            counts += ", \(skipped.count) skipped"
            if folders > 1 { counts += ", in \(folders) folders" }
            lines.append(counts)
            if valid > 0, !headersOnly {
                lines.append("  \(dated) of them with a date for captions (EXIF or PNG tIME)")
            }
            if !colourProfiles.isEmpty { lines.append("  colour profiles: " + colourProfileCounts) }
        }
        lines += notDecoded.map { "  not shown \($0.path): \($0.reason)" }
        lines += mismatched.map { "  mismatch \($0.path): \($0.reason)" }
        lines += skipped.map { "  skipped \($0.path): \($0.reason)" }
        if let problem { lines.append("  PROBLEM: \(problem)") }
        return lines
    }
}

extension DoctorServiceSection {
    var textLines: [String] {
        var lines = ["Service \(unit)"]
        if let unitFile {
            var line = "  installed (\(unitFile))"
            if let enabled { line += ", \(enabled)" }
            if let active { line += ", \(active)" }
            lines.append(line)
        } else {
            lines.append("  not installed (deploy/install.sh installs it)")
        }
        if !systemdRunning { lines.append("  systemd is not running as init (PID 1): no service state") }
        if userExists {
            lines.append(
                "  user babyalbum: "
                    + (userMissingGroups.isEmpty
                        ? "in groups video, input, tty" : "NOT in " + userMissingGroups.joined(separator: ", ")))
        } else if unitFile != nil {
            lines.append("  user babyalbum: missing")
        }
        if let problem { lines.append("  PROBLEM: \(problem)") }
        return lines
    }
}
