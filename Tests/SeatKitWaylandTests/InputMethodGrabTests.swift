import Foundation
import SeatKit
import SeatKitWayland
import SeatKitXKB
import Testing

/// The input method's keyboard grab (issue 23, item 10): keys reach the input method with
/// the seat's keymap, repeat info and modifiers; what it does not take it types back through
/// its own virtual keyboard (as fcitx5 and ibus do on sway), which reaches the focused app;
/// and however the grab begins or ends, every press any client was sent has exactly one
/// release there. Both clients are real wire clients on an in-process display.
extension EmbeddingTests {
    /// An app with a focused window and a wl_keyboard, and an input method holding the
    /// keyboard grab, on a seat with a hardware keyboard (xkbcommon's "us").
    struct InputMethodScene {
        let d: InProcessDisplay
        let app: WireClient
        let appKeyboard: UInt32
        let window: UInt32
        let im: WireClient
        let imSeat: UInt32
        let method: UInt32

        init() throws {
            d = try InProcessDisplay(hardware: [.keyboard, .pointer], extensions: [.textInput, .inputMethod, .virtualKeyboard])
            app = try d.connect()
            let appSeat = try app.bind("wl_seat", version: 8)
            let w = try d.window(of: app, frame: SurfaceRect(x: 0, y: 0, width: 200, height: 200))
            window = w.id
            appKeyboard = app.getKeyboard(appSeat)
            #expect(app.sync())
            #expect(d.router.becomeFirstResponder(w.node))
            im = try d.connect()
            imSeat = try im.bind("wl_seat", version: 8)
            let manager = try im.bind("zwp_input_method_manager_v2", version: 1)
            method = im.newID()
            im.send(manager, 0, [imSeat, method])  // get_input_method
        }

        /// zwp_input_method_v2.grab_keyboard: the grab's id.
        func grabKeyboard() -> UInt32 {
            let grab = im.newID()
            im.send(method, 5, [grab])
            return grab
        }

        func appEvents() -> [String] { app.drain { $0.object == appKeyboard ? WireClient.keyboardEvent($0) : nil } }
        func grabEvents(_ grab: UInt32) -> [String] { im.drain { $0.object == grab ? WireClient.keyboardEvent($0, grab: true) : nil } }

        /// The input method's own virtual keyboard, in the seat's keymap (as fcitx5 uploads
        /// the one its grab got).
        func forwardingKeyboard() throws -> UInt32 {
            try im.virtualKeyboard(seat: imSeat, keymap: try Keymap(names: KeymapNames(layout: "us")).text)
        }
    }

    @Test func anInputMethodsKeyboardGrabGetsTheKeysWithTheSeatsKeymapAndForwardsWhatItDoesNotTakeToTheApp() throws {
        let scene = try InputMethodScene()
        defer { scene.d.close() }
        _ = scene.appEvents()
        let grab = scene.grabKeyboard()
        // The seat's keymap, repeat info and modifiers before any key.
        #expect(scene.grabEvents(grab) == ["keymap 1", "repeat", "modifiers 0 0 0 0"])

        scene.d.key(42, .pressed)  // Shift
        scene.d.key(30, .pressed)  // A
        scene.d.key(30, .released)
        scene.d.key(42, .released)
        #expect(scene.grabEvents(grab) == ["down 42", "modifiers 1 0 0 0", "down 30", "up 30", "up 42", "modifiers 0 0 0 0"])
        // The app saw none of it.
        #expect(scene.appEvents() == [])

        // The input method takes nothing of the next key: it types it back, press and release.
        let forward = try scene.forwardingKeyboard()
        scene.d.key(48, .pressed)  // B
        #expect(scene.grabEvents(grab) == ["down 48"])
        scene.im.virtualKey(forward, 48, pressed: true)
        #expect(scene.im.sync())
        scene.d.key(48, .released)
        #expect(scene.grabEvents(grab) == ["up 48"])
        scene.im.virtualKey(forward, 48, pressed: false)
        #expect(scene.im.sync())
        // Its virtual keyboard's keymap (a file of its own), then the key, once.
        #expect(scene.appEvents() == ["keymap 1", "down 48", "up 48"])

        // Released, the grab takes nothing more: the next key is the app's, in the seat's
        // keymap again.
        scene.im.send(grab, 0, [])  // release
        #expect(scene.im.sync())
        scene.d.key(46, .pressed)  // C
        scene.d.key(46, .released)
        #expect(scene.appEvents() == ["keymap 1", "down 46", "up 46"])
        #expect(scene.grabEvents(grab) == [])
    }

    @Test func aGrabBegunWhileTheAppHoldsAKeyEndsItThereAndTheInputMethodNeverHearsItsRelease() throws {
        let scene = try InputMethodScene()
        defer { scene.d.close() }
        _ = scene.appEvents()
        scene.d.key(30, .pressed)
        #expect(scene.appEvents() == ["down 30"])
        let grab = scene.grabKeyboard()
        var grabEvents = scene.grabEvents(grab)
        // The app stops repeating 30 at once (the grab keeps its focus: no leave).
        #expect(scene.appEvents() == ["up 30"])
        scene.d.key(30, .released)
        grabEvents += scene.grabEvents(grab)
        #expect(grabEvents == ["keymap 1", "repeat", "modifiers 0 0 0 0"])
        #expect(scene.appEvents() == [])
    }

    @Test func aGrabReleasedMidKeyEndsTheKeyItForwardedAndItsRealReleaseReachesNoOne() throws {
        let scene = try InputMethodScene()
        defer { scene.d.close() }
        _ = scene.appEvents()
        let grab = scene.grabKeyboard()
        let forward = try scene.forwardingKeyboard()
        _ = scene.grabEvents(grab)
        scene.d.key(31, .pressed)  // S: the input method forwards it
        #expect(scene.grabEvents(grab) == ["down 31"])
        scene.im.virtualKey(forward, 31, pressed: true)
        #expect(scene.im.sync())
        #expect(scene.appEvents() == ["keymap 1", "down 31"])

        // The input method lets go of the keyboard with S still down.
        scene.im.send(grab, 0, [])  // release
        #expect(scene.im.sync())
        // The key it forwarded ends at the app now ...
        #expect(scene.appEvents() == ["up 31"])
        // ... and neither the real release nor the input method's late one comes again.
        scene.d.key(31, .released)
        scene.im.virtualKey(forward, 31, pressed: false)
        #expect(scene.im.sync())
        #expect(scene.appEvents() == [])
        // The app's next key is whole.
        scene.d.key(32, .pressed)
        scene.d.key(32, .released)
        #expect(scene.appEvents() == ["keymap 1", "down 32", "up 32"])
    }

    @Test func anInputMethodThatGoesAwayWithItsGrabHoldingKeysLeavesNoKeyHeldAtTheApp() throws {
        let scene = try InputMethodScene()
        defer { scene.d.close() }
        _ = scene.appEvents()
        let grab = scene.grabKeyboard()
        let forward = try scene.forwardingKeyboard()
        _ = scene.grabEvents(grab)
        scene.d.key(31, .pressed)
        #expect(scene.grabEvents(grab) == ["down 31"])
        scene.im.virtualKey(forward, 31, pressed: true)
        #expect(scene.im.sync())
        #expect(scene.appEvents() == ["keymap 1", "down 31"])
        scene.im.send(scene.method, 6, [])  // zwp_input_method_v2.destroy (its grab with it)
        #expect(scene.im.sync())
        #expect(scene.appEvents() == ["up 31"])
        scene.d.key(31, .released)
        scene.d.key(32, .pressed)
        scene.d.key(32, .released)
        #expect(scene.appEvents() == ["keymap 1", "down 32", "up 32"])
    }

    @Test func aCompositorsOwnKeyboardGrabIsNotDisplacedByAnInputMethodsGrab() throws {
        let scene = try InputMethodScene()
        defer { scene.d.close() }
        _ = scene.appEvents()
        let lock = LockScreen()
        scene.d.router.startKeyboardGrab(lock, focus: .keep)
        let grab = scene.grabKeyboard()
        scene.d.key(30, .pressed)
        scene.d.key(30, .released)
        #expect(lock.keys == [30, 30])
        #expect(scene.d.router.keyboardGrab === lock)
        #expect(scene.grabEvents(grab) == ["keymap 1", "repeat", "modifiers 0 0 0 0"])
        #expect(scene.appEvents() == [])
        // Unlocked: the input method's grab takes keys from the next press on.
        scene.d.router.endKeyboardGrab()
        scene.d.key(31, .pressed)
        scene.d.key(31, .released)
        #expect(scene.grabEvents(grab) == ["down 31", "up 31"])
        #expect(scene.appEvents() == [])
    }

    @Test func anInputMethodsGrabDisplacedByALockScreenMidKeyEndsCleanlyAndResumesAfterTheLock() throws {
        let scene = try InputMethodScene()
        defer { scene.d.close() }
        _ = scene.appEvents()
        let grab = scene.grabKeyboard()
        let forward = try scene.forwardingKeyboard()
        _ = scene.grabEvents(grab)
        scene.d.key(31, .pressed)
        #expect(scene.grabEvents(grab) == ["down 31"])
        scene.im.virtualKey(forward, 31, pressed: true)
        #expect(scene.im.sync())
        #expect(scene.appEvents() == ["keymap 1", "down 31"])
        // The screen locks with S down: the key the input method forwarded ends at the app.
        let lock = LockScreen()
        scene.d.router.startKeyboardGrab(lock, focus: .keep)
        #expect(scene.appEvents() == ["up 31"])
        scene.d.key(31, .released)
        scene.d.key(30, .pressed)
        scene.d.key(30, .released)
        #expect(lock.keys == [31, 30, 30])
        scene.d.router.endKeyboardGrab()
        // Unlocked: keys are the input method's again, with its keyboard state sent anew.
        scene.d.key(32, .pressed)
        scene.d.key(32, .released)
        #expect(scene.grabEvents(grab) == ["down 32", "up 32"])
        #expect(scene.appEvents() == [])
    }
}

/// A keyboard grab of the compositor's that takes every key.
private final class LockScreen: KeyboardGrab {
    var keys: [UInt32] = []
    func key(_ event: KeyEvent, router: Router) { keys.append(event.keycode) }
}

extension EndToEndTests {
    /// End to end with GTK4: an input method (a wire client) holding the keyboard grab
    /// composes from a hardware key (it commits "á" for A, which GTK never sees as a key)
    /// and types back a key it does not take (B) through its own virtual keyboard, which
    /// GTK gets once.
    @Test func anInputMethodHoldingTheKeyboardGrabComposesFromHardwareKeysIntoAGTKEntryAndForwardsTheRest() throws {
        let session = try KioskSession(windowOptions: [])
        try session.addDevices()
        let (app, widgets) = try GTKApp.launch(in: session)
        let entry = try #require(widgets["entry"])
        session.send([Script.move(entry.centerX, entry.centerY)] + Script.click())
        try app.output.require({ $0.contains(" -> zwp_text_input_v3@") && $0.contains(".enable()") }, "GTK never enabled text input")

        let im = try WireClient(runtimeDirectory: session.runtimeDirectory, socket: session.socket)
        try im.roundTripRegistry()
        let seat = try im.bind("wl_seat", version: 8)
        let manager = try im.bind("zwp_input_method_manager_v2", version: 1)
        let method = im.newID()
        im.send(manager, 0, [seat, method])  // get_input_method
        var dones: UInt32 = 0
        /// Reads until `stop`, counting the input method's done events (commit quotes them).
        func read(_ what: String, until stop: @escaping (WireClient.Message) -> Bool) throws -> WireClient.Message {
            try #require(im.read(until: { message in
                if message.object == method && message.opcode == 5 { dones += 1 }
                return stop(message)
            }), "\(what) never came")
        }
        _ = try read("done") { $0.object == method && $0.opcode == 5 }
        let grab = im.newID()
        im.send(method, 5, [grab])  // grab_keyboard
        _ = try read("the grab's keymap") { $0.object == grab && $0.opcode == 0 }

        session.send(Script.type([30]))  // A: the input method's
        let press = try read("A's press") { $0.object == grab && $0.opcode == 1 }
        #expect(press.uint(at: 2) == 30 && press.uint(at: 3) == 1)
        let release = try read("A's release") { $0.object == grab && $0.opcode == 1 }
        #expect(release.uint(at: 2) == 30 && release.uint(at: 3) == 0)
        im.send(method, 0, ["á"])  // commit_string
        im.send(method, 3, [dones])  // commit
        try app.output.require("text:á")

        // B: not taken, typed back through the input method's virtual keyboard.
        let forward = try im.virtualKeyboard(seat: seat, keymap: try Keymap(names: KeymapNames(layout: "us")).text)
        session.send(Script.type([48]))
        let b = try read("B's press") { $0.object == grab && $0.opcode == 1 }
        #expect(b.uint(at: 2) == 48)
        im.virtualKey(forward, 48, pressed: true)
        _ = try read("B's release") { $0.object == grab && $0.opcode == 1 }
        im.virtualKey(forward, 48, pressed: false)
        try app.output.require("text:áb")
        #expect(!app.output.text.contains("text:a"), "GTK saw A as a key")
        #expect(!app.output.text.contains("text:ább"))
    }
}
