import SeatKit
import SeatKitHeadlessShell
import SeatKitWayland

/// The protocols of issue 26 that the kiosk offers beside its shell, each logged as it acts:
/// ext-session-lock-v1 (a lock screen such as swaylock).
final class KioskProtocols {
    let sessionLock: SessionLock

    init(display: WaylandDisplay, seat: Seat, shell: HeadlessShell) {
        sessionLock = shell.offerSessionLock()
        sessionLock.lockChanged = { log($0 ? "session locked" : "session unlocked") }
        sessionLock.lockAbandoned = { log("session lock abandoned: still locked") }
        sessionLock.lockSurfaceShown = { node, output in log("lock surface shown on \(output?.name ?? "no output")") }
    }
}
