import CWaylandServer
import CWaylandShellProtocols
import SeatKitWayland
import SeatKit

/// What a headless shell tells its compositor.
public protocol HeadlessShellDelegate: AnyObject {
    /// A toplevel committed its first buffer after acknowledging a configure: place its
    /// ``Toplevel/surface`` in an output's tree to make it receive input.
    func shell(_ shell: HeadlessShell, mapped toplevel: Toplevel)
    /// A toplevel lost its buffer or its role object; the shell has already taken its
    /// surface out of the tree, sending the client leave events first.
    func shell(_ shell: HeadlessShell, unmapped toplevel: Toplevel)
    /// A popup (menu, dropdown list) was placed and shown above `toplevel`'s window;
    /// `frame` is in the surface space of the popup's parent. Optional.
    func shell(_ shell: HeadlessShell, mappedPopup popup: Surface, frame: SurfaceRect, of toplevel: Toplevel)
    /// A popup was taken off screen (dismissed, unmapped or destroyed). Optional.
    func shell(_ shell: HeadlessShell, unmappedPopup popup: Surface)
}

extension HeadlessShellDelegate {
    public func shell(_ shell: HeadlessShell, mappedPopup popup: Surface, frame: SurfaceRect, of toplevel: Toplevel) {}
    public func shell(_ shell: HeadlessShell, unmappedPopup popup: Surface) {}
}

/// The globals a client needs to show a window on a compositor that draws nothing:
/// wl_compositor (5), wl_subcompositor (1), wl_shm (1, its own: sizes checked), xdg_wm_base (3),
/// zwlr_layer_shell_v1 (4: panels, on-screen keyboards), the
/// clipboard (wl_data_device_manager 3) and primary selection (zwp_primary_selection 1), zxdg_decoration_manager_v1 (1: every toplevel is decorated
/// server-side, that is, by nobody), zxdg_output_manager_v1 (3) and one wl_output (4) per
/// output. A mapped toplevel's client gets wl_surface.enter for the output it was placed on
/// (so it renders at that output's scale) and leave when it unmaps. wp_viewporter (1: the
/// destination size is the surface's size in SeatKit's tree), wp_fractional_scale_manager_v1
/// (1: the output's `Output/scale` in 120ths) and wp_presentation (1: content presented at
/// the frame tick, on the router's clock). ``offerSessionLock()``
/// adds `ext_session_lock_manager_v1` (SeatKitWayland's `SessionLock`, whose lock surfaces
/// are this shell's wl_surfaces).
///
/// Each wl_surface becomes a SeatKit `Surface` whose responder is a
/// SeatKitWayland `ClientSurfaceResponder`; its frame follows the committed buffer's size (divided by the
/// buffer scale), its input region the committed wl_region. Buffers are released as soon
/// as they are attached and frame callbacks are answered every 16 ms: nothing is drawn.
/// Subsurfaces are placed and stacked with their parent's state, and a synchronized
/// subsurface's commits (the default) wait for its parent's, as wl_subsurface says.
/// xdg_toplevel.move and .resize, asked while a button the client was sent is held on the
/// window, start an interactive move or resize: a SeatKit `PointerGrab` during which the
/// pointer leaves the window and the window's frame origin follows the pointer (a resize
/// also configures the new size with the resizing state) until the last button is
/// released (``allowsInteractiveMoveAndResize``; never for fullscreen or maximized windows).
///
/// Real compositors bring their own shell and use `ClientSurfaceResponder` and `DataDevice`
/// directly; this one serves headless kiosks and end-to-end tests.
public final class HeadlessShell {
    public unowned let seat: Seat
    unowned let display: WaylandDisplay
    public weak var delegate: (any HeadlessShellDelegate)?
    /// The size suggested in every toplevel's first configure; (0, 0) lets the client choose.
    public var suggestedToplevelSize = (width: Int32(0), height: Int32(0))
    /// Whether every toplevel's configure carries the fullscreen state (with
    /// ``suggestedToplevelSize``, the output's size, a client then fills the output and draws
    /// no decorations).
    public var toplevelsAreFullscreen = false
    /// Whether an xdg_surface may get its buffer before the client acknowledged the first
    /// configure, even with its initial commit (the surface then maps at once). xdg-shell
    /// says the client commits without a buffer, waits for the configure and acks it; by
    /// default a buffer attached earlier is the protocol error `unconfigured_buffer`, as in
    /// wlroots and weston. The test clients of wlcs 1.5 (the Wayland Conformance Suites in
    /// Debian 12) attach without waiting (fixed upstream after 1.5, wlcs pull request 324),
    /// as Mir tolerates; the wlcs integration (SeatKitWLCS) turns this on to run them.
    public var acceptsBuffersBeforeConfigure = false
    /// Whether a toplevel is configured as soon as it is made (xdg_surface.get_toplevel), as
    /// Mir does, rather than after its initial commit; its initial commit then sends nothing
    /// more. A compositor may configure at any time, but clients written to the protocol
    /// wait for the configure that answers their initial commit: off by default. wlcs 1.5's
    /// `XdgSurfaceStableTest.gets_configure_event` expects it (its test commits nothing;
    /// fixed upstream after 1.5); the wlcs integration turns it on with the lenient mode.
    public var configuresToplevelsWhenMade = false
    /// Whether xdg_toplevel.move and .resize start an interactive move or resize (a pointer
    /// grab: the window follows the pointer until the last button is released). Never for a
    /// fullscreen or maximized window, nor when ``toplevelsAreFullscreen``.
    public var allowsInteractiveMoveAndResize = true
    /// The interactive move or resize under way.
    var moveResizeGrab: MoveResizeGrab?
    /// Mapped toplevels, oldest first.
    public internal(set) var toplevels: [Toplevel] = []
    /// Shown popups that grab, bottom first.
    var popupGrabs: [Popup] = []
    /// The outside-click filter, told whether any popup grabs (XDGPopup.swift).
    var popupGrabFilter: PopupGrabFilter?

    var globals: [OpaquePointer] = []
    /// The objects behind the globals (libwayland holds them unretained).
    var owners: [GlobalOwner] = []
    /// Layer surfaces (LayerShell.swift).
    var layerShell = LayerShellState()
    private var pendingFrameCallbacks: [FrameCallback] = []
    /// wp_presentation_feedback objects of applied content updates, waiting for the next
    /// frame tick (Presentation.swift).
    var pendingFeedbacks: [PresentationFeedback] = []
    private var frameTickArmed = false
    private var frameTimer: OpaquePointer?
    private lazy var frameTick = CallbackBox { [unowned self] in self.answerFrameCallbacks() }
    var outputs: [OutputGlobal] = []
    /// The clipboard and primary selection (SeatKitWayland's, as any compositor's).
    public let dataDevice: DataDevice
    /// The session lock, once ``offerSessionLock()`` made it (SessionLockSupport.swift).
    public internal(set) var sessionLock: SessionLock?

    public init(display: WaylandDisplay, seat: Seat) {
        self.display = display
        self.seat = seat
        dataDevice = DataDevice(seat: seat)
        let compositor = CompositorGlobal(shell: self)
        let subcompositor = SubcompositorGlobal(shell: self)
        let wmBase = WMBaseGlobal(shell: self)
        let decorations = DecorationManagerGlobal()
        let xdgOutputs = XDGOutputManagerGlobal()
        let offered: [(GlobalOwner, UnsafePointer<wl_interface>, Int32)] = [(compositor, wl_compositor_wire()!, 5),
                                                                           (subcompositor, wl_subcompositor_wire()!, 1),
                                                                           (wmBase, xdg_wm_base_wire()!, 3),
                                                                           (decorations, zxdg_decoration_manager_v1_wire()!, 1),
                                                                           (xdgOutputs, zxdg_output_manager_v1_wire()!, 3)]
        owners = offered.map { $0.0 }
        for (owner, interface, version) in offered {
            if let g = Libwayland.createGlobal(display.display, interface, version: version, owner: owner) { globals.append(g) }
        }
        advertiseSharedMemory()
        advertiseLayerShell()
        advertiseViewporter()
        advertiseFractionalScale()
        advertisePresentation()
        frameTimer = Libwayland.addTimer(display.loop, frameTick)
        seat.surfaceRoles = self
        // The active window (xdg_toplevel's activated state) is the one with keyboard focus.
        seat.addKeyboardFocusObserver { [unowned self] in
            for toplevel in self.toplevels { toplevel.shellSurface?.xdgSurface?.updateActivation() }
        }
        let grabFilter = PopupGrabFilter(shell: self)
        popupGrabFilter = grabFilter
        seat.router.addFilter(grabFilter)
    }

    deinit {
        if let frameTimer { Libwayland.removeSource(frameTimer) }
        for g in globals { Libwayland.destroyGlobal(g) }
    }

    /// Advertises `output` as a wl_output (its mode, position, scale and transform).
    public func advertise(_ output: Output) {
        let global = OutputGlobal(output: output)
        outputs.append(global)
        global.global = Libwayland.createGlobal(display.display, wl_output_wire()!, version: 4, owner: global)
    }

    /// The node standing for a wl_surface resource of this shell's wl_compositor (nil for a
    /// resource of any other implementation): how a compositor that knows a client's surface
    /// by its protocol object (a test harness placing windows) finds it in SeatKit's tree.
    public func surface(forResource resource: OpaquePointer) -> Surface? {
        ShellSurface.of(resource)?.node
    }

    // MARK: Frame callbacks

    func queueFrameCallbacks(_ callbacks: [FrameCallback]) {
        guard !callbacks.isEmpty else { return }
        pendingFrameCallbacks.append(contentsOf: callbacks)
        armFrameTick()
    }

    /// The next frame tick in 16 ms, unless one is already due.
    func armFrameTick() {
        guard !frameTickArmed, let frameTimer else { return }
        frameTickArmed = true
        Libwayland.armTimer(frameTimer, milliseconds: 16)
    }

    private func answerFrameCallbacks() {
        frameTickArmed = false
        let callbacks = pendingFrameCallbacks
        pendingFrameCallbacks.removeAll()
        let now = seat.router.clock.now
        let ms = now.wireMilliseconds
        for callback in callbacks { callback.done(time: ms) }
        presentFeedbacks(at: now)
    }

    // MARK: Toplevels

    func toplevelMapped(_ toplevel: Toplevel) {
        // A new window breaks popup grabs: open menus close (popup_done) before it can
        // take focus, as in Mir.
        if !popupGrabs.isEmpty { dismissGrabs() }
        toplevels.append(toplevel)
        delegate?.shell(self, mapped: toplevel)
        restackLayersOnAllOutputs()
        // The delegate placed it (or not): the client learns its output.
        if let surface = toplevel.shellSurface { updateOutput(of: surface) }
    }

    func toplevelUnmapped(_ toplevel: Toplevel) {
        guard let index = toplevels.firstIndex(where: { $0 === toplevel }) else { return }
        toplevels.remove(at: index)
        endMoveResize(of: toplevel)
        toplevel.shellSurface?.leaveTree()
        if let surface = toplevel.shellSurface { updateOutput(of: surface) }
        delegate?.shell(self, unmapped: toplevel)
    }
}

// MARK: - Surface roles and regions for the seat

extension HeadlessShell: WaylandSurfaceRoles {
    public func assignCursorRole(to surface: OpaquePointer) -> Bool {
        // Every wl_surface of a client comes from this shell's wl_compositor; a resource of
        // another implementation is not read.
        guard let shellSurface = ShellSurface.of(surface) else { return true }
        return shellSurface.assignRole(.cursor)
    }

    public func rectangles(of region: OpaquePointer) -> [SurfaceRect]? {
        Region.of(region)?.rects
    }

    public func outputResources(for output: Output, client: OpaquePointer) -> [OpaquePointer] {
        outputs.first { $0.output === output }?.resources(of: client) ?? []
    }

    public func assignInputPopupRole(to surface: OpaquePointer) -> Bool {
        guard let shellSurface = ShellSurface.of(surface) else { return true }
        return shellSurface.assignRole(.inputPopup)
    }

    /// The surface's node: an input-method popup is shown by the seat, which places it.
    public func node(forSurface surface: OpaquePointer) -> Surface? {
        self.surface(forResource: surface)
    }
}

// MARK: - wl_compositor

private final class CompositorGlobal: GlobalOwner {
    unowned let shell: HeadlessShell
    init(shell: HeadlessShell) { self.shell = shell }

    package func bind(client: OpaquePointer, version: UInt32, id: UInt32) {
        _ = Libwayland.createResource(client, wl_compositor_wire()!, version: Int32(version), id: id,
                                      implementation: compositorRequests, object: self)
    }
}

private nonisolated(unsafe) let compositorRequests = Libwayland.table(wl_compositor_requests(
    create_surface: { client, resource, id in
        guard let client, let resource, let owner = Libwayland.object(resource, as: CompositorGlobal.self) else { return }
        let surface = ShellSurface(shell: owner.shell)
        guard let r = Libwayland.createResource(client, wl_surface_wire()!, version: Libwayland.version(of: resource), id: id,
                                                implementation: surfaceRequests, object: surface) else { return }
        surface.created(resource: r)
    },
    create_region: { client, _, id in
        guard let client else { return }
        _ = Libwayland.createResource(client, wl_region_wire()!, version: 1, id: id, implementation: regionRequests, object: Region())
    }
))

// MARK: - wl_region

/// A wl_region: rectangles added and subtracted in order, kept as a union of rectangles.
final class Region {
    var rects: [SurfaceRect] = []

    /// The region behind a wl_region of this shell's implementation; nil for any other.
    static func of(_ resource: OpaquePointer) -> Region? {
        guard Libwayland.isInstance(resource, of: wl_region_wire()!, implementation: regionRequests) else { return nil }
        return Libwayland.object(resource, as: Region.self)
    }

    func add(_ r: SurfaceRect) { if !r.isEmpty { rects.append(r) } }

    func subtract(_ cut: SurfaceRect) {
        var result: [SurfaceRect] = []
        for r in rects {
            let overlap = r.intersection(cut)
            if overlap.isEmpty {
                result.append(r)
                continue
            }
            // Up to four pieces of r around the overlap: above, below, left, right.
            let pieces = [
                SurfaceRect(x: r.minX, y: r.minY, width: r.size.width, height: overlap.minY - r.minY),
                SurfaceRect(x: r.minX, y: overlap.maxY, width: r.size.width, height: r.maxY - overlap.maxY),
                SurfaceRect(x: r.minX, y: overlap.minY, width: overlap.minX - r.minX, height: overlap.size.height),
                SurfaceRect(x: overlap.maxX, y: overlap.minY, width: r.maxX - overlap.maxX, height: overlap.size.height),
            ]
            result.append(contentsOf: pieces.filter { !$0.isEmpty })
        }
        rects = result
    }
}

private func rect(_ x: Int32, _ y: Int32, _ w: Int32, _ h: Int32) -> SurfaceRect {
    SurfaceRect(x: Double(x), y: Double(y), width: Double(max(0, w)), height: Double(max(0, h)))
}

private nonisolated(unsafe) let regionRequests = Libwayland.table(wl_region_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    add: { _, resource, x, y, w, h in Libwayland.object(resource, as: Region.self)?.add(rect(x, y, w, h)) },
    subtract: { _, resource, x, y, w, h in Libwayland.object(resource, as: Region.self)?.subtract(rect(x, y, w, h)) }
))

// MARK: - wl_surface

/// A wl_callback waiting for the next frame; forgotten if the client destroys it first.
final class FrameCallback: ResourceObject {
    var resource: OpaquePointer?
    func done(time: UInt32) {
        guard let resource else { return }
        Libwayland.post(resource, WL_CALLBACK_DONE, .uint(time))
        Libwayland.destroyResource(resource)
    }
    package func resourceDestroyed() { resource = nil }
}

/// The role a wl_surface took: once set it never changes (wl_surface's role rule).
enum SurfaceRole: Equatable { case none, xdgToplevel, xdgPopup, subsurface, cursor, inputPopup, layer
    case lockSurface  // ext-session-lock-v1 (SessionLockSupport.swift)
}

/// A client's wl_surface, and the SeatKit surface that stands for it in the tree.
final class ShellSurface: ResourceObject {
    unowned let shell: HeadlessShell
    var resource: OpaquePointer?
    /// The node in SeatKit's tree; its responder sends input to the client.
    private(set) var node: Surface!
    var responder: ClientSurfaceResponder!
    private(set) var role = SurfaceRole.none

    /// Double-buffered state: what the next commit takes.
    var pending = CommitState()
    /// A synchronized subsurface's committed state, waiting for its parent's state to be
    /// applied (wl_subsurface: "cached state").
    private var cached: CommitState?
    private(set) var hasBuffer = false
    /// A buffer is attached but not committed yet.
    var hasPendingBuffer: Bool {
        if case .some(.some) = pending.bufferSize { return true }
        return false
    }
    private var bufferSize = (Int32(0), Int32(0))
    private var scale: Int32 = 1

    /// The output this surface was told it entered.
    var enteredOutput: OutputGlobal?
    /// The xdg_surface or subsurface that gives the surface its role.
    var xdgSurface: XDGSurface?
    var subsurface: Subsurface?
    /// The zwlr_layer_surface_v1 that gives the surface its role (LayerShell.swift).
    var layerSurface: LayerSurface?
    /// The subsurfaces whose parent this surface is, in no particular order.
    var childSubsurfaces: [Subsurface] = []
    /// Its wp_viewport (Viewporter.swift) and the viewport state last applied.
    weak var viewport: Viewport?
    private var viewportState = ViewportState()
    /// Its wp_fractional_scale_v1 (FractionalScale.swift).
    weak var fractionalScale: FractionalScale?

    init(shell: HeadlessShell) { self.shell = shell }

    /// The surface behind a wl_surface of this shell's implementation; nil for any other.
    static func of(_ resource: OpaquePointer) -> ShellSurface? {
        guard Libwayland.isInstance(resource, of: wl_surface_wire()!, implementation: surfaceRequests) else { return nil }
        return Libwayland.object(resource, as: ShellSurface.self)
    }

    func created(resource: OpaquePointer) {
        self.resource = resource
        responder = ClientSurfaceResponder(seat: shell.seat, surfaceResource: resource)
        node = Surface(name: "wl_surface@\(Libwayland.id(of: resource))", frame: SurfaceRect(x: 0, y: 0, width: 0, height: 0),
                       responder: responder)
    }

    /// Gives the surface `role`; false if it already has another one.
    func assignRole(_ newRole: SurfaceRole) -> Bool {
        if role == newRole { return true }
        guard role == .none else { return false }
        role = newRole
        return true
    }

    func attach(_ buffer: OpaquePointer?) {
        guard let buffer else {
            pending.bufferSize = .some(nil)
            return
        }
        if let xdgSurface, !xdgSurface.checkAttach() { return }
        // Nothing is drawn: the buffer goes back to the client at once. A buffer of the
        // shell's wl_shm whose file the client cut short is wl_shm's invalid_fd here, where a
        // renderer would die of SIGBUS reading it (SharedMemory.swift); another kind of shm
        // buffer is read once inside libwayland's access guard to the same end.
        if let shm = ShmBuffer.of(buffer) {
            guard shm.fileHoldsBuffer else {
                Libwayland.postError(buffer, code: WL_SHM_ERROR_INVALID_FD.rawValue, "the buffer's file was cut short")
                return
            }
            pending.bufferSize = .some((shm.width, shm.height))
        } else {
            Libwayland.touchShmBuffer(buffer)
            pending.bufferSize = .some(Libwayland.shmBufferSize(buffer) ?? (1, 1))
        }
        Libwayland.post(buffer, WL_BUFFER_RELEASE)
    }

    func setInputRegion(_ region: OpaquePointer?) {
        pending.inputRegion = .some(region.flatMap { Libwayland.object($0, as: Region.self)?.rects })
    }

    func frame(_ client: OpaquePointer, id: UInt32) {
        let callback = FrameCallback()
        callback.resource = Libwayland.createResource(client, wl_callback_wire()!, version: 1, id: id,
                                                      implementation: nil, object: callback)
        pending.callbacks.append(callback)
    }

    func setScale(_ scale: Int32) {
        guard scale > 0 else {
            if let resource { Libwayland.postError(resource, code: WL_SURFACE_ERROR_INVALID_SCALE.rawValue, "scale must be positive") }
            return
        }
        pending.scale = scale
    }

    /// wl_surface.commit: a synchronized subsurface (set_sync, the default, or under a
    /// synchronized parent) caches the state until its parent's state is applied; any other
    /// surface applies it now, with the cached state of its synchronized subsurfaces.
    func commit() {
        if let xdgSurface, !xdgSurface.checkCommit(attaching: pending.bufferSize) { return }
        if let layerSurface, !layerSurface.checkCommit(attaching: pending.bufferSize) { return }
        var state = pending
        pending = CommitState()
        if let subsurface, subsurface.isEffectivelySynchronized {
            if cached == nil { cached = state } else { cached!.merge(state) }
            return
        }
        // A subsurface just made desynchronized may still hold a cached commit: this one
        // comes on top of it.
        if var earlier = cached {
            cached = nil
            earlier.merge(state)
            state = earlier
        }
        let moved = apply(state)
        // A shown surface that grew or shrank under the pointer, changed its input region or
        // moved its subsurfaces: the pointer enters or leaves now, not at its next motion, and a
        // finger still down on a subsurface that moved is told its new point (wl_touch.motion).
        if moved, node.isAttached { refreshInputFocus() }
        // An input method's popup: the seat places it for its new size (and shows it once
        // it has a buffer); its client learns the output it is on.
        if role == .inputPopup, let resource {
            shell.seat.inputPopupCommitted(resource)
            shell.updateOutput(of: self)
        }
        // A lock surface: open menus close, and the session lock gives it keyboard focus.
        if role == .lockSurface, let resource { shell.lockSurfaceCommitted(resource) }
    }

    /// After this surface's subtree moved or changed shape: pointer focus follows, and
    /// touches whose surfaces moved under them hear where they are now.
    private func refreshInputFocus() {
        shell.seat.router.refreshPointerFocus()
        shell.seat.router.refreshTouchLocations()
    }

    /// A subsurface stopped being synchronized (set_desync): its cached state, and its
    /// subsurfaces' all the way down, applies now.
    func subsurfaceBecameDesynchronized() {
        if applyCachedSubtree(), node.isAttached { refreshInputFocus() }
    }

    /// Applies this surface's cached state, if any, and its subsurfaces' all the way down,
    /// as when its parent's state is applied. Returns whether anything moved.
    private func applyCachedSubtree() -> Bool {
        if let state = cached {
            cached = nil
            return apply(state)
        }
        return applySubsurfaceCaches()
    }

    /// The cached state of every subsurface below this surface. By index: a child's state
    /// may add or remove subsurfaces of this surface.
    private func applySubsurfaceCaches() -> Bool {
        var moved = false
        var i = 0
        while i < childSubsurfaces.count {
            let child = childSubsurfaces[i]
            i += 1
            if let surface = child.surface, surface.applyCachedSubtree() { moved = true }
        }
        return moved
    }

    /// Makes `state` current, then the subsurfaces' positions and stacking it carries, then
    /// the cached state of the subsurfaces below (theirs is applied with their parent's, all
    /// the way down, as in Weston). Returns whether anything that input hit-tests against changed.
    private func apply(_ state: CommitState) -> Bool {
        if let s = state.scale { scale = s }
        if let size = state.bufferSize {
            if let size {
                hasBuffer = true
                bufferSize = size
            } else {
                hasBuffer = false
            }
        }
        if let region = state.inputRegion { node.inputRegion = region }
        if let v = state.viewport { viewportState = v }
        var size = Size.zero
        if hasBuffer {
            // The buffer's size in surface-local coordinates, then the viewport's crop and
            // scale: a wp_viewport's destination is the surface's size.
            let buffer = Size(width: Double(bufferSize.0 / scale), height: Double(bufferSize.1 / scale))
            switch Self.viewportSize(buffer: buffer, viewportState) {
            case .success(let s): size = s
            case .failure(let error):
                if let r = viewport?.resource { Libwayland.postError(r, code: error.code, error.message) }
                size = buffer
            }
        }
        var frame = node.frame
        frame.size = size
        var moved = state.inputRegion != nil || frame != node.frame || node.isHidden == hasBuffer
        node.frame = frame
        node.isHidden = !hasBuffer
        for (child, x, y) in state.childPositions where child.parent === self {
            child.surface?.node.frame.origin = SurfacePoint(x: Double(x), y: Double(y))
            moved = true
        }
        for restack in state.restacks where restack.subsurface.parent === self {
            if restack.subsurface.applyPlacement(relativeTo: restack.sibling, above: restack.above) { moved = true }
        }
        shell.queueFrameCallbacks(state.callbacks)
        shell.queuePresentation(state.feedbacks, of: self)
        xdgSurface?.committed()
        layerSurface?.committed()
        if applySubsurfaceCaches() { moved = true }
        return moved
    }

    /// Takes the node out of the tree: the router tells the responder, which tells the
    /// client it lost focus and its touches.
    func leaveTree() {
        node.removeFromParent()
    }

    package func resourceDestroyed() {
        responder.surfaceDestroyed()
        resource = nil
        xdgSurface?.surfaceDestroyed()
        subsurface?.surfaceDestroyed()
        layerSurface?.surfaceDestroyed()
        node.removeFromParent()
        for callback in pending.callbacks + (cached?.callbacks ?? []) { callback.done(time: 0) }
        for feedback in pending.feedbacks + (cached?.feedbacks ?? []) { feedback.discard() }
        pending.feedbacks.removeAll()
        shell.discardFeedbacks(of: self)
        pending.callbacks.removeAll()
        cached = nil
    }
}

private nonisolated(unsafe) let surfaceRequests = Libwayland.table(wl_surface_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    attach: { _, resource, buffer, _, _ in Libwayland.object(resource, as: ShellSurface.self)?.attach(buffer) },
    damage: { _, _, _, _, _, _ in },
    frame: { client, resource, id in
        guard let client else { return }
        Libwayland.object(resource, as: ShellSurface.self)?.frame(client, id: id)
    },
    set_opaque_region: { _, _, _ in },
    set_input_region: { _, resource, region in Libwayland.object(resource, as: ShellSurface.self)?.setInputRegion(region) },
    commit: { _, resource in Libwayland.object(resource, as: ShellSurface.self)?.commit() },
    set_buffer_transform: { _, _, _ in },
    set_buffer_scale: { _, resource, scale in Libwayland.object(resource, as: ShellSurface.self)?.setScale(scale) },
    damage_buffer: { _, _, _, _, _, _ in },
    offset: { _, _, _, _ in }
))

// MARK: - wl_subcompositor

private final class SubcompositorGlobal: GlobalOwner {
    unowned let shell: HeadlessShell
    init(shell: HeadlessShell) { self.shell = shell }

    package func bind(client: OpaquePointer, version: UInt32, id: UInt32) {
        _ = Libwayland.createResource(client, wl_subcompositor_wire()!, version: Int32(version), id: id,
                                      implementation: subcompositorRequests, object: self)
    }
}

/// The double-buffered state of a wl_surface that one commit applies (or, for a
/// synchronized subsurface, caches until its parent's state is applied).
struct CommitState {
    /// nil: no attach; .some(nil): a null buffer; else the buffer's size.
    var bufferSize: (Int32, Int32)?? = nil
    var inputRegion: [SurfaceRect]?? = nil
    var scale: Int32?
    var callbacks: [FrameCallback] = []
    /// wp_viewport's source and destination (Viewporter.swift).
    var viewport: ViewportState?
    /// wp_presentation.feedback objects for this content update (Presentation.swift).
    var feedbacks: [PresentationFeedback] = []
    /// The surface's subsurfaces' positions (set_position is the parent's state).
    var childPositions: [(Subsurface, Int32, Int32)] = []
    /// Its subsurfaces' place_above / place_below, in the order they were asked.
    var restacks: [Restack] = []

    struct Restack {
        let subsurface: Subsurface
        let sibling: ShellSurface
        let above: Bool
    }

    /// `newer` (a later commit) on top of this one: what it set wins, callbacks add up.
    mutating func merge(_ newer: CommitState) {
        if let b = newer.bufferSize { bufferSize = .some(b) }
        if let r = newer.inputRegion { inputRegion = .some(r) }
        if let s = newer.scale { scale = s }
        callbacks += newer.callbacks
        if let v = newer.viewport { viewport = v }
        // The earlier content update is replaced before it was ever shown.
        for feedback in feedbacks { feedback.discard() }
        feedbacks = newer.feedbacks
        for (child, x, y) in newer.childPositions { setPosition(of: child, x, y) }
        restacks += newer.restacks
    }

    mutating func setPosition(of child: Subsurface, _ x: Int32, _ y: Int32) {
        childPositions.removeAll { $0.0 === child }
        childPositions.append((child, x, y))
    }
}

/// A wl_subsurface: its surface's node is a child of the parent's node. Its position and
/// stacking are the parent's state (applied when the parent's state is); its own surface's
/// commits are cached until then while it is synchronized (the default).
final class Subsurface: ResourceObject {
    weak var surface: ShellSurface?
    weak var parent: ShellSurface?
    /// set_sync (the default) or set_desync.
    private(set) var isSynchronized = true

    init(surface: ShellSurface, parent: ShellSurface) {
        self.surface = surface
        self.parent = parent
        parent.node.addChild(surface.node)
        parent.childSubsurfaces.append(self)
        parent.shell.updateOutput(of: surface)
    }

    /// Synchronized itself or under a synchronized parent: its commits wait for the parent.
    var isEffectivelySynchronized: Bool {
        isSynchronized || (parent?.subsurface?.isEffectivelySynchronized ?? false)
    }

    func setPosition(_ x: Int32, _ y: Int32) {
        parent?.pending.setPosition(of: self, x, y)
    }

    func setSynchronized(_ synchronized: Bool) {
        guard synchronized != isSynchronized else { return }
        isSynchronized = synchronized
        // Desynchronized for good: the cached commit applies now, as wl_subsurface says.
        if !isEffectivelySynchronized { surface?.subsurfaceBecameDesynchronized() }
    }

    /// place_above / place_below: checked now, applied with the parent's next state.
    /// `sibling` may be the parent itself.
    func place(relativeTo sibling: OpaquePointer?, above: Bool, resource: OpaquePointer) {
        guard let parent, surface != nil, let other = Libwayland.object(sibling, as: ShellSurface.self) else { return }
        guard other === parent || (other.subsurface?.parent === parent && other !== surface) else {
            Libwayland.postError(resource, code: WL_SUBSURFACE_ERROR_BAD_SURFACE.rawValue, "not a sibling or the parent")
            return
        }
        parent.pending.restacks.append(CommitState.Restack(subsurface: self, sibling: other, above: above))
    }

    /// Restacks just above (or below) `other`, which may be the parent itself: placed
    /// below its parent, the subsurface is below the parent's own content for input too
    /// (`Surface.isBelowParent`). A move, not a removal: its touches and focus stay. False
    /// if either is no longer a child of the parent.
    func applyPlacement(relativeTo other: ShellSurface, above: Bool) -> Bool {
        guard let parent, let node = surface?.node, node.parent === parent.node else { return false }
        // The parent's children without this one, back to front: those below the parent
        // first, then those above it.
        let others = parent.node.children.filter { $0 !== node }
        if other === parent {
            node.isBelowParent = !above
            // Just above the parent is the bottom of the children above it; just below, the
            // top of those below it: the same index.
            parent.node.insertChild(node, at: others.filter(\.isBelowParent).count)
            return true
        }
        guard other.subsurface?.parent === parent, let index = others.firstIndex(where: { $0 === other.node }) else { return false }
        node.isBelowParent = other.node.isBelowParent
        parent.node.insertChild(node, at: above ? index + 1 : index)
        return true
    }

    func surfaceDestroyed() { surface = nil }

    package func resourceDestroyed() {
        surface?.node.removeFromParent()
        surface?.subsurface = nil
        parent?.childSubsurfaces.removeAll { $0 === self }
        parent = nil
    }
}

private nonisolated(unsafe) let subcompositorRequests = Libwayland.table(wl_subcompositor_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    get_subsurface: { client, resource, id, surfaceResource, parentResource in
        guard let client, let resource,
              let surface = Libwayland.object(surfaceResource, as: ShellSurface.self),
              let parent = Libwayland.object(parentResource, as: ShellSurface.self) else { return }
        if surface === parent || parent.node.isDescendant(of: surface.node) {
            Libwayland.postError(resource, code: WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE.rawValue, "a surface cannot be its own ancestor")
            return
        }
        guard surface.assignRole(.subsurface), surface.subsurface == nil else {
            Libwayland.postError(resource, code: WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE.rawValue, "the surface already has a role")
            return
        }
        let sub = Subsurface(surface: surface, parent: parent)
        surface.subsurface = sub
        _ = Libwayland.createResource(client, wl_subsurface_wire()!, version: 1, id: id, implementation: subsurfaceRequests, object: sub)
    }
))

private nonisolated(unsafe) let subsurfaceRequests = Libwayland.table(wl_subsurface_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    set_position: { _, resource, x, y in Libwayland.object(resource, as: Subsurface.self)?.setPosition(x, y) },
    place_above: { _, resource, sibling in
        guard let resource else { return }
        Libwayland.object(resource, as: Subsurface.self)?.place(relativeTo: sibling, above: true, resource: resource)
    },
    place_below: { _, resource, sibling in
        guard let resource else { return }
        Libwayland.object(resource, as: Subsurface.self)?.place(relativeTo: sibling, above: false, resource: resource)
    },
    set_sync: { _, resource in Libwayland.object(resource, as: Subsurface.self)?.setSynchronized(true) },
    set_desync: { _, resource in Libwayland.object(resource, as: Subsurface.self)?.setSynchronized(false) }
))

// MARK: - wl_output

/// One output's wl_output global and the resources clients bound.
final class OutputGlobal: GlobalOwner {
    let output: Output
    var global: OpaquePointer?
    /// Every bound wl_output, with its client.
    private(set) var resources: [OpaquePointer] = []
    init(output: Output) { self.output = output }

    package func bind(client: OpaquePointer, version: UInt32, id: UInt32) {
        let object = OutputResource(global: self)
        guard let r = Libwayland.createResource(client, wl_output_wire()!, version: Int32(version), id: id,
                                                implementation: outputRequests, object: object) else { return }
        object.resource = r
        resources.append(r)
        Libwayland.post(r, WL_OUTPUT_GEOMETRY, .int(Int32(output.position.x)), .int(Int32(output.position.y)), .int(0), .int(0),
                        .int(Int32(WL_OUTPUT_SUBPIXEL_UNKNOWN.rawValue)), .string("SeatKit"), .string("headless"),
                        .int(output.transform.rawValue))
        Libwayland.post(r, WL_OUTPUT_MODE, .uint(WL_OUTPUT_MODE_CURRENT.rawValue | WL_OUTPUT_MODE_PREFERRED.rawValue),
                        .int(Int32(output.modeSize.width)), .int(Int32(output.modeSize.height)), .int(60_000))
        if version >= WL_OUTPUT_SCALE_SINCE_VERSION { Libwayland.post(r, WL_OUTPUT_SCALE, .int(Int32(output.scale.rounded(.up)))) }
        if version >= WL_OUTPUT_NAME_SINCE_VERSION {
            Libwayland.post(r, WL_OUTPUT_NAME, .string(output.name))
            Libwayland.post(r, WL_OUTPUT_DESCRIPTION, .string("SeatKit headless output \(output.name)"))
        }
        if version >= WL_OUTPUT_DONE_SINCE_VERSION { Libwayland.post(r, WL_OUTPUT_DONE) }
    }

    /// The client's wl_outputs for this output.
    func resources(of client: OpaquePointer) -> [OpaquePointer] {
        resources.filter { Libwayland.client(of: $0) == client }
    }

    fileprivate func forget(_ resource: OpaquePointer) { resources.removeAll { $0 == resource } }

    /// The output behind a wl_output of this shell.
    static func of(_ resource: OpaquePointer) -> OutputGlobal? {
        guard Libwayland.isInstance(resource, of: wl_output_wire()!, implementation: outputRequests) else { return nil }
        return Libwayland.object(resource, as: OutputResource.self)?.global
    }
}

private final class OutputResource: ResourceObject {
    weak var global: OutputGlobal?
    var resource: OpaquePointer?
    init(global: OutputGlobal) { self.global = global }
    package func resourceDestroyed() {
        if let resource { global?.forget(resource) }
    }
}

private nonisolated(unsafe) let outputRequests = Libwayland.table(wl_output_requests(
    release: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))

// MARK: - wl_surface.enter and leave

extension HeadlessShell {
    /// Tells a mapped window's client which output shows it (wl_surface.enter), so that it
    /// renders at that output's scale; leaves the one it was on, if another.
    func updateOutput(of surface: ShellSurface) {
        guard let resource = surface.resource else { return }
        let now = surface.node.parent == nil ? nil : outputs.first { $0.output === surface.node.output }
        // Subsurfaces and popups in its subtree are on the same output.
        defer {
            for child in surface.node.children {
                if let responder = child.responder as? ClientSurfaceResponder, let r = responder.surfaceResource,
                   let shellSurface = ShellSurface.of(r) {
                    updateOutput(of: shellSurface)
                }
            }
        }
        if let now { surface.fractionalScale?.prefer(now.output.scale) }
        guard now !== surface.enteredOutput else { return }
        let client = Libwayland.client(of: resource)
        if let old = surface.enteredOutput {
            for output in old.resources(of: client) { Libwayland.post(resource, WL_SURFACE_LEAVE, .object(output)) }
        }
        if let now {
            for output in now.resources(of: client) { Libwayland.post(resource, WL_SURFACE_ENTER, .object(output)) }
        }
        surface.enteredOutput = now
    }
}

// MARK: - xdg-output

/// zxdg_output_manager_v1 (3): each output's logical position and size (after transform
/// and scale) and its name, which clients use to lay themselves out.
final class XDGOutputManagerGlobal: GlobalOwner {
    package func bind(client: OpaquePointer, version: UInt32, id: UInt32) {
        _ = Libwayland.createResource(client, zxdg_output_manager_v1_wire()!, version: Int32(version), id: id,
                                      implementation: xdgOutputManagerRequests, object: nil)
    }
}

private nonisolated(unsafe) let xdgOutputManagerRequests = Libwayland.table(zxdg_output_manager_v1_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    get_xdg_output: { client, resource, id, outputResource in
        guard let client, let resource, let outputResource, let global = OutputGlobal.of(outputResource) else { return }
        let version = Libwayland.version(of: resource)
        guard let r = Libwayland.createResource(client, zxdg_output_v1_wire()!, version: version, id: id,
                                                implementation: destroyOnlyXDGOutputRequests, object: nil) else { return }
        let output = global.output
        let logical = output.root.frame.size
        Libwayland.post(r, ZXDG_OUTPUT_V1_LOGICAL_POSITION, .int(Int32(output.position.x)), .int(Int32(output.position.y)))
        Libwayland.post(r, ZXDG_OUTPUT_V1_LOGICAL_SIZE, .int(Int32(logical.width)), .int(Int32(logical.height)))
        if version >= ZXDG_OUTPUT_V1_NAME_SINCE_VERSION {
            Libwayland.post(r, ZXDG_OUTPUT_V1_NAME, .string(output.name))
            Libwayland.post(r, ZXDG_OUTPUT_V1_DESCRIPTION, .string("SeatKit headless output \(output.name)"))
        }
        // From version 3 wl_output.done closes the batch; before, xdg_output.done does.
        if version >= 3 {
            if Libwayland.version(of: outputResource) >= WL_OUTPUT_DONE_SINCE_VERSION { Libwayland.post(outputResource, WL_OUTPUT_DONE) }
        } else {
            Libwayland.post(r, ZXDG_OUTPUT_V1_DONE)
        }
    }
))

private nonisolated(unsafe) let destroyOnlyXDGOutputRequests = Libwayland.table(zxdg_output_v1_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))
