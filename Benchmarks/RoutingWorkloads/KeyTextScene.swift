import SeatKit
import SeatKitXKB
import XKBDirect

/// Reads the text of every key press it receives, as a text field would. Its count skips
/// the runtime exclusivity check, as the C loop's local checksum has none: the comparison is
/// of SeatKit's work, not of the responder's bookkeeping.
public final class TextResponder: Responder {
    @exclusivity(unchecked) public var bytes = 0
    public init() {}
    public func keyDown(_ event: KeyEvent, context: ResponderContext) -> ResponderResult {
        bytes &+= event.text.utf8.count &+ Int(event.keysym & 1)
        return .handled
    }
    public func keyUp(_ event: KeyEvent, context: ResponderContext) -> ResponderResult { .handled }
    public var canBecomeFirstResponder: Bool { true }
}

/// Issue 4's comparison: a key press turned into text at the focused responder, through the
/// router with SeatKitXKB's ``Keyboard`` (us keymap) as its key interpreter, against the same
/// xkbcommon calls made directly from C (`XKBDirect`) on the same key sequence.
public final class KeyTextScene {
    /// "The quick brown fox jumps over the lazy dog. 0123456789" and Return, with Shift for
    /// the capital: every key pressed and released, so the state ends where it began.
    public static let sequence: [(keycode: UInt32, pressed: Bool)] = {
        let keys: [UInt32] = [20, 35, 18, 57, 16, 22, 23, 46, 37, 57, 48, 19, 24, 17, 49, 57, 33, 24, 45, 57,
                              36, 22, 50, 25, 31, 57, 24, 47, 18, 19, 57, 20, 35, 18, 57, 38, 30, 44, 21, 57,
                              32, 24, 34, 52, 57, 11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 28]
        var events: [(UInt32, Bool)] = [(42, true)]  // Shift down for "T"
        events.append((keys[0], true))
        events.append((keys[0], false))
        events.append((42, false))
        for key in keys.dropFirst() {
            events.append((key, true))
            events.append((key, false))
        }
        return events
    }()

    public let routing = RoutingScene()
    public let keyboard: Keyboard
    public let text = TextResponder()
    private let keycodes: [UInt32]
    private let pressed: [UInt8]
    private let direct: OpaquePointer

    public init() throws {
        keyboard = Keyboard(keymap: try Keymap(names: KeymapNames(layout: "us")))
        keyboard.attach(to: routing.router)
        routing.leaf.responder = text
        routing.focusLeaf()
        keycodes = Self.sequence.map(\.keycode)
        pressed = Self.sequence.map { $0.pressed ? 1 : 0 }
        guard let direct = xkb_direct_new("us") else { fatalError("xkbcommon has no us keymap") }
        self.direct = direct
    }

    deinit { xkb_direct_free(direct) }

    /// One key event routed to text at the focused responder: event `step` of the sequence.
    @inline(__always)
    public func routeKey(_ step: Int) {
        let event = Self.sequence[step % Self.sequence.count]
        routing.send(.key(keycode: event.keycode, state: event.pressed ? .pressed : .released))
    }

    /// The whole sequence `times` times through the bare xkbcommon calls; returns a checksum.
    public func runDirect(times: Int) -> UInt64 {
        var checksum: UInt64 = 0
        keycodes.withUnsafeBufferPointer { k in
            pressed.withUnsafeBufferPointer { p in
                for _ in 0..<times {
                    checksum &+= xkb_direct_run(direct, k.baseAddress, p.baseAddress, Int32(k.count))
                }
            }
        }
        return checksum
    }
}
