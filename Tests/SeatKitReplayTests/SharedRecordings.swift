import Testing
@testable import SeatKitReplay
#if canImport(Glibc)
import Glibc
#endif

/// Third-party `libinput record` files from real machines, which the repository does not
/// carry (they are read in place, never copied in): the folder named by `SEATKIT_RECORDINGS`,
/// else `shared/recordings` beside the checkout (CI has it; a user's clone does not).
///
/// Tests that are about those very files (their frame counts, libinput's answer to those
/// devices) run as the cases of ``thirdPartyRecording(_:)``, which does not run without
/// them; everything else uses recordings the tests write themselves (``SyntheticRecordings``)
/// and adds the third-party ones where they are here (``parsedWhereAvailable()``).
enum SharedRecordings {
    /// The folder, or nil where there is none. `SEATKIT_RECORDINGS`, when set, is taken as it
    /// is, even if it does not exist: whoever set it wants those tests run, and they then fail
    /// on the missing files rather than being left out.
    static let directory: String? = {
        if let named = getenv("SEATKIT_RECORDINGS").map({ String(cString: $0) }), !named.isEmpty { return named }
        // #filePath is <root>/Tests/SeatKitReplayTests/SharedRecordings.swift.
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        // ../shared beside the repository (CI); a git worktree one level further down
        // (/work/wt/NAME) finds it one more level up.
        let root = parts.joined(separator: "/")
        return [root + "/../shared/recordings", root + "/../../shared/recordings"].first { access($0, F_OK) == 0 }
    }()

    /// Said once, where the tests that need the folder are left out.
    static let absence = "the third-party recordings are not here: the tests that replay them do not run (set SEATKIT_RECORDINGS to a folder of them, or put shared/recordings beside the checkout)"

    /// The path of one recording. Only the checks of ``thirdPartyRecording(_:)``
    /// call it; without the folder it names a path that does not exist, so a call from
    /// elsewhere fails with a RecordingError naming it, not a crash.
    static func path(_ name: String) -> String { (directory ?? "/nonexistent/seatkit-third-party-recordings") + "/" + name }

    /// Each third-party recording, by file name, parsed; none where the folder is not here.
    static func parsedWhereAvailable() throws -> [(file: String, recording: Recording)] {
        guard directory != nil else { return [] }
        return try expected.map { ($0.file, try RecordingParser.parse(contentsOf: path($0.file))) }
    }

    /// The bytes of the named recordings; none where the folder is not here.
    static func bytesWhereAvailable(_ names: [String]) throws -> [[UInt8]] {
        guard directory != nil else { return [] }
        return try names.map { try #require(RecordingParser.readBytes(path($0)), "\(path($0))") }
    }

    /// Every shared recording with the device names, frame counts and event counts that
    /// PyYAML reads from it (checked once by hand with `yaml.CSafeLoader`).
    static let expected: [(file: String, devices: [(name: String, frames: Int, events: Int)])] = [
        ("keyboard-at-ibus-test.yml", [("AT Translated Set 2 keyboard", 24, 110)]),
        ("mouse-dell-ms116-move.yml", [("PixArt Dell MS116 USB Optical Mouse", 314, 827)]),
        ("multi-mouse-keyboard-cs2.yml", [("PixArt Dell MS116 USB Optical Mouse", 588, 1539), ("Dell Dell Wired Multimedia Keyboard", 21, 63)]),
        ("multi-mouse-keyboard-st2.yml", [("PixArt Dell MS116 USB Optical Mouse", 1, 3), ("Dell Dell Wired Multimedia Keyboard", 1030, 2755)]),
        ("touchpad-3fg-swipe-paperwm.yml", [("VEN_0488:00 0488:102C Touchpad", 178, 1309)]),
        ("touchpad-ite-2fg-scroll-li1.12.yml", [("ITE Tech. Inc. ITE Device(8595) Touchpad", 13, 112)]),
    ]
}

extension Trait where Self == ConditionTrait {
    /// Runs a test only where the third-party recordings are here (see ``SharedRecordings``);
    /// elsewhere Swift Testing reports it skipped with ``SharedRecordings/absence``.
    static var thirdPartyRecordings: Self {
        .enabled(if: SharedRecordings.directory != nil, Comment(rawValue: SharedRecordings.absence))
    }
}

/// One check of the third-party recordings themselves: a name after the behaviour it pins,
/// and the check. The checks live beside the tests of their subject (``ThirdPartyParserChecks``,
/// ``LibinputOnRealDevices``); ``thirdPartyRecording(_:)`` runs each as one case.
struct ThirdPartyCheck: Sendable, CustomTestStringConvertible {
    let name: String
    let check: @Sendable () throws -> Void
    init(_ name: String, _ check: @escaping @Sendable () throws -> Void) {
        self.name = name
        self.check = check
    }
    var testDescription: String { name }

    static var all: [ThirdPartyCheck] { ThirdPartyParserChecks.all + LibinputOnRealDevices.all }
}

/// Every test that is about the third-party recordings, as the cases of one test, so that a
/// clone without them hears about it in one line ("Test thirdPartyRecording(_:) skipped: …"),
/// not one line for each. Where they are here, each case runs and reports under its own name.
@Test(.thirdPartyRecordings, arguments: ThirdPartyCheck.all)
func thirdPartyRecording(_ check: ThirdPartyCheck) throws {
    try check.check()
}
