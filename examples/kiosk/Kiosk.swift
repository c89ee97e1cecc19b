import SeatKit
import SeatKitWayland

/// The kiosk's window policy, in one place:
/// - windows are laid out left to right on the one output, in the order they map;
/// - the first window gets keyboard focus, and a click or a touch moves it to the window hit;
/// - when the focused window goes away, focus goes to the newest remaining window.
///
/// It is both the router's compositor delegate (the end of every responder chain) and the
/// shell's delegate (told when windows map and unmap).
final class Kiosk: CompositorDelegate, HeadlessShellDelegate, InputFilter {
    let router: Router
    let seat: Seat
    let shell: HeadlessShell
    let output: Output

    init(router: Router, seat: Seat, shell: HeadlessShell, output: Output) {
        self.router = router
        self.seat = seat
        self.shell = shell
        self.output = output
    }

    // MARK: Windows (HeadlessShellDelegate)

    func shell(_ shell: HeadlessShell, mapped toplevel: Toplevel) {
        // Place the window to the right of those already shown (output space = layout
        // space here: the output sits at the layout's origin).
        let x = shell.toplevels.dropLast().reduce(0.0) { $0 + $1.surface.frame.size.width }
        toplevel.surface.frame.origin = SurfacePoint(x: x, y: 0)
        output.root.addChild(toplevel.surface)
        let size = toplevel.surface.frame.size
        log("mapped \(describe(toplevel)) at \(Int(x)),0 size \(Int(size.width))x\(Int(size.height))")
        if router.firstResponder == nil { focus(toplevel.surface) }
        // The new window may be under the pointer now.
        router.refreshPointerFocus()
        if let waiting = waitingForWindows, shell.toplevels.count >= waiting.count {
            waitingForWindows = nil
            waiting.action()
        }
    }

    /// Runs `action` once `count` windows are mapped (now, if they are): a replay waits for
    /// its clients, so that no input is lost before they can receive it.
    func whenWindowsMapped(_ count: Int, _ action: @escaping () -> Void) {
        if shell.toplevels.count >= count { action() } else { waitingForWindows = (count, action) }
    }

    private var waitingForWindows: (count: Int, action: () -> Void)?

    func shell(_ shell: HeadlessShell, unmapped toplevel: Toplevel) {
        log("unmapped \(describe(toplevel))")
    }

    private func describe(_ toplevel: Toplevel) -> String {
        toplevel.appID.isEmpty ? (toplevel.title.isEmpty ? toplevel.surface.name : toplevel.title) : toplevel.appID
    }

    private func focus(_ surface: Surface) {
        guard router.firstResponder !== surface else { return }
        if router.becomeFirstResponder(surface) { log("focus \(surface.name)") }
    }

    // MARK: Click and tap to focus (InputFilter: sees input before routing, takes nothing)

    func filter(_ event: InputEvent, router: Router) -> FilterDecision {
        switch event.kind {
        case .pointerButton(_, .pressed):
            if let window = window(at: router.pointerLocation) { focus(window) }
        case .touchDown(_, let point):
            if let window = window(at: point) { focus(window) }
        case .key(let keycode, .repeated):
            // The keyboard repeats held keys for the compositor's own responders; client
            // surfaces drop these, since clients repeat from wl_keyboard.repeat_info.
            log("key \(keycode) repeats")
        default:
            break
        }
        return .pass
    }

    /// The window (a child of the output's root) holding a layout-space point.
    private func window(at point: LayoutPoint) -> Surface? {
        var node = router.surface(at: point)
        while let current = node, current.parent !== output.root { node = current.parent }
        return node
    }

    // MARK: CompositorDelegate

    func router(_ router: Router, capabilitiesChanged capabilities: DeviceCapabilities) {
        seat.capabilities = capabilities
        log("capabilities \(capabilities)")
    }

    func router(_ router: Router, firstResponderAfterRemoving removed: Surface, formerParent: Surface) -> Surface? {
        shell.toplevels.last?.surface
    }
}
