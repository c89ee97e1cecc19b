import Foundation
import Testing

/// Sticky keys in the kiosk (`--sticky-keys`), seen by a real client: wev's own xkbcommon
/// state follows the latched Shift it is sent in `wl_keyboard.modifiers`.
extension EndToEndTests {
    @Test func wevIsSentAStickyShiftAsLatchedAndTypesOneCapitalAfterIt() throws {
        let session = try KioskSession(inputOptions: ["--script", "-", "--sticky-keys"])
        try session.addDevices()
        let wev = try session.launch("wev")
        _ = try session.waitForWindow("wev")
        try session.log.require("focus wev[\(wev.pid)]")
        // Shift tapped alone, then a, a: "A" then "a".
        session.send(Script.type([42, 30, 30]))
        try wev.output.require({ $0.components(separatedBy: "utf8: 'a'").count == 2 }, "wev did not get the second a")
        let log = WevLog(wev.output.text[...])
        let presses = log.events("wl_keyboard", "key").filter { $0.contains("state: 1 (pressed)") }
        #expect(presses.count == 3, "\(presses)")
        guard presses.count == 3 else { return }
        #expect(presses[1].contains("sym: A") && presses[1].contains("utf8: 'A'"), "\(presses[1])")
        #expect(presses[2].contains("sym: a") && presses[2].contains("utf8: 'a'"), "\(presses[2])")
        let modifiers = log.events("wl_keyboard", "modifiers")
        #expect(modifiers.contains { $0.contains("latched: 00000001") }, "\(modifiers)")
        #expect(modifiers.last?.contains("latched: 00000000") == true, "the latch ends after the key: \(modifiers)")
        try session.log.require("sticky keys latched [Shift]")
    }
}
