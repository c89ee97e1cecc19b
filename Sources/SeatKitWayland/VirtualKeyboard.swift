import CWaylandServer
import Glibc
import SeatKit
import SeatKitXKB

// zwp_virtual_keyboard_manager_v1 (1): clients (wtype, on-screen keyboards) type with a
// keymap of their own.
//
// The uploaded keymap is untrusted input: it is read within its announced size with pread
// (a client that truncates the file meanwhile gets an error, the compositor no SIGBUS),
// checked against ``Seat/virtualKeymapLimits`` before xkbcommon sees it, compiled, and sent
// on as xkbcommon's own text in a sealed memfd of the seat's making, never as the client's
// file. A keymap that fails any of this ends that client with
// `zwp_virtual_keyboard_v1.error.no_keymap` and the reason; nobody else notices.
//
// Keys go straight to the client with keyboard focus, with the virtual keyboard's keymap
// (sent to that client first, and the seat's own sent back before the next real key) and
// the modifiers the virtual keyboard reports. They do not pass through the router: its key
// interpreter knows only the seat's keymap, so compositor key commands and filters do not
// see them.
//
// Pairing: a press goes to the focus of the moment, once (a second press of a key held is
// not sent again); its release goes there only if focus has not moved since (a leave ended
// the key there), and a release of a key not held is not sent. A client that has no
// wl_keyboard yet, because the keyboard capability came with this very keymap, is kept its
// keys until it binds one (``SeatClient/owedKeys``): wtype's first key is not lost.

final class VirtualKeyboard: ResourceObject {
    /// The seat, without a weak reference (``SeatHandle``): nil once the seat is gone.
    var seat: Seat? { seatHandle.seat }
    private let seatHandle: SeatHandle
    let pid: Int32
    /// The client that made it: an input method's own virtual keyboard forwards what its
    /// keyboard grab did not take.
    let client: ClientID
    var resource: OpaquePointer?
    /// The compiled keymap as clients receive it.
    private(set) var keymapFile: KeymapFile? {
        didSet {
            if (keymapFile == nil) != (oldValue == nil) { seat?.virtualKeyboards += keymapFile == nil ? -1 : 1 }
        }
    }
    /// Keys down, evdev codes, and the focus they went to (by the seat's focus generation).
    private var held: [UInt32] = []
    /// Compared by identity with the seat's keyboard focus, and replaced when focus moves.
    /// Strong, not weak: a weak reference gave the focused responder a side table, and its
    /// retains on every later event the runtime's slow path; kept at most until the next
    /// virtual key after focus moved.
    private var heldTarget: ClientSurfaceResponder?
    private var heldGeneration: UInt64 = 0

    init(seat: Seat, pid: Int32, client: ClientID) {
        self.seatHandle = seat.handle
        self.pid = pid
        self.client = client
    }

    /// Releases `keycode` at the focused client if this keyboard holds it there (an input
    /// method's grab ended before the release it would have forwarded); its own release,
    /// if it still comes, is then not sent.
    func releaseIfHeld(_ keycode: UInt32) {
        guard let keymapFile, let seat, let target = heldTarget, target === seat.keyboardFocus,
              heldGeneration == seat.keyboardFocusGeneration, let index = held.firstIndex(of: keycode) else { return }
        held.remove(at: index)
        target.sendVirtualKey(keycode, pressed: false, keymap: keymapFile)
    }

    func setKeymap(format: UInt32, fd: Int32, size: UInt32) {
        defer { close(fd) }
        guard let resource, let seat else { return }
        guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue else {
            Libwayland.postError(resource, code: ZWP_VIRTUAL_KEYBOARD_V1_ERROR_NO_KEYMAP.rawValue,
                                 "keymap format \(format) is not xkb_v1")
            return
        }
        do {
            let keymap = try Keymap(fileDescriptor: fd, size: Int(size), limits: seat.virtualKeymapLimits,
                                    source: "virtual keyboard of pid \(pid)")
            keymapFile = try KeymapFile(text: keymap.text)
        } catch {
            keymapFile = nil
            Libwayland.postError(resource, code: ZWP_VIRTUAL_KEYBOARD_V1_ERROR_NO_KEYMAP.rawValue, "\(error)")
            seat.virtualKeymapRejected?(pid, error)
        }
    }

    func key(_ keycode: UInt32, pressed: Bool) {
        guard let resource, let seat else { return }
        guard let keymapFile else {
            Libwayland.postError(resource, code: ZWP_VIRTUAL_KEYBOARD_V1_ERROR_NO_KEYMAP.rawValue, "key before keymap")
            return
        }
        // Keys held under an earlier focus were ended there by its leave.
        if heldGeneration != seat.keyboardFocusGeneration || heldTarget !== seat.keyboardFocus {
            held.removeAll()
            heldTarget = seat.keyboardFocus
            heldGeneration = seat.keyboardFocusGeneration
        }
        if pressed {
            // Held only if the focused client got it (or is kept it while it binds a keyboard).
            guard !held.contains(keycode), seat.keyboardFocus?.sendVirtualKey(keycode, pressed: true, keymap: keymapFile) == true else { return }
            held.append(keycode)
        } else {
            guard let index = held.firstIndex(of: keycode) else { return }
            held.remove(at: index)
            seat.keyboardFocus?.sendVirtualKey(keycode, pressed: false, keymap: keymapFile)
        }
    }

    func modifiers(_ masks: ModifierMasks) {
        guard let resource, let seat else { return }
        guard let keymapFile else {
            Libwayland.postError(resource, code: ZWP_VIRTUAL_KEYBOARD_V1_ERROR_NO_KEYMAP.rawValue, "modifiers before keymap")
            return
        }
        seat.keyboardFocus?.sendVirtualModifiers(masks, keymap: keymapFile)
    }

    package func resourceDestroyed() {
        // Keys still down are released where they went, if that client still has focus.
        if let keymapFile, let target = heldTarget, target === seat?.keyboardFocus, heldGeneration == seat?.keyboardFocusGeneration {
            for key in held { target.sendVirtualKey(key, pressed: false, keymap: keymapFile) }
        }
        held.removeAll()
        keymapFile = nil
        resource = nil
        seat?.virtualKeyboardObjects.removeAll { $0 === self }
    }
}

extension ClientSurfaceResponder {
    /// A key from a virtual keyboard: its keymap first if the client has another one.
    /// Returns whether the client got it, or is kept it until it binds a keyboard.
    @discardableResult
    func sendVirtualKey(_ keycode: UInt32, pressed: Bool, keymap: KeymapFile) -> Bool {
        guard surfaceResource != nil, let devices = seat.client(client) else { return false }
        guard !devices.unchecked.keyboards.isEmpty else {
            return devices.owe(.key(keycode, pressed: pressed, time: seat.router.clock.now.wireMilliseconds, keymap: keymap, modifiers: nil),
                               now: seat.router.clock.now)
        }
        seat.useKeymap(keymap, for: devices)
        let serial = seat.nextSerial(.key, for: client)
        let state = pressed ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED
        let time = seat.router.clock.now.wireMilliseconds
        for resource in devices.unchecked.keyboards {
            Libwayland.post(resource, WL_KEYBOARD_KEY, .uint(serial), .uint(time), .uint(keycode), .uint(state.rawValue))
        }
        return true
    }

    func sendVirtualModifiers(_ masks: ModifierMasks, keymap: KeymapFile) {
        guard surfaceResource != nil, let devices = seat.client(client) else { return }
        guard !devices.unchecked.keyboards.isEmpty else {
            devices.owe(.modifiers(masks, keymap: keymap), now: seat.router.clock.now)
            return
        }
        seat.useKeymap(keymap, for: devices)
        let serial = seat.nextSerial(.modifiers, for: client)
        for resource in devices.unchecked.keyboards {
            Libwayland.post(resource, WL_KEYBOARD_MODIFIERS, .uint(serial), .uint(masks.depressed), .uint(masks.latched),
                            .uint(masks.locked), .uint(masks.group))
        }
        // The next real key sends the seat's modifiers again.
        devices.unchecked.sentModifiers = nil
    }
}

nonisolated(unsafe) let virtualKeyboardManagerRequests = Libwayland.table(zwp_virtual_keyboard_manager_v1_requests(
    create_virtual_keyboard: { client, resource, _, id in
        guard let client, let resource, let binding = Libwayland.object(resource, as: ExtensionBinding.self),
              let seat = binding.seat else { return }
        let keyboard = VirtualKeyboard(seat: seat, pid: Libwayland.pid(of: client), client: ClientID(client))
        keyboard.resource = Libwayland.createResource(client, zwp_virtual_keyboard_v1_wire()!, version: Libwayland.version(of: resource),
                                                      id: id, implementation: virtualKeyboardRequests, object: keyboard)
        if keyboard.resource != nil { seat.virtualKeyboardObjects.append(keyboard) }
    }
))

private nonisolated(unsafe) let virtualKeyboardRequests = Libwayland.table(zwp_virtual_keyboard_v1_requests(
    keymap: { _, resource, format, fd, size in
        guard let keyboard = Libwayland.object(resource, as: VirtualKeyboard.self) else {
            close(fd)
            return
        }
        keyboard.setKeymap(format: format, fd: fd, size: size)
    },
    key: { _, resource, _, key, state in
        Libwayland.object(resource, as: VirtualKeyboard.self)?.key(key, pressed: state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue)
    },
    modifiers: { _, resource, depressed, latched, locked, group in
        Libwayland.object(resource, as: VirtualKeyboard.self)?
            .modifiers(ModifierMasks(depressed: depressed, latched: latched, locked: locked, group: group))
    },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))
