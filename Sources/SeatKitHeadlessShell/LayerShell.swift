import CWaylandServer
import CWaylandShellProtocols
import SeatKit
import SeatKitWayland

// zwlr_layer_shell_v1 (4): panels, docks, wallpapers, on-screen keyboards, lock screens'
// overlays.
//
// A layer surface is a SeatKit surface like any other: its node is a child of its output's
// root, stacked by layer (background and bottom below the windows, top and overlay above
// them, the newest on top within a layer), so hit-testing, the responder chain, grabs and
// filters treat it as any window. The shell places it itself, in output space: anchored to
// the edges it names, `margin` away from them, centred on an axis it is anchored to on
// neither or both sides; sized as asked, or stretched between two opposite anchors (less the
// margins), the size it is configured with. Exclusive zones (a positive zone on a surface
// anchored to one edge, or to one edge and both its neighbours) are taken off the output's
// usable area in layer order, overlay first, and the other surfaces are placed in what is
// left (a zone of -1: on the whole output); maximized toplevels are configured with the
// usable area. Every commit that changes a surface's state lays out the output again and
// configures the surfaces whose size changed.
//
// Keyboard interactivity goes through SeatKit's focus rules (the router's first
// responder): `none` makes the surface unable to become first responder (a click on an
// on-screen keyboard leaves focus in the text field); `on_demand` takes focus when it maps
// and when the compositor's click-to-focus picks it, and gives it up like any window;
// `exclusive` takes focus when it maps and, on the top and overlay layers, keeps it
// (``ClientSurfaceResponder/keepsKeyboardFocus``) until it unmaps or changes its
// interactivity. Popups (zwlr_layer_surface_v1.get_popup) are xdg_popups placed relative to
// the layer surface, children of its node.

/// The layers of zwlr_layer_shell_v1, bottom first: background and bottom are stacked below
/// the windows, top and overlay above them.
public enum ShellLayer: UInt32, CaseIterable, Sendable, CustomStringConvertible {
    case background = 0, bottom = 1, top = 2, overlay = 3

    public var description: String { ["background", "bottom", "top", "overlay"][Int(rawValue)] }
}

typealias Layer = ShellLayer

/// The double-buffered state of a layer surface.
struct LayerState: Equatable {
    var layer = Layer.top
    var width: UInt32 = 0
    var height: UInt32 = 0
    var anchor: UInt32 = 0
    var exclusiveZone: Int32 = 0
    /// Top, right, bottom, left.
    var margin: [Int32] = [0, 0, 0, 0]
    var interactivity = ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_NONE.rawValue

    func anchored(_ edge: zwlr_layer_surface_v1_anchor) -> Bool { anchor & edge.rawValue != 0 }

    /// The edge whose exclusive zone this surface claims: anchored to it alone, or to it and
    /// both its neighbours.
    var exclusiveEdge: zwlr_layer_surface_v1_anchor? {
        let top = ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP, bottom = ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM
        let left = ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT, right = ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT
        switch anchor {
        case top.rawValue, top.rawValue | left.rawValue | right.rawValue: return top
        case bottom.rawValue, bottom.rawValue | left.rawValue | right.rawValue: return bottom
        case left.rawValue, left.rawValue | top.rawValue | bottom.rawValue: return left
        case right.rawValue, right.rawValue | top.rawValue | bottom.rawValue: return right
        default: return nil
        }
    }

    /// Where the surface goes within `area` (output space), and its size.
    func place(in area: SurfaceRect) -> SurfaceRect {
        let (top, right, bottom, left) = (Double(margin[0]), Double(margin[1]), Double(margin[2]), Double(margin[3]))
        func axis(_ low: Bool, _ high: Bool, _ asked: UInt32, _ start: Double, _ length: Double,
                  _ lowMargin: Double, _ highMargin: Double) -> (Double, Double) {
            var size = Double(asked)
            if size == 0, low, high { size = max(0, length - lowMargin - highMargin) }
            if low && !high { return (start + lowMargin, size) }
            if high && !low { return (start + length - size - highMargin, size) }
            if low && high {
                // Stretched, or an asked size centred between the margins.
                return (start + lowMargin + ((length - lowMargin - highMargin - size) / 2).rounded(.down), size)
            }
            return (start + ((length - size) / 2).rounded(.down), size)
        }
        let (x, w) = axis(anchored(ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT), anchored(ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT), width,
                          area.minX, area.size.width, left, right)
        let (y, h) = axis(anchored(ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP), anchored(ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM), height,
                          area.minY, area.size.height, top, bottom)
        return SurfaceRect(x: x, y: y, width: w, height: h)
    }
}

/// The shell's layer surfaces, in the order they mapped.
struct LayerShellState {
    var surfaces: [LayerSurface] = []
    var mapped: ((Surface, String, ShellLayer) -> Void)?
    var unmapped: ((Surface) -> Void)?
    /// Each output's usable area at its last layout.
    var usableAreas: [ObjectIdentifier: SurfaceRect] = [:]
}

// MARK: - The global

final class LayerShellGlobal: GlobalOwner {
    unowned let shell: HeadlessShell
    init(shell: HeadlessShell) { self.shell = shell }

    package func bind(client: OpaquePointer, version: UInt32, id: UInt32) {
        _ = Libwayland.createResource(client, zwlr_layer_shell_v1_wire()!, version: Int32(version), id: id,
                                      implementation: layerShellRequests, object: self)
    }
}

extension HeadlessShell {
    /// Offers zwlr_layer_shell_v1 (4); part of every headless shell.
    func advertiseLayerShell() {
        let owner = LayerShellGlobal(shell: self)
        owners.append(owner)
        if let g = Libwayland.createGlobal(display.display, zwlr_layer_shell_v1_wire()!, version: 4, owner: owner) { globals.append(g) }
    }

    /// Called when a layer surface (a panel, an on-screen keyboard, a wallpaper) is shown:
    /// its node (already in its output's tree, its frame placed in output space), the
    /// namespace its client gave and its layer. Nothing for the compositor to do: the shell
    /// places and stacks layer surfaces itself.
    public var layerSurfaceMapped: ((_ surface: Surface, _ namespace: String, _ layer: ShellLayer) -> Void)? {
        get { layerShell.mapped }
        set { layerShell.mapped = newValue }
    }

    /// Called when a layer surface is taken off screen (a null buffer, its role object or
    /// its wl_surface destroyed), after its node left the tree.
    public var layerSurfaceUnmapped: ((_ surface: Surface) -> Void)? {
        get { layerShell.unmapped }
        set { layerShell.unmapped = newValue }
    }

    /// The part of `output` (output space) that exclusive zones leave to windows: what
    /// maximized toplevels are configured with.
    public func usableArea(of output: Output) -> SurfaceRect {
        layerLayout(of: output).usable
    }

    /// Lays out the layer surfaces of `output` that have a configure (their initial commit
    /// done): exclusive ones first, top layer down, each taking its zone off the usable
    /// area; then the others in what is left.
    func layerLayout(of output: Output) -> (usable: SurfaceRect, boxes: [(LayerSurface, SurfaceRect)]) {
        let full = SurfaceRect(origin: .zero, size: output.root.frame.size)
        var usable = full
        var boxes: [(LayerSurface, SurfaceRect)] = []
        let mine = layerShell.surfaces.filter { $0.output === output && $0.isConfigured }
        for layer in Layer.allCases.reversed() {
            for s in mine where s.current.layer == layer && s.current.exclusiveZone > 0 {
                let box = s.current.place(in: usable)
                boxes.append((s, box))
                guard let edge = s.current.exclusiveEdge else { continue }
                let m = s.current.margin
                let zone = Double(s.current.exclusiveZone)
                switch edge {
                case ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP:
                    let cut = zone + Double(m[0])
                    usable = SurfaceRect(x: usable.minX, y: usable.minY + cut, width: usable.size.width, height: max(0, usable.size.height - cut))
                case ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM:
                    let cut = zone + Double(m[2])
                    usable = SurfaceRect(x: usable.minX, y: usable.minY, width: usable.size.width, height: max(0, usable.size.height - cut))
                case ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT:
                    let cut = zone + Double(m[3])
                    usable = SurfaceRect(x: usable.minX + cut, y: usable.minY, width: max(0, usable.size.width - cut), height: usable.size.height)
                default:
                    let cut = zone + Double(m[1])
                    usable = SurfaceRect(x: usable.minX, y: usable.minY, width: max(0, usable.size.width - cut), height: usable.size.height)
                }
            }
        }
        for layer in Layer.allCases.reversed() {
            for s in mine where s.current.layer == layer && s.current.exclusiveZone <= 0 {
                boxes.append((s, s.current.place(in: s.current.exclusiveZone < 0 ? full : usable)))
            }
        }
        return (usable, boxes)
    }

    /// Places and configures the layer surfaces of `output` after a change; maximized
    /// toplevels hear of a new usable area. `changed` is configured even if its size is
    /// the same (its state changed).
    func arrangeLayers(on output: Output, changed: LayerSurface? = nil) {
        let before = layerShell.usableAreas[ObjectIdentifier(output)] ?? SurfaceRect(origin: .zero, size: output.root.frame.size)
        let (usable, boxes) = layerLayout(of: output)
        layerShell.usableAreas[ObjectIdentifier(output)] = usable
        for (s, box) in boxes {
            s.box = box
            s.configureIfNeeded(force: s === changed)
            if s.mapped { s.node?.frame.origin = box.origin }
        }
        if before != usable {
            for toplevel in toplevels { toplevel.shellSurface?.xdgSurface?.usableAreaChanged() }
        }
        restackLayers(on: output)
        seat.router.refreshPointerFocus()
    }

    /// Keeps the layer surfaces of `output` stacked by layer around the windows: background
    /// and bottom at the back, top and overlay in front (the delegate adds windows on top;
    /// this runs after it).
    func restackLayers(on output: Output) {
        let root = output.root
        let shown = layerShell.surfaces.filter { $0.mapped && $0.node?.parent === root }
        guard !shown.isEmpty else { return }
        var index = 0
        for layer in [Layer.background, .bottom] {
            for s in shown where s.current.layer == layer {
                if let node = s.node { root.insertChild(node, at: index) }
                index += 1
            }
        }
        for layer in [Layer.top, .overlay] {
            for s in shown where s.current.layer == layer { if let node = s.node { root.bringToFront(node) } }
        }
    }

    /// After the delegate placed a new window: top and overlay layers stay above it.
    func restackLayersOnAllOutputs() {
        for output in outputs { restackLayers(on: output.output) }
    }
}

// MARK: - A layer surface

/// A zwlr_layer_surface_v1.
final class LayerSurface: ResourceObject {
    weak var surface: ShellSurface?
    unowned let shell: HeadlessShell
    var resource: OpaquePointer?
    weak var output: Output?
    let namespace: String
    var pending = LayerState()
    private(set) var current = LayerState()
    /// The initial commit was answered with a configure (reset by an unmap).
    private(set) var isConfigured = false
    private var acked = false
    private var sentSerials: [UInt32] = []
    private var lastSize: (UInt32, UInt32)?
    private(set) var mapped = false
    /// Where the layout put it, output space.
    var box = SurfaceRect(x: 0, y: 0, width: 0, height: 0)

    var node: Surface? { surface?.node }

    init(surface: ShellSurface, shell: HeadlessShell, output: Output?, layer: Layer, namespace: String) {
        self.surface = surface
        self.shell = shell
        self.output = output
        self.namespace = namespace
        pending.layer = layer
        current.layer = layer
        // Interactivity `none` until the client says otherwise.
        surface.responder.acceptsKeyboardFocus = false
    }

    /// Checks the state a commit would apply; false (after posting an error) rejects it.
    func checkCommit(attaching buffer: (Int32, Int32)??) -> Bool {
        guard let resource else { return true }
        let s = pending
        if (s.width == 0 && !(s.anchored(ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT) && s.anchored(ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT)))
            || (s.height == 0 && !(s.anchored(ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP) && s.anchored(ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM))) {
            Libwayland.postError(resource, code: ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SIZE.rawValue,
                                 "a width or height of 0 needs anchors on both sides of that axis")
            return false
        }
        if case .some(.some) = buffer, !acked, !shell.acceptsBuffersBeforeConfigure {
            Libwayland.postError(resource, code: ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SURFACE_STATE.rawValue,
                                 "a buffer was attached before the first configure was acknowledged")
            return false
        }
        return true
    }

    /// After the wl_surface's state applied.
    func committed() {
        guard let surface, resource != nil, let output else { return }
        let changed = pending != current
        let interactivityChanged = pending.interactivity != current.interactivity || pending.layer != current.layer
        current = pending
        if !isConfigured {
            isConfigured = true
            shell.arrangeLayers(on: output, changed: self)
            guard surface.hasBuffer, acked || shell.acceptsBuffersBeforeConfigure else { return }
        } else if changed {
            shell.arrangeLayers(on: output, changed: self)
        }
        if surface.hasBuffer, acked || shell.acceptsBuffersBeforeConfigure, !mapped {
            map(on: output)
        } else if !surface.hasBuffer, mapped {
            unmap()
        } else if mapped, interactivityChanged {
            applyInteractivity(mapping: false)
        }
    }

    func configureIfNeeded(force: Bool) {
        guard let resource, isConfigured else { return }
        let size = (UInt32(max(0, box.size.width)), UInt32(max(0, box.size.height)))
        guard force || lastSize.map({ $0 != size }) ?? true else { return }
        lastSize = size
        let serial = shell.display.nextSerial()
        sentSerials.append(serial)
        Libwayland.post(resource, ZWLR_LAYER_SURFACE_V1_CONFIGURE, .uint(serial), .uint(size.0), .uint(size.1))
    }

    func ack(_ serial: UInt32) {
        guard let index = sentSerials.firstIndex(of: serial) else {
            if let resource {
                Libwayland.postError(resource, code: ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SURFACE_STATE.rawValue, "unknown configure serial")
            }
            return
        }
        sentSerials.removeFirst(index + 1)
        acked = true
    }

    private func map(on output: Output) {
        guard let node, let surface else { return }
        mapped = true
        shell.layerShell.surfaces.removeAll { $0 === self }
        shell.layerShell.surfaces.append(self)
        node.frame.origin = box.origin
        output.root.addChild(node)
        shell.restackLayers(on: output)
        shell.updateOutput(of: surface)
        shell.seat.router.refreshPointerFocus()
        applyInteractivity(mapping: true)
        shell.layerShell.mapped?(node, namespace, current.layer)
    }

    /// Keyboard interactivity as the responder's focus rules: `none` cannot take focus,
    /// `exclusive` on the top and overlay layers keeps it once it has it.
    private func applyInteractivity(mapping: Bool) {
        guard let surface, let node else { return }
        let responder = surface.responder!
        let router = shell.seat.router
        switch current.interactivity {
        case ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_EXCLUSIVE.rawValue:
            responder.acceptsKeyboardFocus = true
            responder.keepsKeyboardFocus = false
            router.becomeFirstResponder(node)
            responder.keepsKeyboardFocus = current.layer == .top || current.layer == .overlay
        case ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_ON_DEMAND.rawValue:
            responder.acceptsKeyboardFocus = true
            responder.keepsKeyboardFocus = false
            if mapping { router.becomeFirstResponder(node) }
        default:
            responder.keepsKeyboardFocus = false
            responder.acceptsKeyboardFocus = false
            if let focus = router.firstResponder, focus === node || focus.isDescendant(of: node) { giveFocusAway() }
        }
    }

    /// Focus leaves this surface for the newest window shown, or nobody.
    private func giveFocusAway() {
        let router = shell.seat.router
        if let window = shell.toplevels.last(where: { $0.surface.isAttached }), router.becomeFirstResponder(window.surface) { return }
        router.resignFirstResponder()
    }

    /// Taken off screen (a null buffer, or the role object destroyed): it starts over with a
    /// new initial commit.
    func unmap() {
        shell.dismissPopups(ofLayerSurface: self)
        let wasConfigured = isConfigured
        isConfigured = false
        acked = false
        lastSize = nil
        if let responder = surface?.responder { responder.keepsKeyboardFocus = false }
        if mapped {
            mapped = false
            shell.layerShell.surfaces.removeAll { $0 === self }
            surface?.leaveTree()
            if let surface { shell.updateOutput(of: surface) }
            if let node { shell.layerShell.unmapped?(node) }
        }
        if wasConfigured, let output { shell.arrangeLayers(on: output) }
    }

    func surfaceDestroyed() {
        unmap()
    }

    package func resourceDestroyed() {
        unmap()
        shell.layerShell.surfaces.removeAll { $0 === self }
        resource = nil
        // The wl_surface keeps its role: it may get a new layer surface.
        if surface?.layerSurface === self { surface?.layerSurface = nil }
    }
}

// MARK: - Requests

private nonisolated(unsafe) let layerShellRequests = Libwayland.table(zwlr_layer_shell_v1_requests(
    get_layer_surface: { client, resource, id, surfaceResource, outputResource, layer, namespace in
        guard let client, let resource, let owner = Libwayland.object(resource, as: LayerShellGlobal.self),
              let surfaceResource, let surface = ShellSurface.of(surfaceResource) else { return }
        let shell = owner.shell
        guard let layer = Layer(rawValue: layer) else {
            Libwayland.postError(resource, code: ZWLR_LAYER_SHELL_V1_ERROR_INVALID_LAYER.rawValue, "unknown layer \(layer)")
            return
        }
        guard surface.layerSurface == nil, surface.xdgSurface == nil, surface.assignRole(.layer) else {
            Libwayland.postError(resource, code: ZWLR_LAYER_SHELL_V1_ERROR_ROLE.rawValue, "the surface already has a role")
            return
        }
        if surface.hasBuffer || surface.hasPendingBuffer {
            Libwayland.postError(resource, code: ZWLR_LAYER_SHELL_V1_ERROR_ALREADY_CONSTRUCTED.rawValue, "the surface already has a buffer")
            return
        }
        let output = outputResource.flatMap { OutputGlobal.of($0)?.output } ?? shell.outputs.first?.output
        let layerSurface = LayerSurface(surface: surface, shell: shell, output: output, layer: layer,
                                        namespace: namespace.map { String(cString: $0) } ?? "")
        guard let r = Libwayland.createResource(client, zwlr_layer_surface_v1_wire()!, version: Libwayland.version(of: resource), id: id,
                                                implementation: layerSurfaceRequests, object: layerSurface) else { return }
        layerSurface.resource = r
        surface.layerSurface = layerSurface
        shell.layerShell.surfaces.append(layerSurface)
        // No output to show it on: the client is told at once.
        if output == nil { Libwayland.post(r, ZWLR_LAYER_SURFACE_V1_CLOSED) }
    },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))

private func layerSurface(_ resource: OpaquePointer?) -> LayerSurface? { Libwayland.object(resource, as: LayerSurface.self) }

private nonisolated(unsafe) let layerSurfaceRequests = Libwayland.table(zwlr_layer_surface_v1_requests(
    set_size: { _, resource, width, height in
        guard let s = layerSurface(resource) else { return }
        s.pending.width = width
        s.pending.height = height
    },
    set_anchor: { _, resource, anchor in
        guard let resource, let s = layerSurface(resource) else { return }
        guard anchor <= 15 else {
            Libwayland.postError(resource, code: ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_ANCHOR.rawValue, "unknown anchor bits \(anchor)")
            return
        }
        s.pending.anchor = anchor
    },
    set_exclusive_zone: { _, resource, zone in layerSurface(resource)?.pending.exclusiveZone = zone },
    set_margin: { _, resource, top, right, bottom, left in layerSurface(resource)?.pending.margin = [top, right, bottom, left] },
    set_keyboard_interactivity: { _, resource, interactivity in
        guard let resource, let s = layerSurface(resource) else { return }
        let highest = Libwayland.version(of: resource) >= ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_ON_DEMAND_SINCE_VERSION
            ? ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_ON_DEMAND.rawValue : ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_EXCLUSIVE.rawValue
        guard interactivity <= highest else {
            Libwayland.postError(resource, code: ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_KEYBOARD_INTERACTIVITY.rawValue,
                                 "unknown keyboard interactivity \(interactivity)")
            return
        }
        s.pending.interactivity = interactivity
    },
    get_popup: { _, resource, popupResource in
        guard let s = layerSurface(resource), let popupResource,
              let popup = Libwayland.object(popupResource, as: Popup.self) else { return }
        popup.setLayerParent(s)
    },
    ack_configure: { _, resource, serial in layerSurface(resource)?.ack(serial) },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    set_layer: { _, resource, layer in
        guard let resource, let s = layerSurface(resource) else { return }
        guard let layer = Layer(rawValue: layer) else {
            // The layer enum belongs to zwlr_layer_shell_v1; its error is the closest.
            Libwayland.postError(resource, code: ZWLR_LAYER_SHELL_V1_ERROR_INVALID_LAYER.rawValue, "unknown layer \(layer)")
            return
        }
        s.pending.layer = layer
    }
))
