import CWaylandServer
import SeatKit
import SeatKitXKB

// zwp_text_input_manager_v3 (1) and zwp_input_method_manager_v2 (1): an input-method client
// (an on-screen keyboard, a CJK composer) writes into the text field of the client with
// keyboard focus.
//
// Text-input focus follows keyboard focus (the router's first responder): the focused
// client's text inputs get enter, the one that lost it leave. When the focused client
// enables a text input and commits, the seat's input method is activated (with the
// surrounding text and content type the client gave) and told done; when it disables it or
// loses focus, deactivated. What the input method commits (commit string, preedit,
// deletion) goes to that text input, closed by done with the client's commit count.
//
// The input method's keyboard grab (grab_keyboard) is a router keyboard grab
// (`KeyboardGrab`, focus kept): keys that pass the compositor's filters go to the input
// method, with the seat's keymap, repeat info and modifiers, instead of the focused client
// (which is first sent the release of any key it holds). What the input method does not
// take it types back through a zwp_virtual_keyboard_v1 of its own (fcitx5, ibus), which,
// as every virtual keyboard, goes straight to the focused client, never through the grab.
// Pairing: the input method is sent the release only of keys it was sent pressed; when the
// grab goes (released, its input method destroyed, displaced by another keyboard grab)
// with keys it was sent pressed, those it forwarded and still holds at the focused client
// through its virtual keyboard are released there at once, and their real releases reach
// no one. Keys of other virtual keyboards (wtype, an on-screen keyboard) do not reach the
// grab. A grab asked for while the compositor holds a keyboard grab of its own (a lock
// screen) does not displace it, and one the compositor's grab displaces is not ended: either
// takes keys again from the first press after the compositor's grab ended
// (InputMethodGrabResumer, a filter that passes everything).
//
// The input method's popup surfaces (zwp_input_popup_surface_v2: a candidate list) are
// shown while it is active, each as a child node of the focused text input's surface
// (the compositor's node for the wl_surface, ``WaylandSurfaceRoles/node(forSurface:)``),
// placed just below the text cursor rectangle the client set (set_cursor_rectangle,
// surface-local), moved left to stay on the output and above the cursor when there is no
// room below; each is told where the cursor rectangle is relative to its own top-left
// (text_input_rectangle). It is hit-tested as any surface: the input method's client gets
// its pointer and touches. It never takes keyboard focus.

/// One client's zwp_text_input_v3.
final class TextInput: ResourceObject {
    /// The seat, without a weak reference (``SeatHandle``): nil once the seat is gone.
    var seat: Seat? { seatHandle.seat }
    private let seatHandle: SeatHandle
    let client: ClientID
    var resource: OpaquePointer?
    /// The wl_surface this text input was told it entered.
    var enteredSurface: OpaquePointer?
    private(set) var enabled = false
    /// How many commit requests the client made: the serial of done.
    private(set) var commits: UInt32 = 0
    // Pending (until commit) and current state.
    private var pendingEnabled: Bool?
    private var pendingSurrounding: (text: String, cursor: Int32, anchor: Int32)?
    private var pendingCause: UInt32?
    private var pendingContentType: (hint: UInt32, purpose: UInt32)?
    private var pendingCursorRectangle: SurfaceRect?
    /// The text cursor, in the entered surface's local coordinates (nil: not set since
    /// enabled).
    fileprivate(set) var cursorRectangle: SurfaceRect?
    fileprivate(set) var surrounding: (text: String, cursor: Int32, anchor: Int32)?
    fileprivate(set) var cause: UInt32 = 0
    fileprivate(set) var contentType: (hint: UInt32, purpose: UInt32)?

    init(seat: Seat, client: ClientID) {
        self.seatHandle = seat.handle
        self.client = client
    }

    func enable() {
        pendingEnabled = true
        // Enabling resets the state to its initial values.
        pendingSurrounding = nil
        pendingCause = 0
        pendingContentType = nil
        pendingCursorRectangle = nil
    }

    func disable() { pendingEnabled = false }
    func setSurrounding(_ text: String, cursor: Int32, anchor: Int32) { pendingSurrounding = (text, cursor, anchor) }
    func setCause(_ cause: UInt32) { pendingCause = cause }
    func setContentType(hint: UInt32, purpose: UInt32) { pendingContentType = (hint, purpose) }
    func setCursorRectangle(x: Int32, y: Int32, width: Int32, height: Int32) {
        pendingCursorRectangle = SurfaceRect(x: Double(x), y: Double(y), width: Double(max(0, width)), height: Double(max(0, height)))
    }

    func commit() {
        commits &+= 1
        let wasEnabled = enabled
        if let pendingEnabled {
            enabled = pendingEnabled
            if pendingEnabled { surrounding = nil; contentType = nil; cause = 0; cursorRectangle = nil }
        }
        if let pendingCursorRectangle { cursorRectangle = pendingCursorRectangle }
        if let pendingSurrounding { surrounding = pendingSurrounding }
        if let pendingCause { cause = pendingCause }
        if let pendingContentType { contentType = pendingContentType }
        pendingEnabled = nil
        pendingSurrounding = nil
        pendingCause = nil
        pendingContentType = nil
        pendingCursorRectangle = nil
        guard let seat, enteredSurface != nil else { return }
        seat.textInputCommitted(self, wasEnabled: wasEnabled)
    }

    /// What the input method committed, then done.
    func apply(preedit: (text: String, begin: Int32, end: Int32)?, commit: String?, delete: (before: UInt32, after: UInt32)?) {
        guard let resource, enabled else { return }
        if let preedit {
            Libwayland.post(resource, ZWP_TEXT_INPUT_V3_PREEDIT_STRING, .string(preedit.text), .int(preedit.begin), .int(preedit.end))
        }
        if let delete {
            Libwayland.post(resource, ZWP_TEXT_INPUT_V3_DELETE_SURROUNDING_TEXT, .uint(delete.before), .uint(delete.after))
        }
        if let commit { Libwayland.post(resource, ZWP_TEXT_INPUT_V3_COMMIT_STRING, .string(commit)) }
        Libwayland.post(resource, ZWP_TEXT_INPUT_V3_DONE, .uint(commits))
    }

    package func resourceDestroyed() {
        let wasActive = enabled && enteredSurface != nil
        enabled = false
        resource = nil
        seat?.textInputs.removeAll { $0 === self }
        if wasActive { seat?.inputMethod?.deactivate() }
    }
}

/// The seat's zwp_input_method_v2 (one at a time).
final class InputMethod: ResourceObject {
    /// The seat, without a weak reference (``SeatHandle``): nil once the seat is gone.
    var seat: Seat? { seatHandle.seat }
    private let seatHandle: SeatHandle
    var resource: OpaquePointer?
    private(set) var active = false
    private var pendingCommit: String?
    private var pendingPreedit: (text: String, begin: Int32, end: Int32)?
    private var pendingDelete: (before: UInt32, after: UInt32)?

    init(seat: Seat) { self.seatHandle = seat.handle }

    func activate(with input: TextInput) {
        guard let resource else { return }
        active = true
        Libwayland.post(resource, ZWP_INPUT_METHOD_V2_ACTIVATE)
        sendState(of: input)
        updatePopups()
    }

    func update(from input: TextInput) {
        guard active else { return }
        sendState(of: input)
        updatePopups()
    }

    /// The popup surfaces of this input method.
    var popups: [InputPopup] = []

    /// Shows each popup at the focused text input's cursor while active, hides them otherwise.
    func updatePopups() {
        for popup in popups { popup.update() }
    }

    private func sendState(of input: TextInput) {
        guard let resource else { return }
        if let s = input.surrounding {
            Libwayland.post(resource, ZWP_INPUT_METHOD_V2_SURROUNDING_TEXT, .string(s.text), .uint(UInt32(bitPattern: s.cursor)),
                            .uint(UInt32(bitPattern: s.anchor)))
        }
        Libwayland.post(resource, ZWP_INPUT_METHOD_V2_TEXT_CHANGE_CAUSE, .uint(input.cause))
        if let c = input.contentType { Libwayland.post(resource, ZWP_INPUT_METHOD_V2_CONTENT_TYPE, .uint(c.hint), .uint(c.purpose)) }
        done()
    }

    func deactivate() {
        guard active, let resource else { return }
        active = false
        Libwayland.post(resource, ZWP_INPUT_METHOD_V2_DEACTIVATE)
        done()
        updatePopups()
    }

    private func done() {
        guard let resource else { return }
        Libwayland.post(resource, ZWP_INPUT_METHOD_V2_DONE)
    }

    func commitString(_ text: String) { pendingCommit = text }
    func setPreedit(_ text: String, begin: Int32, end: Int32) { pendingPreedit = (text, begin, end) }
    func deleteSurrounding(before: UInt32, after: UInt32) { pendingDelete = (before, after) }

    func commit(serial: UInt32) {
        let (commit, preedit, delete) = (pendingCommit, pendingPreedit, pendingDelete)
        pendingCommit = nil
        pendingPreedit = nil
        pendingDelete = nil
        // A commit quoting an older serial than the dones sent still applies: the protocol says
        // the compositor "must proceed as normal". It happens whenever the app reports its new
        // surrounding text (a done) while the input method is already committing the next key,
        // as squeekboard does when keys are tapped quickly; dropping it loses the key. So the
        // serial is not checked: this object keeps no state that an old commit could undo.
        _ = serial
        guard active, let input = seat?.focusedTextInput else { return }
        input.apply(preedit: preedit, commit: commit, delete: delete)
    }

    /// The keyboard grab this input method holds, if any.
    var keyboardGrab: InputMethodKeyboardGrab? {
        didSet { if oldValue !== keyboardGrab { seat?.inputMethodGrabChanged() } }
    }

    package func resourceDestroyed() {
        resource = nil
        active = false
        keyboardGrab?.stop()
        keyboardGrab = nil
        updatePopups()
        if seat?.inputMethod === self { seat?.inputMethod = nil }
    }
}

/// zwp_input_popup_surface_v2: a surface of the input method shown at the text cursor
/// while the input method is active (see the comment at the top of this file).
final class InputPopup: ResourceObject {
    /// The seat, without a weak reference (``SeatHandle``): nil once the seat is gone.
    var seat: Seat? { seatHandle.seat }
    private let seatHandle: SeatHandle
    weak var method: InputMethod?
    var resource: OpaquePointer?
    /// The wl_surface.
    let surface: OpaquePointer
    /// The compositor's node for it (nil: the compositor shows no input popups).
    let node: Surface?
    /// The text_input_rectangle last sent.
    private var sentRectangle: SurfaceRect?

    init(seat: Seat, method: InputMethod, surface: OpaquePointer, node: Surface?) {
        self.seatHandle = seat.handle
        self.method = method
        self.surface = surface
        self.node = node
        (node?.responder as? ClientSurfaceResponder)?.acceptsKeyboardFocus = false
    }

    /// Placed and shown while its input method is active and a text input of the focused
    /// surface is enabled; taken out of the tree otherwise.
    func update() {
        guard let node else { return }
        guard resource != nil, let seat, let method, method.active, seat.inputMethod === method,
              let input = seat.focusedTextInput, let parent = seat.router.firstResponder,
              parent.responder === seat.keyboardFocus, parent.isAttached,
              (node.responder as? ClientSurfaceResponder)?.surfaceResource != nil else {
            hide()
            return
        }
        let cursor = input.cursorRectangle ?? SurfaceRect(x: 0, y: 0, width: 0, height: 0)
        var origin = SurfacePoint(x: cursor.minX, y: cursor.maxY)
        if let output = parent.output {
            // The parent's origin in the output's root space.
            var px = parent.frame.minX, py = parent.frame.minY
            var ancestor = parent.parent
            while let current = ancestor, current !== output.root {
                px += current.frame.minX
                py += current.frame.minY
                ancestor = current.parent
            }
            let bounds = output.root.frame.size
            let size = node.frame.size
            if px + origin.x + size.width > bounds.width { origin.x = bounds.width - size.width - px }
            if px + origin.x < 0 { origin.x = -px }
            if py + origin.y + size.height > bounds.height, py + cursor.minY - size.height >= 0 {
                origin.y = cursor.minY - size.height
            }
        }
        let moved = node.frame.origin != origin || node.parent !== parent
        node.frame.origin = origin
        if node.parent !== parent { parent.addChild(node) }
        let rectangle = SurfaceRect(x: cursor.minX - origin.x, y: cursor.minY - origin.y, width: cursor.size.width,
                                    height: cursor.size.height)
        if rectangle != sentRectangle, let resource {
            sentRectangle = rectangle
            Libwayland.post(resource, ZWP_INPUT_POPUP_SURFACE_V2_TEXT_INPUT_RECTANGLE, .int(Int32(clamping: Int(rectangle.minX))),
                            .int(Int32(clamping: Int(rectangle.minY))), .int(Int32(clamping: Int(rectangle.size.width))),
                            .int(Int32(clamping: Int(rectangle.size.height))))
        }
        if moved { seat.router.refreshPointerFocus() }
    }

    private func hide() {
        guard let node, node.parent != nil else { return }
        node.removeFromParent()
        seat?.router.refreshPointerFocus()
    }

    package func resourceDestroyed() {
        resource = nil
        hide()
        method?.popups.removeAll { $0 === self }
    }
}

/// Gives an input method back the keyboard grab a grab of the compositor's displaced or
/// kept from starting, at the first key press after that grab ended (before the press is
/// routed, so that it is the input method's). Passes every event.
final class InputMethodGrabResumer: InputFilter {
    /// Weak: the router keeps its filters, and may outlive the seat.
    /// The seat, without a weak reference (``SeatHandle``): nil once the seat is gone.
    var seat: Seat? { seatHandle.seat }
    private let seatHandle: SeatHandle
    init(seat: Seat) { self.seatHandle = seat.handle }

    /// Whether the seat's input method holds a keyboard grab (the seat sets it and tells the
    /// router, ``Seat/inputMethodGrabChanged()``).
    var isWanted = false

    /// Keys (it acts on interpreted presses) while the seat's input method holds a keyboard
    /// grab, nothing otherwise: without a grab to resume every key passed it untouched, yet
    /// was asked of it raw and interpreted, and the kiosk's own filter was then one of two
    /// asked about keys, in the filters' loop rather than asked alone (issue 25, twelfth round).
    var filteredKinds: InputEventKinds { isWanted ? .key : [] }

    func filterKey(_ event: KeyEvent, router: Router) -> FilterDecision {
        // The seat lent, not loaded owned: a retain and a release per key press otherwise
        // (~35 instructions a key frame in the kiosk, issue 25, eleventh round). The router's
        // grab is asked about without loading it (`hasKeyboardGrab`: the getter's existential
        // cost a retain and a release, ~25 a press, issue 25, twelfth round).
        guard event.state == .pressed, !router.hasKeyboardGrab,
              let grab = seatHandle.withSeatIfPresent({ $0.inputMethod?.keyboardGrab }) ?? nil else { return .pass }
        grab.resumeIfDisplaced()
        return .pass
    }
}

extension Seat {
    /// Call after applying a commit of a surface that has the input-popup role (a surface
    /// ``WaylandSurfaceRoles/assignInputPopupRole(to:)`` gave it; `surface` is the
    /// wl_surface): the popup is placed again for its new size, or shown now that it has a
    /// buffer. Positions are in the focused text input's surface space; the popup is a child
    /// of that surface's node.
    public func inputPopupCommitted(_ surface: OpaquePointer) {
        guard let inputMethod else { return }
        for popup in inputMethod.popups where popup.surface == surface { popup.update() }
    }
}

/// zwp_input_method_keyboard_grab_v2: while it exists, the keys the router routes go to the
/// input method (see the comment at the top of this file).
final class InputMethodKeyboardGrab: ResourceObject, KeyboardGrab {
    /// The seat, without a weak reference (``SeatHandle``): nil once the seat is gone.
    var seat: Seat? { seatHandle.seat }
    private let seatHandle: SeatHandle
    weak var method: InputMethod?
    let client: ClientID
    var resource: OpaquePointer?
    /// Keys the input method was sent pressed and not released.
    private var pressed: [UInt32] = []
    private var sentModifiers: ModifierMasks?
    private var sentKeymap: KeymapFile?
    private var sentRepeat: KeyRepeat?
    /// Whether the router routes keys here.
    private var routing = false

    init(seat: Seat, method: InputMethod, client: ClientID) {
        self.seatHandle = seat.handle
        self.method = method
        self.client = client
    }

    /// Keymap, repeat info and modifiers, then keys from the router (unless the compositor
    /// holds a keyboard grab of its own).
    func start() {
        guard let seat else { return }
        sendKeyboardState(force: true)
        guard seat.router.keyboardGrab == nil else { return }
        routing = true
        seat.router.startKeyboardGrab(self, focus: .keep)
    }

    /// The seat's keymap and repeat info when they are not the ones sent, and the seat's
    /// modifiers (always with `force`).
    func sendKeyboardState(force: Bool = false) {
        guard let resource, let seat else { return }
        if let file = seat.currentSentKeymapFile, file !== sentKeymap {
            sentKeymap = file
            Libwayland.post(resource, ZWP_INPUT_METHOD_KEYBOARD_GRAB_V2_KEYMAP, .uint(WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue),
                            .fd(file.fileDescriptor), .uint(UInt32(file.size)))
        }
        let keyRepeat = seat.keymap?.keyRepeat ?? .standard
        if keyRepeat != sentRepeat {
            sentRepeat = keyRepeat
            Libwayland.post(resource, ZWP_INPUT_METHOD_KEYBOARD_GRAB_V2_REPEAT_INFO, .int(keyRepeat.wireRate), .int(keyRepeat.wireDelay))
        }
        if force { sendModifiers(seat.unchecked.modifierMasks) }
    }

    private func sendModifiers(_ masks: ModifierMasks) {
        guard let resource, let seat, masks != sentModifiers else { return }
        sentModifiers = masks
        Libwayland.post(resource, ZWP_INPUT_METHOD_KEYBOARD_GRAB_V2_MODIFIERS, .uint(seat.nextSerial(.modifiers, for: client)),
                        .uint(masks.depressed), .uint(masks.latched), .uint(masks.locked), .uint(masks.group))
    }

    func key(_ event: KeyEvent, router: Router) {
        guard let resource, let seat else { return }
        switch event.state {
        case .repeated:
            // The input method repeats keys itself (repeat_info).
            return
        case .pressed:
            guard !pressed.contains(event.keycode) else { return }
            pressed.append(event.keycode)
        case .released:
            // A key whose press the focused client saw before the grab: the client was sent
            // its release when the grab began, the input method never saw it.
            guard let index = pressed.firstIndex(of: event.keycode) else { return }
            pressed.remove(at: index)
        }
        seat.unchecked.modifierMasks = event.modifierMasks
        sendKeyboardState()
        let state = event.state == .pressed ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED
        Libwayland.post(resource, ZWP_INPUT_METHOD_KEYBOARD_GRAB_V2_KEY, .uint(seat.nextSerial(.key, for: client)),
                        .uint(event.time.wireMilliseconds), .uint(event.keycode), .uint(state.rawValue))
        sendModifiers(event.modifierMasks)
    }

    /// The router ended the grab (another keyboard grab started, or ``stop()``).
    func cancel(router: Router) {
        routing = false
        releaseForwardedKeys()
    }

    /// Takes keys again if the router routes them to no grab: the compositor's grab that
    /// kept this one out has ended.
    func resumeIfDisplaced() {
        guard !routing, resource != nil, let seat, let method, seat.inputMethod === method, method.keyboardGrab === self,
              seat.router.keyboardGrab == nil else { return }
        routing = true
        sendKeyboardState(force: true)
        seat.router.startKeyboardGrab(self, focus: .keep)
    }

    /// The grab goes: the router routes keys by its default rule again.
    func stop() {
        if routing, let router = seat?.router, router.keyboardGrab === self { router.endKeyboardGrab() }
        routing = false
        releaseForwardedKeys()
    }

    /// Keys the input method was sent pressed will never be sent released: those it
    /// forwarded through its virtual keyboards and still holds at the focused client are
    /// released there now.
    private func releaseForwardedKeys() {
        let keys = pressed
        pressed.removeAll()
        guard let seat, !keys.isEmpty else { return }
        for keyboard in seat.virtualKeyboardObjects where keyboard.client == client {
            for key in keys { keyboard.releaseIfHeld(key) }
        }
    }

    package func resourceDestroyed() {
        resource = nil
        stop()
        if method?.keyboardGrab === self { method?.keyboardGrab = nil }
    }
}

extension Seat {
    /// The focused client's enabled text input, if any.
    var focusedTextInput: TextInput? {
        textInputs.first { $0.enabled && $0.enteredSurface != nil && $0.enteredSurface == keyboardFocus?.surfaceResource }
    }

    /// Keyboard focus moved: text inputs of the old surface leave, those of the new enter;
    /// the input method follows.
    func updateTextInputFocus() {
        let surface = keyboardFocus?.surfaceResource
        let client = keyboardFocus?.client
        var lostActive = false
        for input in textInputs {
            guard let resource = input.resource else { continue }
            if let entered = input.enteredSurface, entered != surface {
                if input.enabled { lostActive = true }
                Libwayland.post(resource, ZWP_TEXT_INPUT_V3_LEAVE, .object(entered))
                input.enteredSurface = nil
            }
            if let surface, input.client == client, input.enteredSurface == nil {
                Libwayland.post(resource, ZWP_TEXT_INPUT_V3_ENTER, .object(surface))
                input.enteredSurface = surface
            }
        }
        if lostActive { inputMethod?.deactivate() }
    }

    func textInputCommitted(_ input: TextInput, wasEnabled: Bool) {
        guard let inputMethod else { return }
        switch (wasEnabled, input.enabled) {
        case (false, true): inputMethod.activate(with: input)
        case (true, true): inputMethod.update(from: input)
        case (true, false): inputMethod.deactivate()
        case (false, false): break
        }
    }
}

nonisolated(unsafe) let textInputManagerRequests = Libwayland.table(zwp_text_input_manager_v3_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    get_text_input: { client, resource, id, _ in
        guard let client, let resource, let binding = Libwayland.object(resource, as: ExtensionBinding.self),
              let seat = binding.seat else { return }
        let input = TextInput(seat: seat, client: binding.client.id)
        guard let r = Libwayland.createResource(client, zwp_text_input_v3_wire()!, version: Libwayland.version(of: resource), id: id,
                                                implementation: textInputRequests, object: input) else { return }
        input.resource = r
        seat.textInputs.append(input)
        // Created while its client has focus: it enters now.
        seat.updateTextInputFocus()
    }
))

private func string(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }

private nonisolated(unsafe) let textInputRequests = Libwayland.table(zwp_text_input_v3_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    enable: { _, resource in Libwayland.object(resource, as: TextInput.self)?.enable() },
    disable: { _, resource in Libwayland.object(resource, as: TextInput.self)?.disable() },
    set_surrounding_text: { _, resource, text, cursor, anchor in
        Libwayland.object(resource, as: TextInput.self)?.setSurrounding(string(text), cursor: cursor, anchor: anchor)
    },
    set_text_change_cause: { _, resource, cause in Libwayland.object(resource, as: TextInput.self)?.setCause(cause) },
    set_content_type: { _, resource, hint, purpose in
        Libwayland.object(resource, as: TextInput.self)?.setContentType(hint: hint, purpose: purpose)
    },
    set_cursor_rectangle: { _, resource, x, y, width, height in
        Libwayland.object(resource, as: TextInput.self)?.setCursorRectangle(x: x, y: y, width: width, height: height)
    },
    commit: { _, resource in Libwayland.object(resource, as: TextInput.self)?.commit() }
))

nonisolated(unsafe) let inputMethodManagerRequests = Libwayland.table(zwp_input_method_manager_v2_requests(
    get_input_method: { client, resource, _, id in
        guard let client, let resource, let binding = Libwayland.object(resource, as: ExtensionBinding.self),
              let seat = binding.seat else { return }
        let method = InputMethod(seat: seat)
        guard let r = Libwayland.createResource(client, zwp_input_method_v2_wire()!, version: Libwayland.version(of: resource), id: id,
                                                implementation: inputMethodRequests, object: method) else { return }
        method.resource = r
        // One input method per seat: a second one is unavailable from the start.
        guard seat.inputMethod == nil else {
            Libwayland.post(r, ZWP_INPUT_METHOD_V2_UNAVAILABLE)
            return
        }
        seat.inputMethod = method
        if let input = seat.focusedTextInput { method.activate(with: input) }
    },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))

private nonisolated(unsafe) let inputMethodRequests = Libwayland.table(zwp_input_method_v2_requests(
    commit_string: { _, resource, text in Libwayland.object(resource, as: InputMethod.self)?.commitString(string(text)) },
    set_preedit_string: { _, resource, text, begin, end in
        Libwayland.object(resource, as: InputMethod.self)?.setPreedit(string(text), begin: begin, end: end)
    },
    delete_surrounding_text: { _, resource, before, after in
        Libwayland.object(resource, as: InputMethod.self)?.deleteSurrounding(before: before, after: after)
    },
    commit: { _, resource, serial in Libwayland.object(resource, as: InputMethod.self)?.commit(serial: serial) },
    get_input_popup_surface: { client, resource, id, surface in
        guard let client, let resource, let surface, let method = Libwayland.object(resource, as: InputMethod.self),
              let seat = method.seat else { return }
        if let roles = seat.surfaceRoles, !roles.assignInputPopupRole(to: surface) {
            Libwayland.postError(resource, code: ZWP_INPUT_METHOD_V2_ERROR_ROLE.rawValue, "the surface already has another role")
            return
        }
        let popup = InputPopup(seat: seat, method: method, surface: surface, node: seat.surfaceRoles?.node(forSurface: surface))
        guard let r = Libwayland.createResource(client, zwp_input_popup_surface_v2_wire()!, version: Libwayland.version(of: resource),
                                                id: id, implementation: destroyOnlyRequests, object: popup) else { return }
        popup.resource = r
        method.popups.append(popup)
        popup.update()
    },
    grab_keyboard: { client, resource, id in
        guard let client, let resource, let method = Libwayland.object(resource, as: InputMethod.self),
              let seat = method.seat else { return }
        let grab = InputMethodKeyboardGrab(seat: seat, method: method, client: ClientID(client))
        guard let r = Libwayland.createResource(client, zwp_input_method_keyboard_grab_v2_wire()!, version: Libwayland.version(of: resource),
                                                id: id, implementation: destroyOnlyRequests, object: grab) else { return }
        grab.resource = r
        // One grab per input method: a second replaces the first. An input method the seat
        // made unavailable (a second one) gets a grab that takes nothing.
        method.keyboardGrab?.stop()
        method.keyboardGrab = grab
        if seat.inputMethod === method { grab.start() } else { grab.sendKeyboardState(force: true) }
    },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))
