import CWaylandServer
import SeatKit

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
// Input-method popups are accepted and never shown; a keyboard grab gets the seat's keymap
// but no keys (the protocol lets the compositor forward none).

/// One client's zwp_text_input_v3.
final class TextInput: ResourceObject {
    weak var seat: Seat?
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
    fileprivate(set) var surrounding: (text: String, cursor: Int32, anchor: Int32)?
    fileprivate(set) var cause: UInt32 = 0
    fileprivate(set) var contentType: (hint: UInt32, purpose: UInt32)?

    init(seat: Seat, client: ClientID) {
        self.seat = seat
        self.client = client
    }

    func enable() {
        pendingEnabled = true
        // Enabling resets the state to its initial values.
        pendingSurrounding = nil
        pendingCause = 0
        pendingContentType = nil
    }

    func disable() { pendingEnabled = false }
    func setSurrounding(_ text: String, cursor: Int32, anchor: Int32) { pendingSurrounding = (text, cursor, anchor) }
    func setCause(_ cause: UInt32) { pendingCause = cause }
    func setContentType(hint: UInt32, purpose: UInt32) { pendingContentType = (hint, purpose) }

    func commit() {
        commits &+= 1
        let wasEnabled = enabled
        if let pendingEnabled {
            enabled = pendingEnabled
            if pendingEnabled { surrounding = nil; contentType = nil; cause = 0 }
        }
        if let pendingSurrounding { surrounding = pendingSurrounding }
        if let pendingCause { cause = pendingCause }
        if let pendingContentType { contentType = pendingContentType }
        pendingEnabled = nil
        pendingSurrounding = nil
        pendingCause = nil
        pendingContentType = nil
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
    weak var seat: Seat?
    var resource: OpaquePointer?
    private(set) var active = false
    /// done events sent: the serial commit must quote to take effect.
    private var dones: UInt32 = 0
    private var pendingCommit: String?
    private var pendingPreedit: (text: String, begin: Int32, end: Int32)?
    private var pendingDelete: (before: UInt32, after: UInt32)?

    init(seat: Seat) { self.seat = seat }

    func activate(with input: TextInput) {
        guard let resource else { return }
        active = true
        Libwayland.post(resource, ZWP_INPUT_METHOD_V2_ACTIVATE)
        sendState(of: input)
    }

    func update(from input: TextInput) {
        guard active else { return }
        sendState(of: input)
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
    }

    private func done() {
        guard let resource else { return }
        dones &+= 1
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
        // A commit that saw an older state than the last done is not applied.
        guard active, serial == dones, let input = seat?.focusedTextInput else { return }
        input.apply(preedit: preedit, commit: commit, delete: delete)
    }

    package func resourceDestroyed() {
        resource = nil
        if seat?.inputMethod === self { seat?.inputMethod = nil }
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
    set_cursor_rectangle: { _, _, _, _, _, _ in },
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
    get_input_popup_surface: { client, resource, id, _ in
        guard let client, let resource else { return }
        _ = Libwayland.createResource(client, zwp_input_popup_surface_v2_wire()!, version: Libwayland.version(of: resource), id: id,
                                      implementation: destroyOnlyRequests, object: nil)
    },
    grab_keyboard: { client, resource, id in
        guard let client, let resource, let method = Libwayland.object(resource, as: InputMethod.self) else { return }
        guard let r = Libwayland.createResource(client, zwp_input_method_keyboard_grab_v2_wire()!, version: Libwayland.version(of: resource),
                                                id: id, implementation: destroyOnlyRequests, object: nil) else { return }
        method.seat?.sendKeymapToGrab(r)
    },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))
