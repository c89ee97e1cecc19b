import CWaylandServer
import CWaylandShellProtocols
import SeatKitWayland
import SeatKit

// Interactive move and resize (xdg_toplevel.move and .resize): a pointer grab, as in wlroots
// compositors. The client asks while a button it was sent is held on its window; the
// pointer then leaves the window (the grab takes the pointer), the window follows the
// pointer, and the grab ends at the last button's release, when the pointer enters again.

extension HeadlessShell {
    /// xdg_toplevel.move or .resize from `xdg`'s client quoting `serial`. Honoured when the
    /// serial is a button press the client was sent, a button is still held and the pointer
    /// is on the window (or one of its subsurfaces or popups); ignored otherwise (a touch's
    /// serial, a stale serial, a fullscreen or maximized window, a kiosk's fullscreen
    /// windows), as xdg-shell allows.
    func beginInteractive(_ kind: MoveResizeGrab.Kind, for xdg: XDGSurface, serial: UInt32) {
        guard allowsInteractiveMoveAndResize, !toplevelsAreFullscreen, !xdg.wantsFullscreen, !xdg.wantsMaximized,
              xdg.mapped, let toplevel = xdg.toplevel, let surface = xdg.surface else { return }
        let router = seat.router
        let window = surface.node!
        guard !router.heldButtons.isEmpty, let focus = router.pointerFocus, focus === window || focus.isDescendant(of: window),
              seat.serials.contains(serial, for: surface.responder.client, kinds: [.button]),
              router.pointerGrab == nil, window.isAttached else { return }
        let size = xdg.geometry?.size ?? window.frame.size
        let grab = MoveResizeGrab(kind: kind, toplevel: toplevel, xdg: xdg, pointer: router.pointerLocation,
                                  origin: window.frame.origin, size: size)
        moveResizeGrab = grab
        router.startPointerGrab(grab)
        if case .resize = kind { xdg.beginResize() }
    }
}

/// The pointer grab of an interactive move or resize: the pointer's motion moves the window
/// (or resizes it from the edges the client named, moving it so that the opposite edges
/// stay put); no client sees the pointer meanwhile. Ends at the last button's release, or
/// when the window unmaps. Positions are the window surface's frame origin in its parent's
/// space (the output's root), moved by the pointer's layout-space delta.
final class MoveResizeGrab: PointerGrab {
    enum Kind: Equatable {
        case move
        /// Edges from xdg_toplevel.resize_edge: top 1, bottom 2, left 4, right 8.
        case resize(edges: UInt32)
    }

    let kind: Kind
    weak var toplevel: Toplevel?
    weak var xdg: XDGSurface?
    /// Where the pointer (layout space), the window's origin and its window-geometry size
    /// were when the grab began.
    private let startPointer: LayoutPoint
    private let startOrigin: SurfacePoint
    private let startSize: Size

    init(kind: Kind, toplevel: Toplevel, xdg: XDGSurface, pointer: LayoutPoint, origin: SurfacePoint, size: Size) {
        self.kind = kind
        self.toplevel = toplevel
        self.xdg = xdg
        startPointer = pointer
        startOrigin = origin
        startSize = size
    }

    func pointerMoved(_ event: PointerMotionEvent, router: Router) {
        guard let window = toplevel?.surface, window.isAttached else {
            router.endGrab(self)
            return
        }
        let dx = (event.location.x - startPointer.x).rounded(), dy = (event.location.y - startPointer.y).rounded()
        switch kind {
        case .move:
            window.frame.origin = SurfacePoint(x: startOrigin.x + dx, y: startOrigin.y + dy)
        case .resize(let edges):
            var width = startSize.width, height = startSize.height
            if edges & XDG_TOPLEVEL_RESIZE_EDGE_LEFT.rawValue != 0 { width -= dx }
            if edges & XDG_TOPLEVEL_RESIZE_EDGE_RIGHT.rawValue != 0 { width += dx }
            if edges & XDG_TOPLEVEL_RESIZE_EDGE_TOP.rawValue != 0 { height -= dy }
            if edges & XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM.rawValue != 0 { height += dy }
            width = max(1, width)
            height = max(1, height)
            // The left and top edges follow the pointer: the right and bottom ones stay.
            var origin = startOrigin
            if edges & XDG_TOPLEVEL_RESIZE_EDGE_LEFT.rawValue != 0 { origin.x += startSize.width - width }
            if edges & XDG_TOPLEVEL_RESIZE_EDGE_TOP.rawValue != 0 { origin.y += startSize.height - height }
            window.frame.origin = origin
            xdg?.resize(to: (Int32(width), Int32(height)))
        }
    }

    func pointerButton(_ event: PointerButtonEvent, router: Router) {
        // The client was told its press ended when the pointer left; nothing reaches it.
        if event.state == .released, router.heldButtons.isEmpty { router.endGrab(self) }
    }

    func pointerAxis(_ event: PointerAxisEvent, router: Router) {}
    func touchpadGesture(_ event: TouchpadGestureEvent, router: Router) {}

    func cancel(router: Router) {
        if case .resize = kind { xdg?.endResize() }
        xdg?.shell.moveResizeGrabEnded(self)
    }
}

extension HeadlessShell {
    func moveResizeGrabEnded(_ grab: MoveResizeGrab) {
        if moveResizeGrab === grab { moveResizeGrab = nil }
    }

    /// A window that unmaps ends its move or resize.
    func endMoveResize(of toplevel: Toplevel) {
        if let grab = moveResizeGrab, grab.toplevel === toplevel || grab.toplevel == nil { seat.router.endGrab(grab) }
    }
}

extension XDGSurface {
    /// Resize edges xdg-shell defines (none, single edges, corners).
    static func isValidResizeEdge(_ edges: UInt32) -> Bool {
        [0, 1, 2, 4, 5, 6, 8, 9, 10].contains(edges)
    }
}
