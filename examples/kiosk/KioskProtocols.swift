import SeatKit
import SeatKitHeadlessShell
import SeatKitWayland

/// The protocols of issue 26 that the kiosk offers beside its shell, each logged as it acts:
/// ext-session-lock-v1 (a lock screen such as swaylock), ext-idle-notify-v1 and idle-inhibit
/// (swayidle; a video player), on the router's clock, cursor-shape-v1,
/// data control (wl-copy, wl-paste, clipboard managers: any client may read the clipboard), and
/// xdg-activation-v1 with a focus policy.
final class KioskProtocols {
    let sessionLock: SessionLock
    let idle: IdleNotifier
    let cursorShapes: CursorShapeManager
    let dataControl: DataControl
    let activation: XDGActivation

    init(display: WaylandDisplay, seat: Seat, shell: HeadlessShell) {
        sessionLock = shell.offerSessionLock()
        // The kiosk blanks nothing itself: only idle clients (swayidle) need input watched.
        idle = IdleNotifier(seat: seat, activity: .whileNotificationsExist)
        cursorShapes = CursorShapeManager(seat: seat)
        dataControl = DataControl(dataDevice: shell.dataDevice)
        // Activation: a window is focused only with a token its client made while focused,
        // just after input; otherwise the kiosk only notes that it wants attention.
        activation = XDGActivation(seat: seat)
        activation.activate = { [unowned seat] node, _ in
            guard let node, seat.router.becomeFirstResponder(node) else { return }
            log("activated \(node.name)")
        }
        activation.urgencyRequested = { node, _ in log("urgent \(node?.name ?? "unknown surface")") }
        // A real compositor would draw the named cursor from its theme; the kiosk reports it.
        seat.cursorShapeChanged = { log($0.map { "cursor shape \($0.cssName)" } ?? "cursor shape none") }
        idle.inhibitorsChanged = { log("idle inhibitors: \($0)") }
        idle.notificationAdded = { log("idle notification after \($0) ms") }
        idle.notificationChanged = { timeout, idle in log("idle notification after \(timeout) ms: \(idle ? "idled" : "resumed")") }
        sessionLock.lockChanged = { log($0 ? "session locked" : "session unlocked") }
        sessionLock.lockAbandoned = { log("session lock abandoned: still locked") }
        sessionLock.lockSurfaceShown = { node, output in log("lock surface shown on \(output?.name ?? "no output")") }
    }
}
