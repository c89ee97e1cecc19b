#if canImport(Glibc)
import Glibc
#endif

/// Where the project's shared, real recordings live: `../shared/recordings` beside the
/// repository. They are read in place, never copied into the repository.
enum SharedRecordings {
    static let directory: String = {
        // #filePath is <root>/Tests/SeatKitReplayTests/SharedRecordings.swift.
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        // ../shared beside the repository (CI); a git worktree one level further down
        // (/work/wt/NAME) finds it one more level up.
        let root = parts.joined(separator: "/")
        for candidate in [root + "/../shared/recordings", root + "/../../shared/recordings"] where access(candidate, F_OK) == 0 {
            return candidate
        }
        return root + "/../shared/recordings"
    }()

    static func path(_ name: String) -> String { directory + "/" + name }

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
