import SeatKit
import SeatKitXKB

/// evdev keycodes (linux/input-event-codes.h) of the keys the tests press, named after
/// their place on a US keyboard.
enum Key {
    static let one: UInt32 = 2
    static let seven: UInt32 = 8
    static let zero: UInt32 = 11
    static let equal: UInt32 = 13     // dead_acute on de
    static let q: UInt32 = 16
    static let w: UInt32 = 17
    static let e: UInt32 = 18
    static let y: UInt32 = 21
    static let enter: UInt32 = 28
    static let leftCtrl: UInt32 = 29
    static let a: UInt32 = 30
    static let semicolon: UInt32 = 39
    static let leftShift: UInt32 = 42
    static let z: UInt32 = 44
    static let m: UInt32 = 50
    static let leftAlt: UInt32 = 56
    static let capsLock: UInt32 = 58
    static let rightAlt: UInt32 = 100  // AltGr on de and fr
    static let leftMeta: UInt32 = 125
}

func keymap(_ layout: String, variant: String = "", options: String = "") throws -> Keymap {
    try Keymap(names: KeymapNames(layout: layout, variant: variant, options: options))
}

/// Presses and releases each key in turn on a bare state; returns the text the presses typed.
func type(_ keys: [UInt32], on state: KeyboardState) -> String {
    var text = ""
    for key in keys {
        text += state.text(evdevKeycode: key)
        state.update(evdevKeycode: key, direction: .down)
        state.update(evdevKeycode: key, direction: .up)
    }
    return text
}

/// Presses `modifier`, types `keys`, releases `modifier`.
func type(_ keys: [UInt32], holding modifier: UInt32, on state: KeyboardState) -> String {
    state.update(evdevKeycode: modifier, direction: .down)
    defer { state.update(evdevKeycode: modifier, direction: .up) }
    return type(keys, on: state)
}

/// A responder that records the key events and actions that reach it.
final class KeyRecorder: Responder {
    let name: String
    var handlesKeys: Bool
    var commands: [KeyCommand] = []
    var downs: [KeyEvent] = []
    var ups: [KeyEvent] = []
    var performed: [Action] = []
    /// Called on every keyDown, while the router delivers it.
    var onKeyDown: ((KeyEvent, ResponderContext) -> Void)?

    init(_ name: String, handlesKeys: Bool = false) {
        self.name = name
        self.handlesKeys = handlesKeys
    }

    var canBecomeFirstResponder: Bool { true }
    var keyCommands: [KeyCommand] { commands }
    func keyDown(_ event: KeyEvent, context: ResponderContext) -> ResponderResult {
        downs.append(event)
        onKeyDown?(event, context)
        return handlesKeys ? .handled : .notHandled
    }
    func keyUp(_ event: KeyEvent, context: ResponderContext) -> ResponderResult {
        ups.append(event)
        return handlesKeys ? .handled : .notHandled
    }
    func canPerform(_ action: Action) -> Bool { commands.contains { $0.action == action } }
    func perform(_ action: Action, context: ResponderContext) { performed.append(action) }

    var typedText: String { downs.map(\.text).joined() }
}

/// A router with a virtual clock, one output and a chain frame → panel → field, where
/// `field` is the first responder; a ``Keyboard`` interprets its keys.
final class KeyboardScene {
    let clock = VirtualClock()
    let router: Router
    let keyboard: Keyboard
    let field = KeyRecorder("field", handlesKeys: true)
    let panel = KeyRecorder("panel")
    let frame = KeyRecorder("frame")

    init(_ keymap: Keymap, compose: ComposeTable? = nil, keyRepeat: KeyRepeat = .standard) {
        router = Router(clock: clock)
        keyboard = Keyboard(keymap: keymap, compose: compose, keyRepeat: keyRepeat)
        keyboard.attach(to: router)
        let output = Output(name: "out", modeSize: Size(width: 800, height: 600))
        router.addOutput(output)
        let frameSurface = Surface(name: "frame", frame: SurfaceRect(x: 0, y: 0, width: 800, height: 600), responder: frame)
        let panelSurface = Surface(name: "panel", frame: SurfaceRect(x: 0, y: 0, width: 400, height: 300), responder: panel)
        let fieldSurface = Surface(name: "field", frame: SurfaceRect(x: 0, y: 0, width: 200, height: 30), responder: field)
        output.root.addChild(frameSurface)
        frameSurface.addChild(panelSurface)
        panelSurface.addChild(fieldSurface)
        router.becomeFirstResponder(fieldSurface)
    }

    /// Injects a key event at `ms` milliseconds, moving the clock there first.
    func key(_ keycode: UInt32, _ state: KeyState, at ms: Int64) {
        clock.advance(to: .milliseconds(ms))
        router.inject(InputEvent(time: .milliseconds(ms), .key(keycode: keycode, state: state)))
    }

    /// Presses and releases each key, 10 ms apart, from `ms` on.
    func type(_ keys: [UInt32], from ms: Int64 = 0) {
        var t = max(ms, clock.now.microseconds / 1000)
        for k in keys {
            key(k, .pressed, at: t)
            key(k, .released, at: t + 5)
            t += 10
        }
    }
}
