import CWaylandServer
import Glibc
import Logging
@_spi(SeatKitInternals) import SeatKit
import SeatKitXKB

/// What the seat needs to know of wl_surfaces and wl_regions, which belong to whoever
/// implements wl_compositor: the compositor. The seat never reads another implementation's
/// resource user data; it asks this provider. SeatKitHeadlessShell's `HeadlessShell` is one; a compositor with its
/// own wl_compositor implements these calls and sets ``Seat/surfaceRoles``.
///
/// Resources are `struct wl_resource *` and clients `struct wl_client *`, as libwayland hands
/// them to request handlers; Swift imports both as `OpaquePointer`.
public protocol WaylandSurfaceRoles: AnyObject {
    /// wl_pointer.set_cursor named `surface` (a wl_surface): give it the cursor role, or
    /// return false when it has another role (the seat then posts wl_pointer.error.role).
    func assignCursorRole(to surface: OpaquePointer) -> Bool
    /// The rectangles of `region` (a wl_region), surface-local, whose union is the region as
    /// the client last set it; nil when it is not a region this provider knows.
    func rectangles(of region: OpaquePointer) -> [SurfaceRect]?
    /// The wl_output resources `client` bound for `output` (none if it bound none). The
    /// cursor surface gets `wl_surface.enter` for each when the pointer is on `output`, and
    /// `wl_surface.leave` when it moves off: that is how a client learns the scale to draw
    /// its cursor at (GTK4 draws a 24-pixel cursor at scale 2 otherwise). Asked when the
    /// pointer crosses from one output to another and when the cursor surface changes,
    /// never per motion.
    func outputResources(for output: Output, client: OpaquePointer) -> [OpaquePointer]
    /// zwp_input_method_v2.get_input_popup_surface named `surface` (a wl_surface): give it
    /// the input-popup role, or return false when it has another role (the seat then posts
    /// `zwp_input_method_v2.error.role`). Default: true.
    func assignInputPopupRole(to surface: OpaquePointer) -> Bool
    /// The node standing for `surface` (a wl_surface) in the router's tree: its responder
    /// a ``ClientSurfaceResponder`` of `surface`, its frame's size the committed buffer's
    /// (in the surface's logical coordinates), hidden while it has no buffer; nil when the
    /// provider does not know the surface. The seat shows an input method's popup by placing
    /// this node as a child of the focused text input's surface (``Seat/inputPopupCommitted(_:)``).
    /// Default: nil, and input-method popups are never shown.
    func node(forSurface surface: OpaquePointer) -> Surface?
}

extension WaylandSurfaceRoles {
    /// Grants the role: a provider that tracks no roles lets every surface be a popup.
    public func assignInputPopupRole(to surface: OpaquePointer) -> Bool { true }
    /// None: input-method popups are never shown.
    public func node(forSurface surface: OpaquePointer) -> Surface? { nil }
}

/// The wl_seat global: one router's input, offered to Wayland clients.
///
/// The seat advertises the capabilities of the devices present (keep ``capabilities`` in step
/// with the router's `capabilities`, from `CompositorDelegate.router(_:capabilitiesChanged:)`),
/// and holds every client's wl_pointer, wl_keyboard and wl_touch resources, each at the
/// version the client bound. Events reach those resources only through a
/// ``ClientSurfaceResponder``, so only the client owning the surface the router chose ever
/// sees an event.
///
/// Inject input through the router's `inject(_:)` (`seat.router.inject(event)`): a device's
/// touch frame becomes one `wl_touch.frame` per client, sent when the router has delivered
/// the frame.
///
/// With pointer constraints on (the default), the seat adds one filter to the router, which
/// applies active locks and confinements to relative motion before anyone else sees it.
///
/// wl_seat is offered at version 8, the highest libwayland 1.21's wayland.xml defines:
/// `axis_relative_direction` (version 9) does not exist there and is never sent.
public final class Seat: GlobalOwner, TouchFrameObserver {
    /// The version of wl_seat, wl_pointer, wl_keyboard and wl_touch this seat implements.
    public static let version: Int32 = 8

    public let name: String
    public let router: Router
    unowned let display: WaylandDisplay
    /// The display's `struct wl_display *`, for the serial of each event: loading the
    /// `unowned` display per serial was a `swift_unownedRetainStrong` and a release (~40
    /// instructions, issue 25, tenth round). The display outlives the seat (``WaylandDisplay``'s
    /// contract: everything made on it goes first), as the seat's deinit, which destroys its
    /// globals on it, already requires. Its surface responders keep it too, for their touch
    /// downs' and ups' serials (read only while the seat is attached to its handle).
    let wlDisplay: OpaquePointer
    private var global: OpaquePointer?
    /// Every serial sent to each client, for requests that quote one.
    public let serials = SerialLog()

    /// What every wl_keyboard is told about the keyboard: usually the router's key
    /// interpreter, a SeatKitXKB `Keyboard`, so that the modifiers sent with
    /// keys match the keymap. nil sends `no_keymap`. Setting another provider sends its
    /// keymap to every keyboard; see also ``keymapDidChange()``.
    public var keymap: (any KeymapProvider)? {
        didSet {
            guard keymap !== oldValue else { return }
            keymapDidChange()
        }
    }

    /// Sends the provider's keymap and repeat info to every keyboard again, unless the file
    /// is the one already sent (an unchanged keymap is not sent again). Call it from
    /// SeatKitXKB's `Keyboard.keymapDidChange` and after changing the key repeat.
    public func keymapDidChange() {
        let file = currentKeymapFile()
        let repeatInfo = keymap?.keyRepeat
        guard file !== sentKeymapFile || repeatInfo != sentKeyRepeat else { return }
        for client in unchecked.clients.values {
            for keyboard in client.unchecked.keyboards { sendKeymap(to: keyboard) }
            client.sentKeymap = file
        }
        inputMethod?.keyboardGrab?.sendKeyboardState()
    }

    /// Bounds on keymaps virtual keyboards upload (``SeatExtensions/virtualKeyboard``); a
    /// keymap beyond them ends that client with `zwp_virtual_keyboard_v1.error.no_keymap`.
    public var virtualKeymapLimits = KeymapLimits.default
    /// Told of every keymap a virtual keyboard uploaded that was refused: the client's pid
    /// and why (a SeatKitXKB `KeymapError`). For the compositor's log.
    public var virtualKeymapRejected: ((Int32, any Error) -> Void)?

    /// Makes `file` the keymap `client`'s keyboards have, sending it (and the repeat info) if
    /// they have another: virtual keyboards bring their own, real keys the seat's.
    func useKeymap(_ file: KeymapFile, for client: SeatClient) {
        guard client.sentKeymap !== file else { return }
        client.sentKeymap = file
        for keyboard in client.unchecked.keyboards {
            Libwayland.post(keyboard, WL_KEYBOARD_KEYMAP, .uint(WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue),
                            .fd(file.fileDescriptor), .uint(UInt32(file.size)))
        }
    }

    /// Before a real key: the seat's keymap back on a client a virtual keyboard typed to.
    @inline(__always)
    func restoreSeatKeymap(for client: SeatClient) {
        guard client.sentKeymap !== sentKeymapFile, let file = sentKeymapFile else { return }
        useKeymap(file, for: client)
    }

    /// Where the seat reports what goes wrong in its environment rather than in a client's
    /// requests (a keymap file that could not be written: clients then get `no_keymap`).
    /// By default swift-log's `LoggingSystem` (label `SeatKitWayland.Seat`): bootstrap it, or
    /// set a logger of your own.
    public var logger = Logger(label: "SeatKitWayland.Seat")

    /// The provider's keymap file; nil when there is no provider, or when it could not write
    /// one (logged: clients get `no_keymap` and type nothing, which must not pass silently).
    private func currentKeymapFile() -> KeymapFile? {
        guard let keymap else { return nil }
        do {
            return try keymap.keymapFile()
        } catch {
            logger.error("no keymap file for clients, they get no_keymap: \(error)")
            return nil
        }
    }

    /// The keymap file and repeat info last sent, to skip sending them again unchanged.
    private var sentKeymapFile: KeymapFile?
    private var sentKeyRepeat: KeyRepeat?

    /// The devices' capabilities (pointer, keyboard, touch count; the rest is ignored).
    /// Clients are told whenever the Wayland-visible part changes.
    /// A virtual keyboard with a keymap counts as a keyboard (an on-screen keyboard on a
    /// kiosk with no physical one).
    public var capabilities: DeviceCapabilities = [] {
        didSet { capabilitiesChanged(from: oldValue, virtualKeyboards: virtualKeyboards) }
    }

    /// Virtual keyboards that have a keymap: while there is one, the seat has a keyboard.
    var virtualKeyboards = 0 {
        didSet { capabilitiesChanged(from: capabilities, virtualKeyboards: oldValue) }
    }

    private func capabilitiesChanged(from old: DeviceCapabilities, virtualKeyboards oldVirtual: Int) {
        let before = wireCapabilities(old, virtualKeyboards: oldVirtual)
        let now = wireCapabilities(capabilities, virtualKeyboards: virtualKeyboards)
        everHad.formUnion(capabilities)
        if virtualKeyboards > 0 { everHad.insert(.keyboard) }
        // A pen is the pointer of clients without a tablet seat: see wireCapabilities.
        if capabilities.contains(.tabletTool) { everHad.insert(.pointer) }
        guard now != before else { return }
        let keyboardCame = now & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0 && before & WL_SEAT_CAPABILITY_KEYBOARD.rawValue == 0
        for client in unchecked.clients.values {
            // A client told it may have a keyboard now is owed the keys of the next moments;
            // one that lost the keyboard is owed nothing.
            if keyboardCame { client.keyboardCapabilityTold = router.clock.now }
            if now & WL_SEAT_CAPABILITY_KEYBOARD.rawValue == 0 {
                client.owedKeys.removeAll()
                client.keyboardCapabilityTold = nil
            }
            for seat in client.seats { sendCapabilities(to: seat) }
        }
    }
    /// Capabilities the seat ever had: asking for a device never present is a protocol error.
    private var everHad: DeviceCapabilities = []

    /// Where the focused client last asked the pointer's image to be (wl_pointer.set_cursor),
    /// or nil for a hidden cursor. Only the client with pointer focus can set it, quoting any
    /// serial it was given from the current pointer enter on (clients quote their latest
    /// serial of any kind: foot its latest button's, others a key's), as weston does.
    public var cursor: CursorImage? { unchecked.cursor }
    /// Called after every accepted wl_pointer.set_cursor.
    public var cursorChanged: ((CursorImage?) -> Void)?
    /// The named shape the client with pointer focus last asked for through cursor-shape-v1
    /// (a ``CursorShapeManager``), drawn by the compositor from its own theme; nil once that
    /// client set a cursor surface (or hid it) with wl_pointer.set_cursor, which then holds.
    /// Draw this shape when it is not nil, else ``cursor``.
    public internal(set) var cursorShape: CursorShape?
    /// Called after every accepted `wp_cursor_shape_device_v1.set_shape`, and with nil when a
    /// set_cursor replaces a shape.
    public var cursorShapeChanged: ((CursorShape?) -> Void)?

    /// Who answers for surface roles, region contents and the wl_outputs a client bound
    /// (set_cursor, pointer-constraint regions, the cursor surface's `wl_surface.enter`).
    ///
    /// The seat keeps it: `seat.surfaceRoles = MyShell()` is enough. A provider that refers
    /// back to the seat holds it `unowned` or `weak` (as `HeadlessShell` does), or the two
    /// keep each other alive. Without a provider a cursor surface gets no role check, a
    /// constraint's region counts as the whole surface and cursor surfaces are told of no
    /// output: the seat logs a warning (``logger``) the first time that matters.
    public var surfaceRoles: (any WaylandSurfaceRoles)?
    /// Whether the missing ``surfaceRoles`` was logged.
    private var warnedOfNoSurfaceRoles = false

    /// The provider, or nil with a warning logged once: no provider is a setup mistake.
    func surfaceRolesOrWarn(_ need: String) -> (any WaylandSurfaceRoles)? {
        if let surfaceRoles { return surfaceRoles }
        if !warnedOfNoSurfaceRoles {
            warnedOfNoSurfaceRoles = true
            logger.warning("the seat has no surfaceRoles: \(need) unchecked (set seat.surfaceRoles to your wl_compositor's answers)")
        }
        return nil
    }
    /// The output the cursor surface was told it entered (wl_surface.enter). Strong, not
    /// weak: compared with the output under the pointer on every motion with a cursor set,
    /// a weak load each time, and a weak reference gave the output a side table (its retains
    /// on the pointer's path the runtime's slow path). Replaced when the pointer reaches
    /// another output, cleared with the cursor.
    private var cursorOutput: Output? {
        get { unchecked.cursorOutput }
        set { unchecked.cursorOutput = newValue }
    }
    /// Cursor surfaces the seat listens to the destruction of.
    private var watchedCursorSurfaces: Set<OpaquePointer> = []

    /// The hot state, exempt from run-time exclusivity checks (the rules are in
    /// UnsafeFoundations.swift). The state read for every event is kept there (here, in
    /// SeatClient and in ClientSurfaceResponder): everything runs on the loop's thread, and
    /// the dynamic checks were 9% of the kiosk's instructions per pointer motion under
    /// callgrind.
    struct HotState {
        var clients: [ClientID: SeatClient] = [:]
        /// The modifier state last reported by a key event (the router's key interpreter).
        var modifierMasks = ModifierMasks()
        var storedConstraints: [PointerConstraint] = []
        /// Backs ``cursor`` and `cursorOutput`, read on every pointer motion: as stored
        /// properties, their exclusivity checks cost ~76 instructions a mouse frame in the
        /// kiosk (issue 25, eleventh round).
        var cursor: CursorImage?
        var cursorOutput: Output?
    }

    @exclusivity(unchecked) var unchecked = HotState()

    /// The seat as its protocol objects and surface responders refer to it: without a weak
    /// reference, which would give the seat a side table (``SeatHandle``).
    let handle = SeatHandle()

    /// The client surfaces with pointer and keyboard focus, as told to clients. Strong, not
    /// weak (a weak reference gave every surface responder that ever had focus a side table,
    /// and its retains and releases on each event the runtime's slow path): each is cleared
    /// when its surface is left or resigns (``ClientSurfaceResponder/pointerLeft(_:context:)``,
    /// ``ClientSurfaceResponder/didResignFirstResponder(context:)``) and when its wl_surface is
    /// destroyed (``ClientSurfaceResponder/surfaceDestroyed()``), so the seat keeps no
    /// responder past its surface's focus.
    var pointerFocus: ClientSurfaceResponder? {
        didSet {
            if pointerFocus == nil { pointerEnterSerial = nil }
            if pointerFocus !== oldValue { updateConstraints() }
        }
    }
    /// The serial of the enter that gave the focused client the pointer: set_cursor quotes a
    /// serial from this one on.
    var pointerEnterSerial: UInt32?
    var keyboardFocus: ClientSurfaceResponder? {
        didSet {
            guard keyboardFocus !== oldValue else { return }
            keyboardFocusGeneration &+= 1
            // Keys owed to a surface that lost focus were never its: its client, binding a
            // keyboard later, is entered elsewhere or not at all.
            if let old = oldValue, let record = client(old.client), !record.owedKeys.isEmpty { record.owedKeys.removeAll() }
            updateInhibitors()
            updateTextInputFocus()
            updateConstraints()
            for observer in keyboardFocusObservers { observer() }
        }
    }
    private var keyboardFocusObservers: [() -> Void] = []
    /// Counts keyboard focus changes: a virtual keyboard's held key belongs to the focus it
    /// was pressed under, and to no later one (even the same surface again, entered anew).
    private(set) var keyboardFocusGeneration: UInt64 = 0

    /// The client whose surface has keyboard focus, as told to clients (wl_keyboard.enter).
    public var keyboardFocusClient: ClientID? { keyboardFocus?.client }

    /// Calls `observer` whenever keyboard focus moves to another surface or to none: a
    /// data device offers the selection to the newly focused client.
    public func addKeyboardFocusObserver(_ observer: @escaping () -> Void) {
        keyboardFocusObservers.append(observer)
    }

    /// Advertises a wl_seat named `name` on `display`, delivering `router`'s input, and the
    /// `extensions` next to it.
    public init(display: WaylandDisplay, router: Router, name: String = "seat0", keymap: (any KeymapProvider)? = nil,
                extensions: SeatExtensions = .all) {
        self.display = display
        self.wlDisplay = display.display
        self.router = router
        self.name = name
        self.keymap = keymap
        handle.attach(self)
        self.global = Libwayland.createGlobal(display.display, wlSeatInterface, version: Seat.version, owner: self)
        let offered: [(SeatExtensions, UnsafePointer<wl_interface>, Int32, UnsafeRawPointer)] = [
            (.relativePointer, zwp_relative_pointer_manager_v1_wire()!, 1, relativePointerManagerRequests),
            (.pointerGestures, zwp_pointer_gestures_v1_wire()!, 3, pointerGesturesRequests),
            (.pointerConstraints, zwp_pointer_constraints_v1_wire()!, 1, pointerConstraintsRequests),
            (.keyboardShortcutsInhibit, zwp_keyboard_shortcuts_inhibit_manager_v1_wire()!, 1, shortcutsInhibitManagerRequests),
            (.virtualKeyboard, zwp_virtual_keyboard_manager_v1_wire()!, 1, virtualKeyboardManagerRequests),
            (.textInput, zwp_text_input_manager_v3_wire()!, 1, textInputManagerRequests),
            (.inputMethod, zwp_input_method_manager_v2_wire()!, 1, inputMethodManagerRequests),
            (.virtualPointer, zwlr_virtual_pointer_manager_v1_wire()!, 2, virtualPointerManagerRequests),
            (.tablet, zwp_tablet_manager_v2_wire()!, 1, tabletManagerRequests),
        ]
        if extensions.contains(.pointerConstraints) {
            let filter = PointerConstraintFilter(seat: self, flag: constraintFlag)
            constraintFilter = filter
            router.addFilter(filter)
        }
        if extensions.contains(.inputMethod) {
            let resumer = InputMethodGrabResumer(seat: self)
            grabResumer = resumer
            router.addFilter(resumer)
        }
        // The queue, not the seat: held strongly, nothing weak on the per-frame path.
        router.addTouchFrameSink(touchFrames)
        if extensions.contains(.tablet) { watchTabletDevices() }
        for (option, interface, version, requests) in offered where extensions.contains(option) {
            let owner = SeatExtensionGlobal(seat: self, interface: interface, requests: requests)
            extensionOwners.append(owner)
            if let g = Libwayland.createGlobal(display.display, interface, version: version, owner: owner) { extensionGlobals.append(g) }
        }
    }

    deinit {
        handle.detach()
        touchFrames.seatDidGo()
        if let global { Libwayland.destroyGlobal(global) }
        for g in extensionGlobals { Libwayland.destroyGlobal(g) }
    }

    private var extensionOwners: [SeatExtensionGlobal] = []
    /// Tablet seats and the tools seen (TabletV2.swift).
    let tabletV2 = TabletV2State()
    private var extensionGlobals: [OpaquePointer] = []
    /// Keyboard-shortcut inhibitors of every client (SeatExtensions.swift).
    var inhibitors: [ShortcutsInhibitor] = []
    /// Pointer locks and confinements of every client (PointerConstraints.swift).
    var constraints: [PointerConstraint] {
        get { unchecked.storedConstraints }
        set {
            unchecked.storedConstraints = newValue
            let hasConstraints = !newValue.isEmpty
            guard hasConstraints != constraintFlag.unchecked.hasConstraints else { return }
            constraintFlag.unchecked.hasConstraints = hasConstraints
            // The filter is asked about motion only while some client has a constraint.
            if let constraintFilter { router.filteredKindsChanged(constraintFilter) }
        }
    }
    /// The constraints' filter, when the seat offers pointer constraints: told to the router
    /// again each time the first constraint comes or the last goes.
    private var constraintFilter: PointerConstraintFilter?
    /// Whether any client has a pointer constraint, shared (strongly) with the seat's
    /// surface responders and its constraint filter, so that a motion with no constraint
    /// anywhere (nearly every motion) reaches neither the seat nor its constraints.
    let constraintFlag = ConstraintFlag()
    /// Every client's text inputs, and the seat's input method (TextInput.swift).
    var textInputs: [TextInput] = []
    var inputMethod: InputMethod? {
        didSet { inputMethodGrabChanged() }
    }
    /// The filter that lets an input method's displaced keyboard grab take keys again
    /// (TextInput.swift), when the seat offers input methods.
    private var grabResumer: InputMethodGrabResumer?

    /// The seat's input method or its keyboard grab came or went: the grab resumer is asked
    /// about keys only while there is a grab to resume (`InputMethodGrabResumer.filteredKinds`).
    func inputMethodGrabChanged() {
        guard let grabResumer else { return }
        let wanted = inputMethod?.keyboardGrab != nil
        guard grabResumer.isWanted != wanted else { return }
        grabResumer.isWanted = wanted
        router.filteredKindsChanged(grabResumer)
    }

    /// Every virtual keyboard (VirtualKeyboard.swift), for an input method's grab that ends
    /// with keys it forwarded still held.
    var virtualKeyboardObjects: [VirtualKeyboard] = []
    /// Virtual pointers made so far (VirtualPointer.swift numbers their devices).
    var virtualPointerCount: UInt32 = 0

    /// The provider's keymap file as keyboards get it (nil: none, `no_keymap`); the
    /// provider keeps the file while the keymap is unchanged.
    var currentSentKeymapFile: KeymapFile? { currentKeymapFile() }

    // MARK: Input

    /// The clients owed a `wl_touch.frame` when the router says the frame is delivered
    /// (``TouchFrameObserver``), shared with the surface responders (which add to it per
    /// touch event without loading the seat).
    let touchFrames = TouchFrameQueue()

    /// Touch events sent to `client` outside the router's touch frames (a surface left the
    /// tree): they join the frame under way if the client is owed one, else get theirs now.
    func closeTouchFrame(_ client: SeatClient) {
        if !touchFrames.contains(client) { client.sendTouchFrame() }
    }

    /// Sends the `wl_touch.frame` each client is owed. The router tells the seat's queue
    /// itself (`touchFrames`, which it keeps): a seat needs no registering.
    public func routerDidFinishTouchFrame(_ router: Router) { touchFrames.routerDidFinishTouchFrame(router) }

    // MARK: Clients

    func client(_ id: ClientID) -> SeatClient? { unchecked.clients[id] }

    func clientRecord(_ pointer: OpaquePointer) -> SeatClient {
        let id = ClientID(pointer)
        if let existing = unchecked.clients[id] { return existing }
        let record = SeatClient(id: id)
        unchecked.clients[id] = record
        // Teardown lives here: a disconnected client's serials and devices are forgotten.
        // The frame queue lets go of the record with it, the seat there or not: a record in
        // the queue's first place is never forgotten, which the surface responders' usual
        // touch send relies on (it tests the first place, not the record's flag).
        Libwayland.onClientDestroyed(pointer) { [handle, touchFrames] in
            record.unchecked.isForgotten = true
            touchFrames.remove(id)
            guard let seat = handle.seat else { return }
            seat.unchecked.clients[id] = nil
            seat.serials.forget(id)
        }
        return record
    }

    package func bind(client: OpaquePointer, version: UInt32, id: UInt32) {
        let record = clientRecord(client)
        let object = SeatResource(seat: self, client: record)
        guard let resource = Libwayland.createResource(client, wlSeatInterface, version: Int32(version), id: id,
                                                       implementation: seatRequests, object: object) else { return }
        object.resource = resource
        record.seats.append(resource)
        sendCapabilities(to: resource)
        // Told now that it may have a keyboard: owed the keys of the next moments.
        if wireCapabilities(capabilities, virtualKeyboards: virtualKeyboards) & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0 {
            record.keyboardCapabilityTold = router.clock.now
        }
        if version >= WL_SEAT_NAME_SINCE_VERSION { Libwayland.post(resource, WL_SEAT_NAME, .string(name)) }
    }

    private func wireCapabilities(_ c: DeviceCapabilities, virtualKeyboards: Int) -> UInt32 {
        var bits: UInt32 = 0
        // A pen is the pointer of clients without a tablet seat (TabletV2.swift), so a tablet
        // gives the seat a pointer, as in sway.
        if c.contains(.pointer) || c.contains(.tabletTool) { bits |= WL_SEAT_CAPABILITY_POINTER.rawValue }
        if c.contains(.keyboard) || virtualKeyboards > 0 { bits |= WL_SEAT_CAPABILITY_KEYBOARD.rawValue }
        if c.contains(.touch) { bits |= WL_SEAT_CAPABILITY_TOUCH.rawValue }
        return bits
    }

    private func sendCapabilities(to resource: OpaquePointer) {
        Libwayland.post(resource, WL_SEAT_CAPABILITIES, .uint(wireCapabilities(capabilities, virtualKeyboards: virtualKeyboards)))
    }

    fileprivate func createDevice(_ kind: DeviceCapabilities, seat seatResource: OpaquePointer, client record: SeatClient,
                                  wlClient: OpaquePointer, id: UInt32) {
        let version = Libwayland.version(of: seatResource)
        guard everHad.contains(kind) else {
            Libwayland.postError(seatResource, code: WL_SEAT_ERROR_MISSING_CAPABILITY.rawValue,
                                 "the seat never had the \(kind) capability")
            return
        }
        let device = DeviceResource(seat: self, client: record, kind: kind)
        let interface: UnsafePointer<wl_interface>
        let requests: UnsafeRawPointer
        if kind == .pointer {
            (interface, requests) = (wlPointerInterface, pointerRequests)
        } else if kind == .keyboard {
            (interface, requests) = (wlKeyboardInterface, keyboardRequests)
        } else {
            (interface, requests) = (wlTouchInterface, touchRequests)
        }
        guard let resource = Libwayland.createResource(wlClient, interface, version: version, id: id,
                                                       implementation: requests, object: device) else { return }
        device.resource = resource
        if kind == .pointer {
            record.unchecked.pointers.append(resource)
            // A pointer created while this client has focus learns where it is.
            if let focus = pointerFocus, focus.client == record.id { focus.sendPointerEnter(to: [resource]) }
        } else if kind == .keyboard {
            record.unchecked.keyboards.append(resource)
            sendKeymap(to: resource)
            record.sentKeymap = sentKeymapFile
            let owed = record.owedKeys
            record.owedKeys.removeAll()
            record.keyboardCapabilityTold = nil
            if let focus = keyboardFocus, focus.client == record.id {
                // Keys whose presses are owed come as presses, not as held in the enter.
                focus.sendKeyboardEnter(to: [resource], excluding: owed.pressedRealKeys)
                focus.deliverOwedKeys(owed)
            }
        } else {
            record.unchecked.touches.append(resource)
            touchFrames.touchesChanged(record)
        }
    }

    /// `wl_keyboard.keymap` (libwayland duplicates the fd for the client), then repeat_info.
    private func sendKeymap(to keyboard: OpaquePointer) {
        let file = currentKeymapFile()
        if let file {
            Libwayland.post(keyboard, WL_KEYBOARD_KEYMAP, .uint(WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue),
                            .fd(file.fileDescriptor), .uint(UInt32(file.size)))
        } else {
            // No keymap: clients get a valid fd to /dev/null, as the protocol's no_keymap asks.
            let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
            Libwayland.post(keyboard, WL_KEYBOARD_KEYMAP, .uint(WL_KEYBOARD_KEYMAP_FORMAT_NO_KEYMAP.rawValue), .fd(fd), .uint(0))
            close(fd)
        }
        let keyRepeat = keymap?.keyRepeat ?? .standard
        if Libwayland.version(of: keyboard) >= WL_KEYBOARD_REPEAT_INFO_SINCE_VERSION {
            Libwayland.post(keyboard, WL_KEYBOARD_REPEAT_INFO, .int(keyRepeat.wireRate), .int(keyRepeat.wireDelay))
        }
        sentKeymapFile = file
        sentKeyRepeat = keyRepeat
    }

    fileprivate func setCursor(from pointer: OpaquePointer, client record: SeatClient, serial: UInt32,
                               surface: OpaquePointer?, hotspot: (Int32, Int32)) {
        // Honoured only for the client with pointer focus, quoting a serial no older than the
        // current enter and no newer than the display's latest (modular: serials wrap).
        guard let focus = pointerFocus, focus.client == record.id, let enter = pointerEnterSerial,
              serial &- enter <= display.currentSerial &- enter else { return }
        if let surface {
            if let roles = surfaceRolesOrWarn("cursor roles"), !roles.assignCursorRole(to: surface) {
                Libwayland.postError(pointer, code: WL_POINTER_ERROR_ROLE.rawValue, "the surface already has another role")
                return
            }
            if watchedCursorSurfaces.insert(surface).inserted {
                Libwayland.onResourceDestroyed(surface) { [handle] in
                    handle.seat?.watchedCursorSurfaces.remove(surface)
                    handle.seat?.cursorSurfaceDestroyed(surface)
                }
            }
        }
        if cursorShape != nil {
            cursorShape = nil
            cursorShapeChanged?(nil)
        }
        if cursor?.surfaceResource != surface { leaveCursorOutput() }
        unchecked.cursor = surface.map { CursorImage(surfaceResource: $0, hotspotX: hotspot.0, hotspotY: hotspot.1) }
        updateCursorOutput()
        cursorChanged?(cursor)
    }

    /// The client's cursor surface went away: the cursor is hidden.
    func cursorSurfaceDestroyed(_ surface: OpaquePointer) {
        guard cursor?.surfaceResource == surface else { return }
        unchecked.cursor = nil
        cursorOutput = nil
        cursorChanged?(nil)
    }

    /// The pointer moved (or entered a surface): if it is now on another output than the one
    /// the cursor surface was told of, the surface leaves that one and enters the new one.
    /// Per motion this is one lookup of the output under the pointer; nothing is allocated
    /// unless the output changed.
    @inline(__always)
    func pointerMovedForCursor() {
        guard cursor != nil else { return }
        updateCursorOutput()
    }

    private func updateCursorOutput() {
        guard let cursor else { return }
        let now = router.layout.output(at: router.pointerLocation)
        guard now !== cursorOutput else { return }
        leaveCursorOutput()
        guard let now, let roles = surfaceRolesOrWarn("the cursor's outputs") else { return }
        cursorOutput = now
        let surface = cursor.surfaceResource
        for output in roles.outputResources(for: now, client: Libwayland.client(of: surface)) {
            Libwayland.post(surface, WL_SURFACE_ENTER, .object(output))
        }
    }

    /// The cursor surface (still alive) leaves the output it was told it entered.
    private func leaveCursorOutput() {
        defer { cursorOutput = nil }
        guard let cursor, let old = cursorOutput, let roles = surfaceRoles else { return }
        let surface = cursor.surfaceResource
        for output in roles.outputResources(for: old, client: Libwayland.client(of: surface)) {
            Libwayland.post(surface, WL_SURFACE_LEAVE, .object(output))
        }
    }

    /// The display's next serial, recorded as sent to `client`. Inlined into the senders
    /// with ``SerialLog/record(_:_:for:)``'s usual path: with the record inlined here alone,
    /// this became a call of its own (~100 instructions a key frame, issue 25, eleventh round).
    @inline(__always)
    func nextSerial(_ kind: SerialKind, for client: ClientID) -> UInt32 {
        let serial = Libwayland.nextSerial(wlDisplay)
        serials.record(serial, kind, for: client)
        return serial
    }
}

/// The image a client chose for the pointer: its surface (`struct wl_resource *` of a
/// wl_surface) and the hotspot in that surface's local coordinates.
public struct CursorImage: Hashable {
    public var surfaceResource: OpaquePointer
    public var hotspotX: Int32
    public var hotspotY: Int32
    /// "wl_surface@<id>", the client's name for it.
    public var surfaceDescription: String { "wl_surface@\(Libwayland.id(of: surfaceResource))" }
}

/// The clients of a seat owed a `wl_touch.frame` at the end of the router's touch frame.
///
/// Held strongly by the seat and by each of its surface responders, as ``ConstraintFlag`` is:
/// a responder adds its client per touch event through its own `let`, without loading its
/// `unowned` seat (the seat is weakly referenced by its protocol objects, so each such load
/// and its release took the runtime's slow reference-counting path: `swift_unownedRetainStrong`
/// and `doDecrementSlow` per touch event, issue 25).
final class TouchFrameQueue: TouchFrameObserver {
    /// The hot state, exempt from run-time exclusivity checks (the rules are in
    /// UnsafeFoundations.swift).
    struct HotState {
        /// The client in the first place: owed a frame while `owedTouch` or `everyOwed` say
        /// so, the usual only one. Kept (strongly) between frames, so that the usual client, owed a frame touch
        /// after touch, is retained only when another takes its place, not once a frame:
        /// the retain on adding and the release when its frame went cost ~35 instructions a
        /// touch frame in the kiosk (issue 25, eleventh round). A field of its own, not an
        /// array, whose append's uniqueness check and count cost ~30 more (issue 25, eleventh round).
        var first: SeatClient?
        /// `first`'s identity, compared without loading the reference (`first` keeps the
        /// object, so no other can have it): its address's bits, 0 with none (no object is at
        /// 0), compared in one instruction, not an optional's two tests.
        var firstID: UInt = 0
        /// `first` unretained (the core's `Unretained`, rule 2, owned beside it: set with it),
        /// to send its frame without a retain.
        var firstLink: Unretained<SeatClient>?
        /// `first` is owed a frame that is one post: `wl_touch.frame` to this, its one
        /// wl_touch, which a surface responder's usual send (``firstIsOwed(touch:)``) set.
        /// Read alone at the frame's end unless ``everyOwed``: the usual frame's one test,
        /// not the others' count, the trace flag, the first's link and its wl_touch count
        /// (22 → ~14 instructions a frame with the witness, issue 25, nineteenth round). The
        /// resource lives until the frame: the client's teardown clears this first
        /// (``remove(_:)``), and a wl_touch destroyed otherwise clears it
        /// (``touchResourceDestroyed(_:)``).
        var owedTouch: OpaquePointer?
        /// A frame is owed that takes the general path (``sendEveryTouchFrame()``): `first`
        /// is owed one that was added by a general send (several touches or wl_touch
        /// resources, tracing), or others were added after it. `first` is owed a frame
        /// while this or ``owedTouch`` says so.
        var everyOwed = false
        /// The seat is gone (its deinit began): no client has a `usualTouch` from then on,
        /// so the surface responders' usual down and up, which take their serial from what
        /// they keep of the seat, do not test the seat themselves.
        var seatGone = false
        /// The others, in the order they were added (only while `first` is owed one; with
        /// any, ``everyOwed``).
        var others: [SeatClient] = []
    }

    @exclusivity(unchecked) var unchecked = HotState()

    /// Where the surface responders write a touch motion's arguments for libwayland
    /// (``Libwayland/touchMotionUntraced(_:time:id:x:y:into:)``): the queue is what each of
    /// them holds of the seat. Freed in the deinit.
    let wireArguments = WireArguments.allocate()

    deinit { wireArguments.deallocate() }

    /// `client` gets a frame at the end of this one (once, however many of its touches changed),
    /// by the general path. The usual case, the client already first, inline; the others
    /// out of line, so that their calls (a retain, the array's append) do not give a sender
    /// that ends with a post a stack frame of its own.
    @inline(__always)
    func add(_ client: SeatClient) {
        if isFirst(client) {
            unchecked.everyOwed = true
            return
        }
        addOther(client)
    }

    /// Whether `client` is in the first place (owed a frame or not).
    @inline(__always)
    func isFirst(_ client: SeatClient) -> Bool { unchecked.firstID == UInt(bitPattern: ObjectIdentifier(client)) }

    /// Whether the client in the first place is owed a frame.
    @inline(__always)
    private var isFirstOwed: Bool { unchecked.everyOwed || unchecked.owedTouch != nil }

    /// The client in the first place (``isFirst(_:)``), with `touch` its one wl_touch, is
    /// owed a frame: the usual send's, untraced (the caller checked
    /// `Libwayland.traceEvents`). One store.
    @inline(__always)
    func firstIsOwed(touch: OpaquePointer) { unchecked.owedTouch = touch }

    /// ``add(_:)`` for a client not in the first place.
    @inline(never)
    private func addOther(_ client: SeatClient) {
        if isFirstOwed {
            if !unchecked.others.scanContains(where: { $0 === client }) { unchecked.others.append(client) }
            unchecked.everyOwed = true
            return
        }
        takeFirstPlace(client)
        unchecked.everyOwed = true
    }

    /// `client` in the first place, the one there before let go of. Only the first has a
    /// ``SeatClient/HotState/usualTouch``.
    private func takeFirstPlace(_ client: SeatClient?) {
        unchecked.first?.unchecked.usualTouch = nil
        unchecked.firstLink = nil
        unchecked.first = client
        unchecked.firstID = client.map { UInt(bitPattern: ObjectIdentifier($0)) } ?? 0
        unchecked.firstLink = client.map { Unretained($0) }
        if let client { touchesChanged(client) }
    }

    /// `client`'s wl_touch resources changed (or it took the first place): its
    /// ``SeatClient/HotState/usualTouch`` follows, if it is first.
    func touchesChanged(_ client: SeatClient) {
        guard isFirst(client) else { return }
        let touches = client.unchecked.touches
        client.unchecked.usualTouch = !unchecked.seatGone && touches.count == 1 ? touches[0] : nil
    }

    /// The seat's deinit: the queue lives on with the router, its first's `usualTouch` goes.
    func seatDidGo() {
        unchecked.seatGone = true
        unchecked.first?.unchecked.usualTouch = nil
    }

    @inline(__always)
    func contains(_ client: SeatClient) -> Bool {
        (isFirstOwed && isFirst(client))
            || unchecked.others.scanContains(where: { $0 === client })
    }

    /// The client with `id` disconnected: it is owed nothing any more, and not kept.
    func remove(_ id: ClientID) {
        unchecked.others.removeAll { $0.id == id }
        guard let first = unchecked.first, first.id == id else { return }
        // The next in order takes the first place, owed its frame; with none, nobody is.
        unchecked.owedTouch = nil
        if unchecked.everyOwed, !unchecked.others.isEmpty {
            takeFirstPlace(unchecked.others.removeFirst())
        } else {
            takeFirstPlace(nil)
            unchecked.everyOwed = false
        }
    }

    /// A wl_touch resource is being destroyed: if the usual frame was to go to it, the first
    /// client's frame takes the general path (to its wl_touch resources left, if any).
    func touchResourceDestroyed(_ resource: OpaquePointer) {
        guard unchecked.owedTouch == resource else { return }
        unchecked.owedTouch = nil
        unchecked.everyOwed = true
    }

    /// The router delivered a touch frame: each client owed one gets its `wl_touch.frame`,
    /// in the order they were added. Nothing allocated, retained or released per device
    /// frame: the first stays in its field (lent to the send: sending a frame only posts
    /// events, which calls nothing back here), the others' array keeps its storage.
    ///
    /// The others' frames are sent out of line (``sendOthersTouchFrames()``): inline, the
    /// loop over them made this call, once per touch frame, save and restore every register
    /// for the usual case of one client (issue 25, thirteenth round).
    ///
    /// The usual case, the first client owed a frame by the usual sends only
    /// (``owedTouch``, no ``everyOwed``), ends with the frame's post to that wl_touch, a
    /// jump into libwayland with no stack frame here (issue 25, seventeenth round), untraced
    /// as those sends were.
    /// Anything else goes through ``sendEveryTouchFrame()``, a call on the queue, not on the
    /// client: with the client in the register of `self`, this kept that register on the
    /// stack for the call (issue 25, eighteenth round). Always inlined, so that the witness
    /// the router calls is this, not a jump to it (~4 instructions a frame).
    @inline(__always)
    func routerDidFinishTouchFrame(_ router: Router) {
        if unchecked.everyOwed { return sendEveryTouchFrame() }
        guard let touch = unchecked.owedTouch else { return }
        unchecked.owedTouch = nil
        // Untraced as the sends that owed it (each tested `Libwayland.traceEvents`; tracing
        // turned on in between would trace a frame whose events it did not show).
        Libwayland.touchFrameUntraced(touch)
    }

    /// The first's frame, then the others', in the order they were added.
    @inline(never)
    private func sendEveryTouchFrame() {
        unchecked.everyOwed = false
        unchecked.owedTouch = nil
        unchecked.firstLink?.with { $0.sendTouchFrame() }
        sendOthersTouchFrames()
    }

    /// The frames of the clients after the first, in the order they were added.
    @inline(never)
    private func sendOthersTouchFrames() {
        // The count read again each time: a client let go of while its frame is sent must not
        // leave the loop reading past the end.
        var i = 0
        while i < unchecked.others.count {
            unchecked.others[i].sendTouchFrame()
            i += 1
        }
        while !unchecked.others.isEmpty { _ = unchecked.others.popLast() }
    }
}

/// Whether a seat has pointer constraints: read per motion without loading the seat.
final class ConstraintFlag {
    /// The hot state, exempt from run-time exclusivity checks (the rules are in
    /// UnsafeFoundations.swift).
    struct HotState {
        var hasConstraints = false
    }

    @exclusivity(unchecked) var unchecked = HotState()

}

/// One client's seat resources.
final class SeatClient {
    let id: ClientID
    var seats: [OpaquePointer] = []
    /// The hot state, exempt from run-time exclusivity checks (the rules are in
    /// UnsafeFoundations.swift).
    struct HotState {
        var pointers: [OpaquePointer] = []
        var keyboards: [OpaquePointer] = []
        var touches: [OpaquePointer] = []
        /// Its one wl_touch while it has exactly one and is first in its seat's
        /// ``TouchFrameQueue`` and the seat is there, else nil (kept by the queue: ``TouchFrameQueue/touchesChanged(_:)``
        /// and its first place's changes): a surface responder's usual touch send tests this
        /// one field, not the count of `touches` and the queue's first place (issue 25,
        /// nineteenth round, ~3 instructions a touch motion, down or up).
        var usualTouch: OpaquePointer?
        var relativePointers: [OpaquePointer] = []
        /// The modifier state this client was last told.
        var sentModifiers: ModifierMasks?
        /// Set when the client disconnects and the seat forgets this record: a surface's
        /// responder that kept it looks the client up again.
        var isForgotten = false
    }

    @exclusivity(unchecked) var unchecked = HotState()

    var swipeGestures: [OpaquePointer] = []
    var pinchGestures: [OpaquePointer] = []
    var holdGestures: [OpaquePointer] = []
    /// The keymap this client's keyboards were last sent: the seat's, or a virtual keyboard's.
    var sentKeymap: KeymapFile?
    /// Keys sent to this client's focused surface while it had no wl_keyboard yet, just
    /// after it was told it may have one (the keyboard capability came: a virtual keyboard's
    /// keymap, a keyboard plugged in; or it bound wl_seat), delivered in order once it binds
    /// one. Dropped when focus moves or the capability goes; none are kept after
    /// ``owedKeyWindow``, nor more than ``owedKeyLimit`` (a client that does not bind a
    /// keyboard then is not to get stale keys when it binds one later).
    var owedKeys: [OwedKeyboardEvent] = []
    /// When the client was last told the seat has a keyboard while it had none bound.
    var keyboardCapabilityTold: Timestamp?

    /// How long after the keyboard capability was told a client is kept the keys it misses,
    /// by the router's clock: a client binds its wl_keyboard within milliseconds.
    static let owedKeyWindow: Int64 = 1_000_000
    /// At most this many events are kept for a client that has not bound its wl_keyboard.
    static let owedKeyLimit = 256

    /// Keeps `event` for when this client binds a wl_keyboard, if it is still binding one:
    /// it has a wl_seat and was told of the keyboard capability at most ``owedKeyWindow``
    /// ago; after that, only releases and modifiers still join keys already kept (their
    /// presses are there). Past ``owedKeyLimit`` nothing is kept. Returns whether it was kept.
    @discardableResult
    func owe(_ event: OwedKeyboardEvent, now: Timestamp) -> Bool {
        guard !seats.isEmpty else { return false }
        let inWindow = keyboardCapabilityTold.map { now.microseconds - $0.microseconds <= Self.owedKeyWindow } ?? false
        if case .key(_, true, _, _, _) = event, !inWindow { return false }
        guard inWindow || !owedKeys.isEmpty else { return false }
        guard owedKeys.count < Self.owedKeyLimit else {
            // A client that lets this many pile up does not want a keyboard.
            owedKeys.removeAll()
            keyboardCapabilityTold = nil
            return false
        }
        owedKeys.append(event)
        return true
    }


    init(id: ClientID) { self.id = id }

    /// wl_touch.frame to each of the client's wl_touch resources. The usual one resource,
    /// untraced, ends with the post (a jump into libwayland for a caller that ends with this);
    /// the others out of line.
    @inline(__always)
    func sendTouchFrame() {
        if unchecked.touches.count == 1, !Libwayland.traceEvents {
            Libwayland.touchFrameUntraced(unchecked.touches[0])
            return
        }
        sendEachTouchFrame()
    }

    @inline(never)
    private func sendEachTouchFrame() {
        eachTouch { Libwayland.touchFrame($0) }
    }

    // The client's device resources, each passed to `body` in order and read in place: the
    // array loaded out of this record for `scanEach` had its storage retained and released
    // around the loop, per event (~13 instructions each, issue 25, eleventh round). The
    // count is read again each time.

    @inline(__always)
    func eachPointer(_ body: (OpaquePointer) -> Void) {
        var i = 0
        while i < unchecked.pointers.count {
            body(unchecked.pointers[i])
            i += 1
        }
    }

    @inline(__always)
    func eachKeyboard(_ body: (OpaquePointer) -> Void) {
        var i = 0
        while i < unchecked.keyboards.count {
            body(unchecked.keyboards[i])
            i += 1
        }
    }

    @inline(__always)
    func eachTouch(_ body: (OpaquePointer) -> Void) {
        var i = 0
        while i < unchecked.touches.count {
            body(unchecked.touches[i])
            i += 1
        }
    }
}

/// A keyboard event sent while the client had no wl_keyboard (``SeatClient/owedKeys``).
enum OwedKeyboardEvent {
    /// A key; `keymap` is the virtual keyboard's (nil: a real key, in the seat's keymap,
    /// followed by the modifiers the router reported with it).
    case key(UInt32, pressed: Bool, time: UInt32, keymap: KeymapFile?, modifiers: ModifierMasks?)
    /// A virtual keyboard's modifiers, in its keymap.
    case modifiers(ModifierMasks, keymap: KeymapFile)
}

extension [OwedKeyboardEvent] {
    /// Real keys pressed among these and not released after: an enter must not list them
    /// (their presses follow it).
    var pressedRealKeys: [UInt32] {
        var keys: [UInt32] = []
        for case .key(let code, let pressed, _, nil, _) in self {
            if pressed { if !keys.contains(code) { keys.append(code) } } else { keys.removeAll { $0 == code } }
        }
        return keys
    }
}

/// A wl_seat resource.
private final class SeatResource: ResourceObject {
    /// The seat, without a weak reference (``SeatHandle``): nil once the seat is gone.
    var seat: Seat? { seatHandle.seat }
    private let seatHandle: SeatHandle
    let client: SeatClient
    var resource: OpaquePointer?

    init(seat: Seat, client: SeatClient) {
        self.seatHandle = seat.handle
        self.client = client
    }

    package func resourceDestroyed() {
        client.seats.removeAll { $0 == resource }
    }
}

/// A wl_pointer, wl_keyboard or wl_touch resource.
private final class DeviceResource: ResourceObject {
    /// The seat, without a weak reference (``SeatHandle``): nil once the seat is gone.
    var seat: Seat? { seatHandle.seat }
    private let seatHandle: SeatHandle
    let client: SeatClient
    let kind: DeviceCapabilities
    var resource: OpaquePointer?
    /// The seat's frame queue, told when a wl_touch goes (``TouchFrameQueue/touchResourceDestroyed(_:)``),
    /// the seat there or not.
    private let touchFrames: TouchFrameQueue

    init(seat: Seat, client: SeatClient, kind: DeviceCapabilities) {
        self.seatHandle = seat.handle
        self.client = client
        self.kind = kind
        self.touchFrames = seat.touchFrames
    }

    package func resourceDestroyed() {
        client.unchecked.pointers.removeAll { $0 == resource }
        client.unchecked.keyboards.removeAll { $0 == resource }
        client.unchecked.touches.removeAll { $0 == resource }
        touchFrames.touchesChanged(client)
        if let resource { touchFrames.touchResourceDestroyed(resource) }
    }
}

// MARK: Request handlers

private nonisolated(unsafe) let wlSeatInterface = wl_seat_wire()!
private nonisolated(unsafe) let wlPointerInterface = wl_pointer_wire()!
private nonisolated(unsafe) let wlKeyboardInterface = wl_keyboard_wire()!
private nonisolated(unsafe) let wlTouchInterface = wl_touch_wire()!

private func getDevice(_ kind: DeviceCapabilities, _ client: OpaquePointer?, _ resource: OpaquePointer?, _ id: UInt32) {
    guard let object = Libwayland.object(resource, as: SeatResource.self), let client, let resource else { return }
    object.seat?.createDevice(kind, seat: resource, client: object.client, wlClient: client, id: id)
}

private nonisolated(unsafe) let seatRequests = Libwayland.table(wl_seat_requests(
    get_pointer: { client, resource, id in getDevice(.pointer, client, resource, id) },
    get_keyboard: { client, resource, id in getDevice(.keyboard, client, resource, id) },
    get_touch: { client, resource, id in getDevice(.touch, client, resource, id) },
    release: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))

private nonisolated(unsafe) let pointerRequests = Libwayland.table(wl_pointer_requests(
    set_cursor: { _, resource, serial, surface, x, y in
        guard let resource, let device = Libwayland.object(resource, as: DeviceResource.self) else { return }
        device.seat?.setCursor(from: resource, client: device.client, serial: serial, surface: surface, hotspot: (x, y))
    },
    release: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))

private nonisolated(unsafe) let keyboardRequests = Libwayland.table(wl_keyboard_requests(
    release: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))

private nonisolated(unsafe) let touchRequests = Libwayland.table(wl_touch_requests(
    release: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))

