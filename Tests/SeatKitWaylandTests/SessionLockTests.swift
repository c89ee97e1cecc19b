import Foundation
import Testing

/// ext-session-lock-v1 with the real swaylock (Debian's 1.7) in the kiosk. swaylock checks
/// the password through PAM; pam_wrapper (Debian's libpam-wrapper, preloaded into swaylock
/// only) reads a `swaylock` service of the test's own whose pam_matrix module checks a
/// password file the test writes: the same as root in CI and as any user, no account made,
/// nothing of the system's PAM configuration read.
@Suite(.serialized) struct SessionLockTests {
    static let password = [31, 18, 46, 19, 18, 20]  // "secret"
    static let enter = 28

    /// The environment that makes swaylock's PAM accept `secret` for the user running the test.
    static func pamEnvironment(in directory: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: String] {
        let library = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"]
            .first { access("\($0)/libpam_wrapper.so", R_OK) == 0 }
        let found = try #require(library, "libpam_wrapper.so is missing (scripts/setup.sh installs libpam-wrapper)",
                                 sourceLocation: sourceLocation)
        let module = "\(found)/pam_wrapper/pam_matrix.so"
        let services = directory + "/pam"
        try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
        let passdb = services + "/passdb"
        let user = try #require(getpwuid(getuid()).map { String(cString: $0.pointee.pw_name) }, "no user name for uid \(getuid())")
        try "\(user):secret:swaylock\n".write(toFile: passdb, atomically: true, encoding: .utf8)
        try "auth required \(module) passdb=\(passdb)\naccount required \(module) passdb=\(passdb)\n"
            .write(toFile: services + "/swaylock", atomically: true, encoding: .utf8)
        return ["LD_PRELOAD": "\(found)/libpam_wrapper.so", "PAM_WRAPPER": "1", "PAM_WRAPPER_SERVICE_DIR": services]
    }

    /// Types the right password and Enter until the session unlocks. swaylock 1.7 drops keys
    /// while it waits for PAM's answer to the previous attempt, and nothing tells when that
    /// answer arrived (its child logs the failure first): a password typed then is lost, so
    /// it is typed again, each wait bounded. Returns how many tries it took (1 almost always).
    @discardableResult
    static func unlock(_ session: KioskSession, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        for attempt in 1...5 {
            session.send(Script.type(password + [enter]))
            if session.log.wait(timeout: .seconds(4), for: { $0.contains("session unlocked") }) { return attempt }
        }
        try session.log.require("session unlocked", sourceLocation: sourceLocation)
        return 5
    }

    /// What wev printed from `mark` on, read up to a `z` typed after the unlock (its output is
    /// read only while waiting for something: the `z` marks the end). While locked wev may
    /// get focus events, never a button, touch or key: its only keys are the `z`'s two.
    static func expectNoInputWhileLocked(_ wev: ClientProcess, since mark: String.Index, _ session: KioskSession,
                                         sourceLocation: SourceLocation = #_sourceLocation) throws {
        session.send(Script.type([44]))  // z
        try wev.output.require({ WevLog($0[mark...]).events("wl_keyboard", "key").filter { $0.contains("sym: z") }.count == 2 },
                               "wev got no z after the unlock", sourceLocation: sourceLocation)
        let log = WevLog(wev.output.text[mark...])
        let leaked = log.events("wl_pointer", "button") + log.events("wl_touch", "down")
            + log.events("wl_keyboard", "key").filter { !$0.contains("sym: z") }
        #expect(leaked.isEmpty, "wev got input while the session was locked: \(leaked)", sourceLocation: sourceLocation)
    }

    /// wev's window, mapped and focused, in a kiosk with devices.
    static func kioskWithWev() throws -> (KioskSession, ClientProcess, KioskSession.Window) {
        let session = try KioskSession()
        try session.addDevices()
        let wev = try session.launch("wev")
        let window = try session.waitForWindow("wev")
        try wev.output.require("wl_keyboard] enter:")
        return (session, wev, window)
    }

    /// Input a client other than the lock screen must not get: a click on its window, a key,
    /// a tap.
    static func inputAt(_ window: KioskSession.Window) -> [String] {
        [Script.move(window.x + 40, window.y + 40)] + Script.click() + Script.type([30]) + Script.tap(window.x + 50, window.y + 50)
    }

    @Test func swaylockLocksRefusesAWrongPasswordAndUnlocksWithTheRightOneTyped() throws {
        let (session, wev, window) = try Self.kioskWithWev()
        let pam = try Self.pamEnvironment(in: session.runtimeDirectory)
        let swaylock = try session.launch("swaylock", ["-d"], environment: pam)
        try session.log.require("session locked")
        try session.log.require("lock surface shown on HEADLESS-1")
        try wev.output.require("wl_keyboard] leave:")
        let locked = wev.output.mark

        // A second lock screen while locked is told `finished` and gives up.
        let second = try session.launch("swaylock", environment: pam)
        try second.output.require("Failed to lock session")

        // wev's window is under the lock: nothing reaches it. A wrong password is refused.
        session.send(Self.inputAt(window) + Script.type([45, Self.enter]))  // "x", Enter
        try swaylock.output.require("pam_authenticate failed")
        #expect(!session.log.text.contains("session unlocked"))

        // The right one unlocks: swaylock exits, and wev gets its input again.
        try Self.unlock(session)
        try Self.expectNoInputWhileLocked(wev, since: locked, session)
        let unlocked = wev.output.mark
        session.send(Self.inputAt(window))
        try wev.output.require({ WevLog($0[unlocked...]).events("wl_touch", "up").count == 1 }, "wev got no input after the unlock")
        let after = WevLog(wev.output.text[unlocked...])
        #expect(after.events("wl_pointer", "button").count == 2)
        #expect(after.events("wl_keyboard", "key").count == 2)
    }

    @Test func aLockScreenKilledWhileLockedLeavesTheSessionLockedUntilAnotherUnlocksIt() throws {
        let (session, wev, window) = try Self.kioskWithWev()
        let pam = try Self.pamEnvironment(in: session.runtimeDirectory)
        let first = try session.launch("swaylock", environment: pam)
        try session.log.require("lock surface shown on HEADLESS-1")
        try wev.output.require("wl_keyboard] leave:")
        let locked = wev.output.mark
        first.kill()
        try session.log.require("session lock abandoned: still locked")

        // Still locked, with no lock surface: input reaches no one. A new lock screen takes
        // over (the protocol's rule) and the session stays locked until it unlocks.
        session.send(Self.inputAt(window))
        let second = try session.launch("swaylock", ["-d"], environment: pam)
        try session.log.require({ $0.components(separatedBy: "lock surface shown on HEADLESS-1").count == 3 },
                                "the second lock screen never showed")
        session.send(Self.inputAt(window) + Script.type([45, Self.enter]))
        try second.output.require("pam_authenticate failed")
        #expect(!session.log.text.contains("session unlocked"))

        try Self.unlock(session)
        try Self.expectNoInputWhileLocked(wev, since: locked, session)
    }

    /// A GTK4 menu open (an xdg_popup grab of pointer and touch, the keyboard with it) when
    /// swaylock locks: the lock's grabs replace the popup's, which is dismissed, and the keys
    /// typed reach swaylock, not the menu.
    @Test func aLockTakesTheGrabOfAnOpenMenuAndItsKeys() throws {
        let session = try KioskSession()
        try session.addDevices()
        let (app, widgets) = try GTKApp.launch(in: session)
        _ = try session.waitForWindow("seatkit-gtk")
        let menu = try #require(widgets["menu"])
        session.send([Script.move(menu.centerX, menu.centerY)] + Script.click())
        try app.output.require("popover-shown")
        let pam = try Self.pamEnvironment(in: session.runtimeDirectory)
        let swaylock = try session.launch("swaylock", ["-d"], environment: pam)
        try session.log.require("lock surface shown on HEADLESS-1")
        try app.output.require({ $0.contains("xdg_popup@") && $0.contains(".popup_done()") }, "the menu's grab outlived the lock")
        let locked = app.output.mark
        session.send(Script.type([45, Self.enter]) + [Script.move(menu.centerX, menu.centerY)] + Script.click())
        try swaylock.output.require("pam_authenticate failed")
        try Self.unlock(session)
        // After the unlock, a z into the entry marks the end of what GTK read.
        let entry = try #require(widgets["entry"])
        session.send([Script.move(entry.centerX, entry.centerY)] + Script.click() + Script.type([44]))
        try app.output.require("text:z")
        let lines = app.output.text[locked...].split(separator: "\n")
        let unlockedAt = try #require(lines.firstIndex { $0.contains("wl_keyboard@") && $0.contains(".enter(") }, "GTK never got focus back")
        let leaked = lines[..<unlockedAt].filter {
            ($0.contains("wl_keyboard@") && $0.contains(".key(")) || ($0.contains("wl_pointer@") && $0.contains(".button("))
        }
        #expect(leaked.isEmpty, "the GTK app got input while locked: \(leaked)")
    }
}
