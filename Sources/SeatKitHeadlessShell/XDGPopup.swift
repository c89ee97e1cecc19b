import CWaylandServer
import CWaylandShellProtocols
import SeatKit
import SeatKitWayland

// xdg_positioner and xdg_popup: menus, dropdowns and tooltips.
//
// A popup is placed by its positioner relative to its parent's window geometry (anchor
// rectangle, anchor edge, gravity, offset), then kept on the parent's output by the
// constraint adjustments it allows (flip, then slide; resize is not done). Its node is a
// child of the parent's node, so input reaches it above the parent and it moves with it.
//
// A popup that grabs (xdg_popup.grab, quoting the serial of a button, touch or key its
// client just received) takes keyboard focus while it is shown; a button press or touch
// anywhere outside the client's grabbing popups dismisses them all, topmost first
// (popup_done), and that press or touch goes nowhere else. A grab is granted when it quotes
// the serial of a button, touch or key the client got, or when the client has keyboard focus
// (GTK 4.8 quotes serial 0 after a tap; wlroots 0.15 checks no serial at all); otherwise the
// popup is dismissed at once, as the protocol says.

/// What an xdg_positioner was told.
struct PositionerState {
    var size: Size?
    var anchorRect: SurfaceRect?
    var anchor = XDG_POSITIONER_ANCHOR_NONE.rawValue
    var gravity = XDG_POSITIONER_GRAVITY_NONE.rawValue
    var constraintAdjustment: UInt32 = 0
    var offset = Vector(dx: 0, dy: 0)

    var isComplete: Bool { size != nil && anchorRect != nil }

    /// The popup's window geometry relative to the parent's, within `bounds` (the output, in
    /// the same coordinates) as far as the allowed adjustments get it.
    func place(within bounds: SurfaceRect) -> SurfaceRect {
        guard let size, let anchorRect else { return SurfaceRect(x: 0, y: 0, width: 0, height: 0) }
        var x = Self.start(anchorRect.minX, anchorRect.size.width, size.width, edge: horizontal(anchor), gravity: horizontal(gravity)) + offset.dx
        var y = Self.start(anchorRect.minY, anchorRect.size.height, size.height, edge: vertical(anchor), gravity: vertical(gravity)) + offset.dy
        let adjust = constraintAdjustment
        if adjust & XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_X.rawValue != 0, x < bounds.minX || x + size.width > bounds.maxX {
            let flipped = Self.start(anchorRect.minX, anchorRect.size.width, size.width,
                                     edge: -horizontal(anchor), gravity: -horizontal(gravity)) - offset.dx
            if flipped >= bounds.minX && flipped + size.width <= bounds.maxX { x = flipped }
        }
        if adjust & XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_Y.rawValue != 0, y < bounds.minY || y + size.height > bounds.maxY {
            let flipped = Self.start(anchorRect.minY, anchorRect.size.height, size.height,
                                     edge: -vertical(anchor), gravity: -vertical(gravity)) - offset.dy
            if flipped >= bounds.minY && flipped + size.height <= bounds.maxY { y = flipped }
        }
        if adjust & XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_X.rawValue != 0 {
            x = max(bounds.minX, min(x, bounds.maxX - size.width))
        }
        if adjust & XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_Y.rawValue != 0 {
            y = max(bounds.minY, min(y, bounds.maxY - size.height))
        }
        return SurfaceRect(x: x.rounded(.down), y: y.rounded(.down), width: size.width, height: size.height)
    }

    /// Where the popup starts on one axis: the anchor point on the rectangle's edge (-1 low,
    /// 0 middle, 1 high), then the popup extends from it by gravity (-1 toward low, 0
    /// centred, 1 toward high).
    private static func start(_ origin: Double, _ length: Double, _ size: Double, edge: Int, gravity: Int) -> Double {
        let anchor = origin + length * Double(edge + 1) / 2
        switch gravity {
        case 1: return anchor
        case -1: return anchor - size
        default: return anchor - size / 2
        }
    }

    private func horizontal(_ value: UInt32) -> Int {
        switch value {
        case XDG_POSITIONER_ANCHOR_LEFT.rawValue, XDG_POSITIONER_ANCHOR_TOP_LEFT.rawValue, XDG_POSITIONER_ANCHOR_BOTTOM_LEFT.rawValue: return -1
        case XDG_POSITIONER_ANCHOR_RIGHT.rawValue, XDG_POSITIONER_ANCHOR_TOP_RIGHT.rawValue, XDG_POSITIONER_ANCHOR_BOTTOM_RIGHT.rawValue: return 1
        default: return 0
        }
    }

    private func vertical(_ value: UInt32) -> Int {
        switch value {
        case XDG_POSITIONER_ANCHOR_TOP.rawValue, XDG_POSITIONER_ANCHOR_TOP_LEFT.rawValue, XDG_POSITIONER_ANCHOR_TOP_RIGHT.rawValue: return -1
        case XDG_POSITIONER_ANCHOR_BOTTOM.rawValue, XDG_POSITIONER_ANCHOR_BOTTOM_LEFT.rawValue, XDG_POSITIONER_ANCHOR_BOTTOM_RIGHT.rawValue: return 1
        default: return 0
        }
    }
}

/// An xdg_positioner resource (anchor and gravity enums share their values).
final class PositionerObject {
    var state = PositionerState()
}

nonisolated(unsafe) let positionerRequests = Libwayland.table(xdg_positioner_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    set_size: { _, resource, width, height in
        guard let resource, let positioner = Libwayland.object(resource, as: PositionerObject.self) else { return }
        guard width > 0, height > 0 else {
            Libwayland.postError(resource, code: XDG_POSITIONER_ERROR_INVALID_INPUT.rawValue, "size must be positive")
            return
        }
        positioner.state.size = Size(width: Double(width), height: Double(height))
    },
    set_anchor_rect: { _, resource, x, y, width, height in
        guard let resource, let positioner = Libwayland.object(resource, as: PositionerObject.self) else { return }
        guard width >= 0, height >= 0 else {
            Libwayland.postError(resource, code: XDG_POSITIONER_ERROR_INVALID_INPUT.rawValue, "anchor rectangle size must not be negative")
            return
        }
        positioner.state.anchorRect = SurfaceRect(x: Double(x), y: Double(y), width: Double(width), height: Double(height))
    },
    set_anchor: { _, resource, anchor in
        guard let resource, let positioner = Libwayland.object(resource, as: PositionerObject.self) else { return }
        guard anchor <= XDG_POSITIONER_ANCHOR_BOTTOM_RIGHT.rawValue else {
            Libwayland.postError(resource, code: XDG_POSITIONER_ERROR_INVALID_INPUT.rawValue, "unknown anchor \(anchor)")
            return
        }
        positioner.state.anchor = anchor
    },
    set_gravity: { _, resource, gravity in
        guard let resource, let positioner = Libwayland.object(resource, as: PositionerObject.self) else { return }
        guard gravity <= XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT.rawValue else {
            Libwayland.postError(resource, code: XDG_POSITIONER_ERROR_INVALID_INPUT.rawValue, "unknown gravity \(gravity)")
            return
        }
        positioner.state.gravity = gravity
    },
    set_constraint_adjustment: { _, resource, adjustment in
        Libwayland.object(resource, as: PositionerObject.self)?.state.constraintAdjustment = adjustment
    },
    set_offset: { _, resource, x, y in
        Libwayland.object(resource, as: PositionerObject.self)?.state.offset = Vector(dx: Double(x), dy: Double(y))
    },
    set_reactive: { _, _ in }, set_parent_size: { _, _, _, _ in }, set_parent_configure: { _, _, _ in }
))

/// An xdg_popup.
final class Popup: ResourceObject {
    weak var xdgSurface: XDGSurface?
    weak var parent: XDGSurface?
    /// The layer surface that took this popup (zwlr_layer_surface_v1.get_popup), for a popup
    /// made without an xdg parent.
    private(set) weak var layerParent: LayerSurface?
    unowned let shell: HeadlessShell
    var resource: OpaquePointer?
    private var positioner: PositionerState
    /// The placed window geometry, relative to the parent's window geometry.
    private var placement = SurfaceRect(x: 0, y: 0, width: 0, height: 0)
    private var pendingRepositionToken: UInt32?
    private(set) var mapped = false
    private var wantsGrab = false
    private(set) var dismissed = false

    init(xdgSurface: XDGSurface, parent: XDGSurface?, positioner: PositionerState, shell: HeadlessShell) {
        self.xdgSurface = xdgSurface
        self.parent = parent
        self.positioner = positioner
        self.shell = shell
    }

    var node: Surface? { xdgSurface?.surface?.node }

    /// The parent's node: its xdg parent's, or its layer surface's.
    private var parentNode: Surface? { parent?.surface?.node ?? layerParent?.node }
    /// The parent's window geometry origin (a layer surface has no window geometry: its origin).
    private var parentGeometryOrigin: SurfacePoint { parent?.geometryOrigin ?? .zero }

    /// zwlr_layer_surface_v1.get_popup: a popup made without a parent gets the layer surface
    /// as its parent, before its first commit.
    func setLayerParent(_ layerSurface: LayerSurface) {
        guard parent == nil, layerParent == nil, !mapped, !dismissed else { return }
        layerParent = layerSurface
    }

    /// After a commit of the popup's surface.
    func committed(initial: Bool, acked: Bool) {
        guard let surface = xdgSurface?.surface, !dismissed else { return }
        // No parent by its first commit (none from xdg-shell, none from layer-shell): nothing
        // to place it against.
        if initial, parentNode == nil {
            dismiss()
            return
        }
        if initial {
            configure()
            // Strictly, the client acks before it attaches: the buffer comes with a later commit.
            guard acked, surface.hasBuffer else { return }
        }
        if surface.hasBuffer, acked, !mapped {
            map()
        } else if !surface.hasBuffer, mapped {
            unmap()
        }
    }

    /// Places the popup and sends xdg_popup.configure (and repositioned, when asked) and an
    /// xdg_surface.configure.
    private func configure() {
        guard let resource, let xdgSurface else { return }
        placement = positioner.place(within: outputBoundsRelativeToParent())
        // Client-chosen rectangles and offsets can add up beyond 32 bits: clamped, not trapped.
        func wire(_ value: Double) -> Int32 { Int32(clamping: Int(value)) }
        Libwayland.post(resource, XDG_POPUP_CONFIGURE, .int(wire(placement.minX)), .int(wire(placement.minY)),
                        .int(wire(placement.size.width)), .int(wire(placement.size.height)))
        if let token = pendingRepositionToken, Libwayland.version(of: resource) >= XDG_POPUP_REPOSITIONED_SINCE_VERSION {
            Libwayland.post(resource, XDG_POPUP_REPOSITIONED, .uint(token))
        }
        pendingRepositionToken = nil
        xdgSurface.sendSurfaceConfigure()
        if mapped { applyPosition() }
    }

    func reposition(_ state: PositionerState, token: UInt32) {
        positioner = state
        pendingRepositionToken = token
        configure()
    }

    /// The output's logical area in the parent's window-geometry coordinates.
    private func outputBoundsRelativeToParent() -> SurfaceRect {
        guard let parentNode, let output = parentNode.output else {
            return SurfaceRect(x: -1e6, y: -1e6, width: 2e6, height: 2e6)
        }
        var origin = parentNode.frame.origin
        var node = parentNode.parent
        while let current = node, current !== output.root {
            origin = SurfacePoint(x: origin.x + current.frame.minX, y: origin.y + current.frame.minY)
            node = current.parent
        }
        let g = parentGeometryOrigin
        let size = output.root.frame.size
        return SurfaceRect(x: -(origin.x + g.x), y: -(origin.y + g.y), width: size.width, height: size.height)
    }

    private func applyPosition() {
        guard parentNode != nil, let node, let xdgSurface else { return }
        let p = parentGeometryOrigin, own = xdgSurface.geometryOrigin
        node.frame.origin = SurfacePoint(x: p.x + placement.minX - own.x, y: p.y + placement.minY - own.y)
    }

    private func map() {
        guard let parentNode, let node else { return }
        mapped = true
        applyPosition()
        parentNode.addChild(node)
        if let surface = xdgSurface?.surface { shell.updateOutput(of: surface) }
        shell.seat.router.refreshPointerFocus()
        if wantsGrab { shell.beginGrab(self) }
        if let toplevel = shell.toplevels.first(where: { node.isDescendant(of: $0.surface) }) {
            shell.delegate?.shell(shell, mappedPopup: node, frame: node.frame, of: toplevel)
        }
    }

    func unmap() {
        guard mapped else { return }
        mapped = false
        shell.endGrab(self)
        xdgSurface?.surface?.leaveTree()
        if let surface = xdgSurface?.surface { shell.updateOutput(of: surface) }
        if let node { shell.delegate?.shell(shell, unmappedPopup: node) }
    }

    /// popup_done: the client is to destroy it; it is taken off screen now.
    func dismiss() {
        guard !dismissed else { return }
        dismissed = true
        if let resource { Libwayland.post(resource, XDG_POPUP_POPUP_DONE) }
        unmap()
    }

    func grab(serial: UInt32) {
        guard let client = xdgSurface?.surface?.responder.client, !mapped else {
            if let resource {
                Libwayland.postError(resource, code: XDG_POPUP_ERROR_INVALID_GRAB.rawValue, "grab after the popup was mapped")
            }
            return
        }
        // The serial of an input event the client got, or (GTK 4.8 quotes 0 after a tap) the
        // client has keyboard focus, which the user gave it: otherwise refused.
        let focused = (shell.seat.router.firstResponder?.responder as? ClientSurfaceResponder)?.client == client
        guard focused || shell.seat.serials.contains(serial, for: client, kinds: [.button, .touchDown, .key]) else {
            dismiss()
            return
        }
        wantsGrab = true
    }

    func surfaceDestroyed() { unmap() }

    package func resourceDestroyed() {
        // Child popups go first (the protocol makes destroying a parent first an error, but
        // a disconnecting client destroys in any order).
        shell.dismissPopups(of: xdgSurface)
        unmap()
        resource = nil
        if xdgSurface?.popup === self { xdgSurface?.popup = nil }
    }
}

nonisolated(unsafe) let popupRequests = Libwayland.table(xdg_popup_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    grab: { _, resource, _, serial in Libwayland.object(resource, as: Popup.self)?.grab(serial: serial) },
    reposition: { _, resource, positionerResource, token in
        guard let positionerResource, let state = Libwayland.object(positionerResource, as: PositionerObject.self)?.state,
              state.isComplete else { return }
        Libwayland.object(resource, as: Popup.self)?.reposition(state, token: token)
    }
))

// MARK: - Grabs

extension HeadlessShell {
    /// A grabbing popup was shown: it gets keyboard focus and the outside-click rule.
    func beginGrab(_ popup: Popup) {
        popupGrabs.append(popup)
        popupGrabFilter?.grabsShown = true
        if let node = popup.node { _ = seat.router.becomeFirstResponder(node) }
    }

    func endGrab(_ popup: Popup) {
        popupGrabs.removeAll { $0 === popup }
        popupGrabFilter?.grabsShown = !popupGrabs.isEmpty
    }

    /// Dismisses the popups whose parent is `parent`, and theirs, deepest first.
    func dismissPopups(of parent: XDGSurface?) {
        guard let parent else { return }
        for popup in allPopups where popup.parent === parent {
            dismissPopups(of: popup.xdgSurface)
            popup.dismiss()
        }
    }

    /// Every grabbing popup, topmost first.
    func dismissGrabs() {
        for popup in popupGrabs.reversed() { popup.dismiss() }
    }

    private var allPopups: [Popup] { popupGrabs + mappedPopups() }

    private func mappedPopups() -> [Popup] {
        var popups: [Popup] = []
        func walk(_ node: Surface) {
            for child in node.children {
                if let responder = child.responder as? ClientSurfaceResponder, let resource = responder.surfaceResource,
                   let popup = ShellSurface.of(resource)?.xdgSurface?.popup, popup.mapped {
                    popups.append(popup)
                }
                walk(child)
            }
        }
        for toplevel in toplevels { walk(toplevel.surface) }
        for layerSurface in layerShell.surfaces { if let node = layerSurface.node { walk(node) } }
        return popups
    }

    /// Dismisses the popups of a layer surface, and theirs, deepest first.
    func dismissPopups(ofLayerSurface layerSurface: LayerSurface) {
        for popup in allPopups where popup.layerParent === layerSurface {
            dismissPopups(of: popup.xdgSurface)
            popup.dismiss()
        }
    }
}

/// Watches presses and touches while popups grab: one outside them dismisses them all and
/// is taken (the router then takes its release, or the rest of its touch).
final class PopupGrabFilter: InputFilter {
    weak var shell: HeadlessShell?
    /// Whether the shell's `popupGrabs` has any popup: set by `beginGrab` and `endGrab`, the
    /// only edits of that list. Read first, so that a down with no popup grabbing (nearly
    /// every one) does not load the weak `shell` and read its list: that load, the release of
    /// a weakly referenced object and the list's exclusivity check cost about 250
    /// instructions per touch down and button press (issue 25, fifteenth round).
    var grabsShown = false

    init(shell: HeadlessShell) { self.shell = shell }

    /// Buttons and touch downs: the router asks about no other kind (motions, most events,
    /// cost it nothing).
    var filteredKinds: InputEventKinds { [.pointerButton, .touchDown] }

    func filter(_ event: InputEvent, router: Router) -> FilterDecision {
        let point: LayoutPoint
        switch event.kind {
        case .pointerButton(_, .pressed): point = router.pointerLocation
        case .touchDown(_, let location): point = location
        default: return .pass
        }
        guard grabsShown, let shell, !shell.popupGrabs.isEmpty else { return .pass }
        // Hit-tested as the router will route it: on the output the device is mapped to.
        guard isOutsideGrabs(router.surface(at: point, device: event.device)) else { return .pass }
        shell.dismissGrabs()
        return .consume
    }

    private func isOutsideGrabs(_ hit: Surface?) -> Bool {
        guard let shell, let hit else { return true }
        return !shell.popupGrabs.contains { popup in
            guard let node = popup.node else { return false }
            return hit === node || hit.isDescendant(of: node)
        }
    }
}
