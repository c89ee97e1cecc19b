/// Where keymaps and compose tables are looked up, and where xkbcommon's messages go while
/// they compile: an `xkb_context`.
///
/// Names are never taken from the environment (`XKB_DEFAULT_LAYOUT` and friends are
/// ignored), so that compiling the same ``KeymapNames`` gives the same keymap everywhere.
/// Messages are collected, not printed: a failed compilation throws them.
public final class KeymapContext {
    let handle: OpaquePointer
    let log = XKBLog()

    /// A context searching `includePaths` first, then (unless `defaultIncludes` is false)
    /// the system's XKB data (`/usr/share/X11/xkb`, `~/.config/xkb`...).
    ///
    /// Throws ``KeymapError/contextUnavailable`` when xkbcommon cannot make a context and
    /// ``KeymapError/includePathRejected(_:)`` for a directory it cannot read.
    public init(includePaths: [String] = [], defaultIncludes: Bool = true) throws {
        guard let handle = XKB.newContext(defaultIncludes: defaultIncludes, log: log) else {
            throw KeymapError.contextUnavailable
        }
        self.handle = handle
        for path in includePaths.reversed() where !XKB.appendIncludePath(handle, path) {
            throw KeymapError.includePathRejected(path)
        }
        _ = log.drain()
    }

    deinit { XKB.unref(context: handle) }
}
