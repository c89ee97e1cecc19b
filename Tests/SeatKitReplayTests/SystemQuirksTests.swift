#if canImport(Glibc)
import Glibc
#endif
import Testing
import SeatKit
import SeatKitLibinput
@testable import SeatKitReplay

/// A replay's new libinput context reads the system quirks without the sections for other
/// machines' DMI (``SystemQuirks``): fewer sections to parse and to match at every quirk
/// look-up, and nothing libinput decides changes.
@Suite struct SystemQuirksTests {
    static let frameworkDMI = SyntheticRecordings.frameworkDMI
    static let lenovoDMI = SyntheticRecordings.lenovoDMI

    /// Sections as libinput's parser sees them: a line that starts with `[` opens one.
    static func sections(_ text: [UInt8]) -> [String] {
        var result: [String] = []
        var lineStart = 0
        while lineStart < text.count {
            let lineEnd = text[lineStart...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? text.count
            let line = String(decoding: text[lineStart..<lineEnd], as: UTF8.self)
            if line.hasPrefix("[") { result.append("") }
            if !result.isEmpty { result[result.count - 1] += line }
            lineStart = lineEnd
        }
        return result
    }

    static let valid = """
    # a comment before the first section
    [Here]
    MatchName=*Touchpad
    MatchDMIModalias=dmi:*svnFramework:*
    AttrSizeHint=100x50

    [Elsewhere]
    MatchDMIModalias=dmi:*svnLENOVO:*
    ModelLenovoX230=1

    [Any machine]
    MatchUdevType=mouse
    ModelTrackball=1
    [Elsewhere, with a comment]
    MatchDMIModalias=dmi:*svnDell:*   # a comment libinput cuts off
    ModelTrackball=1 # here too

    """

    /// The pattern of a `MatchDMIModalias=` line as libinput reads it (up to a comment, less
    /// the blanks before it).
    static func dmiPattern(_ line: Substring) -> String? {
        guard line.hasPrefix("MatchDMIModalias=") else { return nil }
        var value = line.dropFirst(17).prefix { $0 != "#" }
        while value.last == " " || value.last == "\t" { value = value.dropLast() }
        return String(value)
    }

    @Test func onlySectionsWhoseDMIPatternDoesNotMatchAreLeftOut() {
        let text = Array(Self.valid.utf8)
        let out = SystemQuirks.filtered(text, dmi: Self.frameworkDMI)
        let kept = Self.sections(out)
        #expect(kept.map { $0.split(separator: "\n")[0] } == ["[Here]", "[Any machine]"])
        // Kept bytes are the original's, in order, the text before the first section too.
        #expect(String(decoding: out, as: UTF8.self).hasPrefix("# a comment before the first section\n[Here]\nMatchName=*Touchpad\n"))
        #expect(kept == Self.sections(text).filter { kept.contains($0) })
        // Under Lenovo's DMI the Framework section goes instead.
        #expect(Self.sections(SystemQuirks.filtered(text, dmi: Self.lenovoDMI)).map { $0.split(separator: "\n")[0] }
                == ["[Elsewhere]", "[Any machine]"])
    }

    /// A file libinput's parser would reject stays whole, so that libinput rejects it as it
    /// would the original (leaving a broken section out could make it accept the file).
    @Test func aFileLibinputWouldRejectIsServedUnchanged() {
        let broken = [
            "[Two DMI lines]\nMatchDMIModalias=dmi:*svnDell:*\nMatchDMIModalias=dmi:*svnHP:*\nModelTrackball=1\n",
            "[A quoted value]\nMatchDMIModalias=\"dmi:*svnDell:*\"\nModelTrackball=1\n",
            "[Not a modalias]\nMatchDMIModalias=acpi:*\nModelTrackball=1\n",
            "[Leading blank]\n MatchDMIModalias=dmi:*svnDell:*\nModelTrackball=1\n",
            "[Trailing blank]\nMatchDMIModalias=dmi:*svnDell:* \nModelTrackball=1\n",
            "[Property before match]\nModelTrackball=1\nMatchDMIModalias=dmi:*svnDell:*\n",
            "[No property]\nMatchDMIModalias=dmi:*svnDell:*\n",
            "[Match after property]\nMatchDMIModalias=dmi:*svnDell:*\nModelTrackball=1\nMatchBus=usb\n",
            "[Two equals]\nMatchDMIModalias=dmi:*svnDell:*=x\nModelTrackball=1\n",
            "[Empty value]\nMatchDMIModalias=dmi:*svnDell:*\nModelTrackball=\n",
            "[Unknown prefix]\nMatchDMIModalias=dmi:*svnDell:*\nFooBar=1\n",
            "[Lower case]\nMatchDMIModalias=dmi:*svnDell:*\nmodelTrackball=1\n",
            "[No closing bracket\nMatchDMIModalias=dmi:*svnDell:*\nModelTrackball=1\n",
        ]
        for section in broken {
            let text = Array((Self.valid + section).utf8)
            #expect(SystemQuirks.filtered(text, dmi: Self.frameworkDMI) == text, "\(section)")
        }
        let before = Array(("ModelTrackball=1\n" + Self.valid).utf8)
        #expect(SystemQuirks.filtered(before, dmi: Self.frameworkDMI) == before)
    }

    @Test func aFileItCannotReadAsLibinputDoesOrWouldEmptyIsServedUnchanged() {
        let allElsewhere = Array("[A]\nMatchDMIModalias=dmi:*svnLENOVO:*\nModelTrackball=1\n[B]\nMatchDMIModalias=dmi:*svnHP:*\nModelTrackball=1\n".utf8)
        #expect(SystemQuirks.filtered(allElsewhere, dmi: Self.frameworkDMI) == allElsewhere)
        let mixed = Array("[A]\nMatchDMIModalias=dmi:*svnLENOVO:*\nModelTrackball=1\n[B]\nMatchUdevType=mouse\nModelTrackball=1\n".utf8)
        #expect(SystemQuirks.filtered(mixed, dmi: Self.frameworkDMI).count < mixed.count)
        // A line longer than libinput's fgets buffer, or a NUL byte: not read the same way.
        let long = mixed + Array("[C]\nMatchName=\(String(repeating: "x", count: 600))\nModelTrackball=1\n".utf8)
        #expect(SystemQuirks.filtered(long, dmi: Self.frameworkDMI) == long)
        let nul = mixed + [0]
        #expect(SystemQuirks.filtered(nul, dmi: Self.frameworkDMI) == nul)
    }

    /// On the installed files: for each DMI, every section left out has one DMI pattern that
    /// does not match it, every other section is kept verbatim and in order, and the
    /// machine's own sections stay.
    @Test func theInstalledFilesLoseOtherMachinesSectionsOnly() throws {
        let files = try #require(SystemQuirks.read())
        #expect(files.count > 30)
        for dmi in [Self.frameworkDMI, Self.lenovoDMI, "dmi:bvnSeaBIOS:svnQEMU:pnStandardPC:"] {
            var before = 0, after = 0
            for file in files {
                let all = Self.sections(file.bytes)
                let kept = Self.sections(SystemQuirks.filtered(file.bytes, dmi: dmi))
                before += all.count
                after += kept.count
                #expect(kept == all.filter { kept.contains($0) }, "\(file.name)")
                for section in all where !kept.contains(section) {
                    let patterns = section.split(separator: "\n").filter { $0.hasPrefix("MatchDMIModalias=") }
                    #expect(patterns.count == 1 && fnmatch(String(patterns[0].dropFirst(17)), dmi, 0) != 0, "\(file.name): \(section)")
                }
                for section in all where section.split(separator: "\n").contains(where: { $0.hasPrefix("MatchDMIModalias=") && fnmatch(String($0.dropFirst(17)), dmi, 0) == 0 }) {
                    #expect(kept.contains(section), "\(file.name): \(section)")
                }
                // Every installed file is one libinput accepts: where some of its sections are
                // for other machines and some are not, those go.
                let otherMachines = all.filter { section in
                    section.split(separator: "\n").contains { line in Self.dmiPattern(line).map { fnmatch($0, dmi, 0) != 0 } ?? false }
                }
                if !otherMachines.isEmpty && otherMachines.count < all.count {
                    #expect(kept.count == all.count - otherMachines.count, "\(file.name)")
                }
            }
            // About 100 of the 225 sections are for particular machines.
            #expect(after < before - 60, "\(dmi): \(before) → \(after)")
        }
        let framework = try #require(files.first { $0.name.contains("framework") })
        #expect(Self.sections(SystemQuirks.filtered(framework.bytes, dmi: Self.frameworkDMI)) == Self.sections(framework.bytes))
    }

    /// The shim serves the files it was handed to `fopen` of their paths, and nothing else,
    /// and stops when told.
    @Test func theShimServesTheHandedFilesUntilTold() throws {
        let handle = try #require(dlopen(try PreloadShim.libraryPath(worker: nil), RTLD_NOW | RTLD_LOCAL))
        defer { dlclose(handle) }
        let serve = unsafeBitCast(try #require(dlsym(handle, "seatkit_shim_serve_quirks")), to: SystemQuirks.ServeFunction.self)
        typealias Open = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> UnsafeMutablePointer<FILE>?
        let shimOpen = unsafeBitCast(try #require(dlsym(handle, "fopen")), to: Open.self)
        func contents(_ path: String) -> String? {
            guard let f = shimOpen(path, "r") else { return nil }
            defer { fclose(f) }
            var bytes: [UInt8] = []
            while true {
                let c = fgetc(f)
                if c == EOF { break }
                bytes.append(UInt8(c))
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        let real = try #require(SystemQuirks.read()).first!
        let text = "[Served]\nMatchUdevType=mouse\nModelTrackball=1\n"
        let name = strdup(real.name), body = strdup(text)
        defer { free(name); free(body) }
        var names: [UnsafePointer<CChar>?] = [UnsafePointer(name)]
        var texts: [UnsafePointer<CChar>?] = [UnsafePointer(body)]
        var lengths = [text.utf8.count]
        serve(SystemQuirks.directory, 1, &names, &texts, &lengths)
        #expect(contents(SystemQuirks.directory + "/" + real.name) == text)
        #expect(contents(SystemQuirks.directory + "/" + real.name + "x") == nil)
        #expect(contents(SystemQuirks.directory + "x/" + real.name) == nil)
        serve(nil, 0, nil, nil, nil)
        #expect(contents(SystemQuirks.directory + "/" + real.name) == String(decoding: real.bytes, as: UTF8.self))
    }

    /// Every shared recording, and a Framework touchpad under its own DMI (libinput's
    /// DMI-matched quirk turns its right button off) and another machine's: the JSON trace of
    /// a session that leaves other machines' sections out equals that of one that reads every
    /// section, byte for byte; and the first did start its contexts with filtered files.
    @Test func leavingOutOtherMachinesSectionsChangesNoReplay() throws {
        let framework = try SyntheticRecordings.frameworkTouchpad(dmi: Self.frameworkDMI)
        let other = try SyntheticRecordings.frameworkTouchpad(dmi: Self.lenovoDMI)
        var cases: [(String, Recording)] = [("Framework", framework), ("Lenovo", other)]
        // A touchpad and a keyboard on machines of their own: DMI-matched sections for other
        // machines (Dell's, Lenovo's) are left out under each.
        var touchpad = try SyntheticRecordings.touchpadThreeFingerSwipe()
        touchpad.dmi = SyntheticRecordings.lenovoDMI
        var keyboard = try SyntheticRecordings.keyboard()
        keyboard.dmi = "dmi:bvnDellInc.:bvr1.14.0:svnDellInc.:pnXPS139300:pvr:"
        cases += [("touchpad, Lenovo", touchpad), ("keyboard, Dell", keyboard)]
        for (file, recording) in try SharedRecordings.parsedWhereAvailable() {
            cases.append((file, recording))
        }
        let filtered = ReplaySession()
        let all = ReplaySession()
        all.readsAllSystemQuirks = true
        defer { filtered.close(); all.close() }
        for (name, recording) in cases {
            let a = try ReplaySessionTests.json(recording, session: filtered)
            let b = try ReplaySessionTests.json(recording, session: all)
            #expect(a == b, "\(name)")
        }
        // The Framework quirk applied through the filtered files, and not under Lenovo's DMI.
        func buttons(_ recording: Recording, _ session: ReplaySession) throws -> Int {
            try session.replay(recording).events.filter { if case .pointerButton = $0.kind { true } else { false } }.count
        }
        #expect(try buttons(framework, filtered) == 0 && buttons(other, filtered) == 2)
        let withDMI = cases.filter { $0.1.dmi?.hasPrefix("dmi:") == true }.count
        #expect(withDMI >= 4)
        #expect(filtered.contextsStartedWithFilteredQuirks > 0 && all.contextsStartedWithFilteredQuirks == 0)
    }
}
