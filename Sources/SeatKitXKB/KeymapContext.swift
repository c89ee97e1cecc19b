/// Where keymaps and compose tables are looked up, and where xkbcommon's messages go while
/// they compile: an `xkb_context`.
///
/// Names are never taken from the environment (`XKB_DEFAULT_LAYOUT` and friends are
/// ignored), so that compiling the same ``KeymapNames`` gives the same keymap everywhere.
/// Messages are collected, not printed: a failed compilation throws them.
public final class KeymapContext {
    let handle: OpaquePointer
    let log = XKBLog()

    /// A context searching `includePaths` first, in order, then (unless `defaultIncludes`
    /// is false) the system's XKB data (`/usr/share/X11/xkb`, `~/.config/xkb`...): a
    /// directory with a `symbols/mine` file adds a layout named `mine`, or overrides one.
    ///
    /// Throws ``KeymapError/contextUnavailable`` when xkbcommon cannot make a context or
    /// finds none of the system's directories, and ``KeymapError/includePathRejected(_:)``
    /// for a directory it cannot read.
    public init(includePaths: [String] = [], defaultIncludes: Bool = true) throws {
        guard let handle = XKB.newContext(log: log) else { throw KeymapError.contextUnavailable }
        self.handle = handle
        for path in includePaths where !XKB.appendIncludePath(handle, path) {
            throw KeymapError.includePathRejected(path)
        }
        if defaultIncludes, !XKB.appendDefaultIncludePaths(handle) { throw KeymapError.contextUnavailable }
        _ = log.drain()
    }

    deinit { XKB.unref(context: handle) }
}
