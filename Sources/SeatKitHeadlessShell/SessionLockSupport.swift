import SeatKitWayland

// ext-session-lock-v1 in the headless shell: the lock-surface role, and the SessionLock made
// and kept by the shell (its lock surfaces are this shell's wl_surfaces).

extension HeadlessShell: SessionLockSurfaceRoles {
    public func assignLockSurfaceRole(to surface: OpaquePointer) -> Bool {
        guard let shellSurface = ShellSurface.of(surface) else { return false }
        return shellSurface.assignRole(.lockSurface)
    }

    /// Advertises `ext_session_lock_manager_v1` (SeatKitWayland's `SessionLock`) and keeps it
    /// as ``sessionLock`` (the same one on a second call). Its filter goes after the router's
    /// filters already added: add it before the compositor's click-to-focus filters so that
    /// those never see input the lock keeps (they do not act on it anyway: the lock's grabs
    /// put keyboard focus back on the lock surface).
    @discardableResult
    public func offerSessionLock() -> SessionLock {
        if let sessionLock { return sessionLock }
        let lock = SessionLock(seat: seat, roles: self)
        sessionLock = lock
        return lock
    }

    /// A lock surface committed: menus of the windows under the lock close (their grabs are
    /// the shell's own, not the router's), then the lock places and focuses it.
    func lockSurfaceCommitted(_ surface: OpaquePointer) {
        guard let sessionLock, sessionLock.isLocked else { return }
        if !popupGrabs.isEmpty { dismissGrabs() }
        sessionLock.lockSurfaceCommitted(surface)
    }
}
