import CWaylandServer
import CWaylandShellProtocols
import SeatKitWayland
import SeatKit

// xdg_wm_base (version 3), xdg_surface, xdg_toplevel and xdg_popup (XDGPopup.swift: placed
// by its positioner, with grabs).

final class WMBaseGlobal: GlobalOwner {
    unowned let shell: HeadlessShell
    init(shell: HeadlessShell) { self.shell = shell }

    package func bind(client: OpaquePointer, version: UInt32, id: UInt32) {
        _ = Libwayland.createResource(client, xdg_wm_base_wire()!, version: Int32(version), id: id,
                                      implementation: wmBaseRequests, object: self)
    }
}

/// A window of a client, mapped or not.
public final class Toplevel {
    /// The node standing for the window's wl_surface in SeatKit's tree: add it to an
    /// output's root to give it input. Its frame's size is the committed buffer's.
    public var surface: Surface { shellSurface?.node ?? detached }
    public fileprivate(set) var title = ""
    public fileprivate(set) var appID = ""
    /// The client that owns the window.
    public var client: ClientID? { shellSurface?.responder.client }
    /// The window geometry the client committed (xdg_surface.set_window_geometry) in the
    /// surface's space: the part of ``surface`` that is the window, without shadows. nil:
    /// the whole surface. To put a window's top left corner at a point, place the surface
    /// at that point minus this origin.
    public var windowGeometry: SurfaceRect? { shellSurface?.xdgSurface?.geometry }
    weak var shellSurface: ShellSurface?
    private let detached = Surface(name: "destroyed toplevel", frame: SurfaceRect(x: 0, y: 0, width: 0, height: 0))
    init(shellSurface: ShellSurface) { self.shellSurface = shellSurface }
}

/// An xdg_surface: the configure/ack handshake and the map rule.
final class XDGSurface: ResourceObject {
    weak var surface: ShellSurface?
    unowned let shell: HeadlessShell
    var resource: OpaquePointer?
    var toplevel: Toplevel?
    var toplevelResource: OpaquePointer?
    private var sentSerials: [UInt32] = []
    private var acked = false
    /// Whether a buffer may be attached now: the first configure was acknowledged, or the
    /// shell accepts buffers before that (``HeadlessShell/acceptsBuffersBeforeConfigure``).
    private var configured: Bool { acked || shell.acceptsBuffersBeforeConfigure }
    private(set) var initialCommitDone = false
    /// The toplevel's zxdg_toplevel_decoration_v1, if the client asked for one.
    var decoration: OpaquePointer?
    private(set) var mapped = false
    /// The popup role object, for an xdg_popup.
    var popup: Popup?
    /// The window geometry (set_window_geometry), surface-local: the part of the surface that
    /// is the window, without shadows. nil: the whole surface.
    private(set) var geometry: SurfaceRect?
    private var pendingGeometry: SurfaceRect?

    func setWindowGeometry(_ rect: SurfaceRect) {
        guard let resource else { return }
        guard rect.size.width > 0, rect.size.height > 0 else {
            Libwayland.postError(resource, code: XDG_SURFACE_ERROR_INVALID_SIZE.rawValue, "window geometry must have a positive size")
            return
        }
        pendingGeometry = rect
    }

    /// The window geometry's origin, surface-local.
    var geometryOrigin: SurfacePoint { geometry?.origin ?? .zero }

    init(surface: ShellSurface, shell: HeadlessShell) {
        self.surface = surface
        self.shell = shell
    }

    /// A buffer attached to an xdg_surface without a role object yet (no toplevel, no popup):
    /// no configure can have been acknowledged, so it is `unconfigured_buffer` at once, in
    /// the lenient mode too (wlcs 1.5's clients attach early only to surfaces with a role).
    /// False (after posting the error) rejects the attach.
    func checkAttach() -> Bool {
        guard let resource, toplevelResource == nil, popup == nil, !acked else { return true }
        Libwayland.postError(resource, code: XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER.rawValue,
                             "a buffer was attached to an xdg_surface that has no role yet")
        return false
    }

    /// Checks a commit against the protocol; false (after posting an error) rejects it.
    func checkCommit(attaching buffer: (Int32, Int32)??) -> Bool {
        guard let resource else { return true }
        if case .some(.some) = buffer, !configured {
            Libwayland.postError(resource, code: XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER.rawValue,
                                 "a buffer was attached before the first configure was acknowledged")
            return false
        }
        return true
    }

    func committed() {
        if let pendingGeometry { geometry = pendingGeometry }
        pendingGeometry = nil
        if let popup {
            popup.committed(initial: !initialCommitDone, acked: configured)
            initialCommitDone = true
            return
        }
        guard let surface, toplevelResource != nil, let toplevel else { return }
        if !initialCommitDone {
            initialCommitDone = true
            sendConfigure()
            // Strictly, the client acks before it attaches: the buffer comes with a later commit.
            guard configured, surface.hasBuffer else { return }
        }
        if surface.hasBuffer, configured, !mapped {
            mapped = true
            shell.toplevelMapped(toplevel)
        } else if !surface.hasBuffer, mapped {
            unmap()
        }
    }

    /// ``HeadlessShell/configuresToplevelsWhenMade``: the configure the initial commit would
    /// have sent goes now, and the initial commit sends none.
    func configureWhenMade() {
        guard !initialCommitDone else { return }
        initialCommitDone = true
        sendConfigure()
    }

    /// A new xdg_surface.configure serial, recorded for ack_configure.
    func sendSurfaceConfigure() {
        guard let resource else { return }
        let serial = shell.display.nextSerial()
        sentSerials.append(serial)
        Libwayland.post(resource, XDG_SURFACE_CONFIGURE, .uint(serial))
    }

    /// What the client asked for with set_maximized and set_fullscreen (and their unsets).
    var wantsMaximized = false
    var wantsFullscreen = false
    /// Whether the last configure said activated.
    private(set) var activated = false
    /// The size an interactive resize asked for (window geometry), kept for later
    /// configures; nil: the shell's suggested size.
    private var interactiveSize: (width: Int32, height: Int32)?
    /// An interactive resize is under way: configures carry the resizing state.
    private var resizing = false

    func beginResize() {
        resizing = true
    }

    /// A configure with `size` and the resizing state, if the size changed.
    func resize(to size: (Int32, Int32)) {
        guard interactiveSize.map({ $0 != size }) ?? true else { return }
        interactiveSize = size
        sendConfigure()
    }

    /// The resize ended: a configure without the resizing state, if the window is still
    /// mapped (an unmapped one starts over with its next initial commit).
    func endResize() {
        guard resizing else { return }
        resizing = false
        if mapped { sendConfigure() }
    }

    /// Whether the window should look active: it, or a popup of it, has keyboard focus. Before
    /// it maps, a kiosk's window (fullscreen toplevels) is taken as active: the kiosk focuses
    /// each new window.
    private var shouldBeActivated: Bool {
        guard mapped, let surface else { return shell.toplevelsAreFullscreen }
        guard let focus = shell.seat.router.firstResponder else { return false }
        return focus === surface.node || focus.isDescendant(of: surface.node)
    }

    /// Keyboard focus moved: a window that became (or stopped being) active is configured
    /// with the activated state (or without it).
    func updateActivation() {
        guard toplevelResource != nil, initialCommitDone, shouldBeActivated != activated else { return }
        sendConfigure()
    }

    /// xdg_toplevel.configure then xdg_surface.configure: the suggested size, or the
    /// output's size when maximized or fullscreen; the states maximized, fullscreen and
    /// activated as they are now.
    func sendConfigure() {
        guard resource != nil, let toplevelResource else { return }
        var size = interactiveSize ?? shell.suggestedToplevelSize
        let fullscreen = shell.toplevelsAreFullscreen || wantsFullscreen
        var states: [UInt32] = []
        if wantsMaximized && !fullscreen { states.append(XDG_TOPLEVEL_STATE_MAXIMIZED.rawValue) }
        if fullscreen { states.append(XDG_TOPLEVEL_STATE_FULLSCREEN.rawValue) }
        if fullscreen || wantsMaximized { size = shell.suggestedToplevelSize }
        if (fullscreen || wantsMaximized), size == (0, 0), let output = shell.outputs.first?.output {
            // Maximized: what layer surfaces' exclusive zones leave of the output.
            let area = fullscreen ? output.root.frame.size : shell.usableArea(of: output).size
            size = (Int32(area.width), Int32(area.height))
        }
        activated = shouldBeActivated
        if activated { states.append(XDG_TOPLEVEL_STATE_ACTIVATED.rawValue) }
        if resizing { states.append(XDG_TOPLEVEL_STATE_RESIZING.rawValue) }
        Libwayland.post(toplevelResource, XDG_TOPLEVEL_CONFIGURE, .int(size.width), .int(size.height), .array(states))
        sendSurfaceConfigure()
    }

    /// Exclusive zones changed the output's usable area: a maximized window is configured
    /// with the new size.
    func usableAreaChanged() {
        guard wantsMaximized, !wantsFullscreen, !shell.toplevelsAreFullscreen, initialCommitDone else { return }
        sendConfigure()
    }

    /// set_maximized, set_fullscreen and their unsets: answered with a configure once the
    /// initial commit is done (before it, the initial configure carries them).
    func requestState(maximized: Bool? = nil, fullscreen: Bool? = nil) {
        if let maximized { wantsMaximized = maximized }
        if let fullscreen { wantsFullscreen = fullscreen }
        if initialCommitDone { sendConfigure() }
    }

    func ack(_ serial: UInt32) {
        guard let index = sentSerials.firstIndex(of: serial) else {
            if let resource { Libwayland.postError(resource, code: XDG_SURFACE_ERROR_INVALID_SERIAL.rawValue, "unknown configure serial") }
            return
        }
        sentSerials.removeFirst(index + 1)
        acked = true
    }

    func unmap() {
        // Popups of a window that goes away are dismissed with it.
        shell.dismissPopups(of: self)
        guard mapped, let toplevel else { return }
        mapped = false
        // Unmapped windows start over: a new initial commit gets a new configure.
        initialCommitDone = false
        acked = false
        shell.toplevelUnmapped(toplevel)
    }

    func surfaceDestroyed() {
        popup?.surfaceDestroyed()
        if mapped, let toplevel {
            mapped = false
            shell.toplevelUnmappedAfterDestruction(toplevel)
        }
    }

    package func resourceDestroyed() {
        unmap()
        surface?.xdgSurface = nil
        resource = nil
    }
}

extension HeadlessShell {
    func toplevelUnmappedAfterDestruction(_ toplevel: Toplevel) {
        // The wl_surface is gone: nothing is sent; its node leaves the tree with it. The
        // window leaves `toplevels` first, so that a delegate choosing the next focus while
        // the node is removed never picks the dying window.
        let index = toplevels.firstIndex(where: { $0 === toplevel })
        if let index { toplevels.remove(at: index) }
        endMoveResize(of: toplevel)
        if let s = toplevel.shellSurface { s.node.removeFromParent() }
        if index != nil { delegate?.shell(self, unmapped: toplevel) }
    }
}

final class ToplevelResource: ResourceObject {
    weak var xdgSurface: XDGSurface?
    init(xdgSurface: XDGSurface) { self.xdgSurface = xdgSurface }
    package func resourceDestroyed() {
        xdgSurface?.unmap()
        xdgSurface?.toplevelResource = nil
        xdgSurface?.toplevel = nil
    }
}

private nonisolated(unsafe) let wmBaseRequests = Libwayland.table(xdg_wm_base_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    create_positioner: { client, resource, id in
        guard let client, let resource else { return }
        _ = Libwayland.createResource(client, xdg_positioner_wire()!, version: Libwayland.version(of: resource), id: id,
                                      implementation: positionerRequests, object: PositionerObject())
    },
    get_xdg_surface: { client, resource, id, surfaceResource in
        guard let client, let resource, let owner = Libwayland.object(resource, as: WMBaseGlobal.self),
              let surface = Libwayland.object(surfaceResource, as: ShellSurface.self) else { return }
        if surface.xdgSurface != nil || surface.role == .subsurface || surface.role == .cursor || surface.role == .layer {
            Libwayland.postError(resource, code: XDG_WM_BASE_ERROR_ROLE.rawValue, "the surface already has a role")
            return
        }
        // A buffer committed or only attached: xdg_wm_base.invalid_surface_state (an
        // xdg_surface error code posted on xdg_wm_base would name the wrong error).
        if surface.hasBuffer || surface.hasPendingBuffer {
            Libwayland.postError(resource, code: XDG_WM_BASE_ERROR_INVALID_SURFACE_STATE.rawValue, "the surface already has a buffer")
            return
        }
        let xdg = XDGSurface(surface: surface, shell: owner.shell)
        guard let r = Libwayland.createResource(client, xdg_surface_wire()!, version: Libwayland.version(of: resource), id: id,
                                                implementation: xdgSurfaceRequests, object: xdg) else { return }
        xdg.resource = r
        surface.xdgSurface = xdg
    },
    pong: { _, _, _ in }
))

private nonisolated(unsafe) let xdgSurfaceRequests = Libwayland.table(xdg_surface_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    get_toplevel: { client, resource, id in
        guard let client, let resource, let xdg = Libwayland.object(resource, as: XDGSurface.self),
              let surface = xdg.surface else { return }
        guard surface.assignRole(.xdgToplevel), xdg.toplevelResource == nil else {
            Libwayland.postError(resource, code: XDG_WM_BASE_ERROR_ROLE.rawValue, "the surface already has a role")
            return
        }
        let object = ToplevelResource(xdgSurface: xdg)
        guard let r = Libwayland.createResource(client, xdg_toplevel_wire()!, version: Libwayland.version(of: resource), id: id,
                                                implementation: toplevelRequests, object: object) else { return }
        xdg.toplevelResource = r
        xdg.toplevel = Toplevel(shellSurface: surface)
        if xdg.shell.configuresToplevelsWhenMade { xdg.configureWhenMade() }
    },
    get_popup: { client, resource, id, parentResource, positionerResource in
        guard let client, let resource, let xdg = Libwayland.object(resource, as: XDGSurface.self),
              let surface = xdg.surface else { return }
        guard surface.assignRole(.xdgPopup), xdg.popup == nil, xdg.toplevelResource == nil else {
            Libwayland.postError(resource, code: XDG_WM_BASE_ERROR_ROLE.rawValue, "the surface already has a role")
            return
        }
        guard let positionerResource, let positioner = Libwayland.object(positionerResource, as: PositionerObject.self) else { return }
        guard positioner.state.isComplete else {
            Libwayland.postError(positionerResource, code: XDG_WM_BASE_ERROR_INVALID_POSITIONER.rawValue,
                                 "the positioner needs a size and an anchor rectangle")
            return
        }
        let parent = parentResource.flatMap { Libwayland.object($0, as: XDGSurface.self) }
        let popup = Popup(xdgSurface: xdg, parent: parent, positioner: positioner.state, shell: xdg.shell)
        guard let r = Libwayland.createResource(client, xdg_popup_wire()!, version: Libwayland.version(of: resource), id: id,
                                                implementation: popupRequests, object: popup) else { return }
        popup.resource = r
        xdg.popup = popup
        // A popup with no parent gets one from another protocol (zwlr_layer_surface_v1.get_popup)
        // before its first commit, or is dismissed then.
    },
    set_window_geometry: { _, resource, x, y, width, height in
        Libwayland.object(resource, as: XDGSurface.self)?
            .setWindowGeometry(SurfaceRect(x: Double(x), y: Double(y), width: Double(width), height: Double(height)))
    },
    ack_configure: { _, resource, serial in Libwayland.object(resource, as: XDGSurface.self)?.ack(serial) }
))

private func toplevel(_ resource: OpaquePointer?) -> Toplevel? {
    Libwayland.object(resource, as: ToplevelResource.self)?.xdgSurface?.toplevel
}

private nonisolated(unsafe) let toplevelRequests = Libwayland.table(xdg_toplevel_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    set_parent: { _, _, _ in },
    set_title: { _, resource, title in if let title { toplevel(resource)?.title = String(cString: title) } },
    set_app_id: { _, resource, id in if let id { toplevel(resource)?.appID = String(cString: id) } },
    show_window_menu: { _, _, _, _, _, _ in },
    move: { _, resource, _, serial in
        guard let xdg = xdgSurface(of: resource) else { return }
        xdg.shell.beginInteractive(.move, for: xdg, serial: serial)
    },
    resize: { _, resource, _, serial, edges in
        guard let resource, let xdg = xdgSurface(of: resource) else { return }
        guard XDGSurface.isValidResizeEdge(edges) else {
            Libwayland.postError(resource, code: XDG_TOPLEVEL_ERROR_INVALID_RESIZE_EDGE.rawValue, "not a resize_edge value")
            return
        }
        guard edges != XDG_TOPLEVEL_RESIZE_EDGE_NONE.rawValue else { return }
        xdg.shell.beginInteractive(.resize(edges: edges), for: xdg, serial: serial)
    },
    set_max_size: { _, _, _, _ in },
    set_min_size: { _, _, _, _ in },
    set_maximized: { _, resource in xdgSurface(of: resource)?.requestState(maximized: true) },
    unset_maximized: { _, resource in xdgSurface(of: resource)?.requestState(maximized: false) },
    set_fullscreen: { _, resource, _ in xdgSurface(of: resource)?.requestState(fullscreen: true) },
    unset_fullscreen: { _, resource in xdgSurface(of: resource)?.requestState(fullscreen: false) },
    set_minimized: { _, _ in }
))

private func xdgSurface(of toplevelResource: OpaquePointer?) -> XDGSurface? {
    toplevelResource.flatMap { Libwayland.object($0, as: ToplevelResource.self)?.xdgSurface }
}
